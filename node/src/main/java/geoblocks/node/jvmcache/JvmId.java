package geoblocks.node.jvmcache;

/**
 * The JVM a cache was made by: its home directory, VM version ({@code java.vm.version}, e.g.
 * {@code 25.0.2+10-LTS}) and vendor. A cache is tied to one JVM build; another build refuses it.
 */
public record JvmId(String home, String vmVersion, String vendor) {
    public JvmId {
        if (home == null || vmVersion == null || vendor == null) {
            throw new IllegalArgumentException("a JVM needs a home, version and vendor: " + home + ", " + vmVersion + ", " + vendor);
        }
    }

    /** The JVM this code runs in. */
    public static JvmId current() {
        return new JvmId(System.getProperty("java.home"), System.getProperty("java.vm.version"),
                System.getProperty("java.vm.vendor"));
    }

    /** For messages: "Eclipse Adoptium 25.0.2+10-LTS at /usr/lib/jvm/temurin-25". */
    public String describe() {
        return vendor + " " + vmVersion + " at " + home;
    }
}
