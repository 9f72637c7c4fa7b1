package geoblocks.node.jvmcache;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Properties;

/**
 * What {@code train} wrote beside a cache ({@code node-java25.aot.stamp}): the cache's kind, the jar and
 * JVM it was made for, and when. Launchers read it to choose a cache without asking the JVM, and to say
 * why they do not use one. A text file of Java properties:
 * <pre>
 * # geoblocks JVM cache stamp, version 1
 * version=1
 * kind=AOT
 * jar.path=/opt/geoblocks/node.jar
 * jar.size=50203923
 * jar.modified=1796940840000
 * jvm.home=/usr/lib/jvm/temurin-25-jdk-amd64
 * jvm.version=25.0.2+10-LTS
 * jvm.vendor=Eclipse Adoptium
 * made=2026-12-07T22:20:00Z
 * </pre>
 */
public record CacheStamp(CacheKind kind, JarId jar, JvmId jvm, Instant made) {
    static final int VERSION = 1;

    /** The stamp's file beside {@code cacheFileName}. */
    public static String fileNameFor(String cacheFileName) {
        return cacheFileName + ".stamp";
    }

    /** The stamp as text (see the class comment). */
    public String toText() {
        Properties p = new Properties();
        p.setProperty("version", Integer.toString(VERSION));
        p.setProperty("kind", kind.name());
        p.setProperty("jar.path", jar.path());
        p.setProperty("jar.size", Long.toString(jar.size()));
        p.setProperty("jar.modified", Long.toString(jar.modifiedMillis()));
        p.setProperty("jvm.home", jvm.home());
        p.setProperty("jvm.version", jvm.vmVersion());
        p.setProperty("jvm.vendor", jvm.vendor());
        p.setProperty("made", made.toString());
        StringWriter w = new StringWriter();
        try {
            p.store(w, "geoblocks JVM cache stamp, version " + VERSION);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return w.toString();
    }

    /** Reads a stamp's text; a missing or malformed key, or another version, is a {@link BadStampException} naming it. */
    public static CacheStamp parse(String text) throws BadStampException {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new BadStampException("not a properties file: " + e.getMessage());
        }
        String version = get(p, "version");
        if (!version.equals(Integer.toString(VERSION))) {
            throw new BadStampException("version " + version + ", this build reads version " + VERSION);
        }
        try {
            return new CacheStamp(CacheKind.valueOf(get(p, "kind")),
                    new JarId(get(p, "jar.path"), Long.parseLong(get(p, "jar.size")), Long.parseLong(get(p, "jar.modified"))),
                    new JvmId(get(p, "jvm.home"), get(p, "jvm.version"), get(p, "jvm.vendor")),
                    Instant.parse(get(p, "made")));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new BadStampException("a bad value: " + e.getMessage());
        }
    }

    private static String get(Properties p, String key) throws BadStampException {
        String v = p.getProperty(key);
        if (v == null) {
            throw new BadStampException("no '" + key + "'");
        }
        return v;
    }

    /** A stamp that cannot be read: its message says what is wrong with it. */
    public static final class BadStampException extends IOException {
        public BadStampException(String message) {
            super(message);
        }
    }
}
