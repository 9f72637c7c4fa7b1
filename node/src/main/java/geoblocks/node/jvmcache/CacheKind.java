package geoblocks.node.jvmcache;

import java.nio.file.Path;
import java.util.List;

/**
 * The kind of class cache a JVM can make from a training run and start from, by its feature release:
 * on Java 25 and later an AOT cache (JEP 483, made in one step by JEP 514's {@code -XX:AOTCacheOutput},
 * with JEP 515's method profiles), before 25 a dynamic CDS archive ({@code -XX:ArchiveClassesAtExit},
 * Java 13 and later). Both are written when the training JVM exits and are refused by any other JVM
 * build or class path, which then starts without them.
 */
public enum CacheKind {
    /** Java 25+: classes loaded and linked, and method profiles, of the training run. */
    AOT("AOT cache", "aot", "-XX:AOTCacheOutput=", "-XX:AOTCache="),
    /** Java 17-24: the classes the training run loaded, parsed and verified (a dynamic CDS archive). */
    CDS("CDS archive", "jsa", "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=");

    /** The first feature release whose JVM makes an AOT cache in one step (JEP 514). */
    public static final int AOT_FROM = 25;

    private final String label;
    private final String extension;
    private final String recordFlag;
    private final String useFlag;

    CacheKind(String label, String extension, String recordFlag, String useFlag) {
        this.label = label;
        this.extension = extension;
        this.recordFlag = recordFlag;
        this.useFlag = useFlag;
    }

    /** The kind the JVM of feature release {@code feature} (e.g. 17, 25) makes. */
    public static CacheKind forFeature(int feature) {
        if (feature < 17) {
            throw new IllegalArgumentException("geoblocks needs Java 17 or later, this is Java " + feature);
        }
        return feature >= AOT_FROM ? AOT : CDS;
    }

    /** "AOT cache" or "CDS archive", for messages. */
    public String label() {
        return label;
    }

    /**
     * The cache's file name for a jar and a feature release: {@code node.jar} on 25 gives
     * {@code node-java25.aot}, on 17 {@code node-java17.jsa}.
     */
    public String fileName(String jarName, int feature) {
        String base = jarName.endsWith(".jar") ? jarName.substring(0, jarName.length() - 4) : jarName;
        return base + "-java" + feature + "." + extension;
    }

    /** JVM options that make a JVM write this kind of cache to {@code out} as it exits. */
    public List<String> recordOptions(Path out) {
        return List.of(recordFlag + out);
    }

    /** JVM options that make a JVM start from the cache {@code cache}. */
    public List<String> useOptions(Path cache) {
        return List.of(useFlag + cache);
    }

    /** The cache file an option of either kind names (use or record), or null when {@code option} is neither. */
    public static String cacheIn(String option) {
        for (CacheKind k : values()) {
            for (String flag : List.of(k.useFlag, k.recordFlag)) {
                if (option.startsWith(flag)) {
                    return option.substring(flag.length());
                }
            }
        }
        return null;
    }

    /** Whether {@code option} makes the JVM write a cache (a training run). */
    public static boolean records(String option) {
        return option.startsWith(AOT.recordFlag) || option.startsWith(CDS.recordFlag) || option.startsWith("-XX:AOTMode=record");
    }

    /**
     * Whether JVM options already choose a class cache (either kind, used or recorded) or turn sharing off:
     * a launcher then adds none of its own.
     */
    public static boolean chosenIn(List<String> options) {
        return options.stream().anyMatch(o -> cacheIn(o) != null || o.startsWith("-XX:AOTMode") || o.startsWith("-Xshare:off"));
    }
}
