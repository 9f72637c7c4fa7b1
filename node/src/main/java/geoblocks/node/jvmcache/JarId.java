package geoblocks.node.jvmcache;

/**
 * The jar a cache was made for, as the JVM checks it: its absolute path, size and modification time
 * (a rebuilt jar differs in one of them, and the JVM refuses a cache made for the old one).
 */
public record JarId(String path, long size, long modifiedMillis) {
    public JarId {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("a jar needs a path, was '" + path + "'");
        }
        if (size < 0) {
            throw new IllegalArgumentException("jar size must not be negative, was " + size);
        }
    }
}
