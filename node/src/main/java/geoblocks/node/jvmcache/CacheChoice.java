package geoblocks.node.jvmcache;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Whether a launcher starts a JVM from a cache {@code train} made: only from one made for this very jar
 * (path, size, modification time) by this very JVM (home, version, vendor), as the JVM itself would
 * accept it; any other is passed over with a reason that names what differs, so the user learns why a
 * start is cold instead of reading the JVM's refusal in a node's log. Pure: the caller reads the files.
 */
public final class CacheChoice {
    private CacheChoice() {}

    /** What to do about one cache file. */
    public sealed interface Choice {}

    /** Start from {@code cache} with {@code options}. */
    public record Use(Path cache, CacheStamp stamp, List<String> options) implements Choice {}

    /** No cache there: start cold, nothing to say. */
    public record Absent(Path cache) implements Choice {}

    /** A cache is there but not for this jar and JVM (or unreadable): start cold, and say {@code why}. */
    public record PassOver(Path cache, String why) implements Choice {}

    /**
     * The choice for {@code cache} of {@code kind}: {@code exists} whether the file is there, {@code stamp}
     * its stamp (null: none or unreadable, {@code stampProblem} then says which), for jar {@code jar} on JVM
     * {@code jvm}.
     */
    public static Choice choose(CacheKind kind, Path cache, boolean exists, CacheStamp stamp, String stampProblem, JarId jar,
            JvmId jvm) {
        if (!exists) {
            return new Absent(cache);
        }
        if (stamp == null) {
            return new PassOver(cache, "its stamp " + CacheStamp.fileNameFor(cache.getFileName().toString()) + " "
                    + (stampProblem == null ? "is missing" : "cannot be read: " + stampProblem)
                    + ", so which jar and JVM made it is unknown");
        }
        if (stamp.kind() != kind) {
            return new PassOver(cache, "it is a " + stamp.kind().label() + ", this JVM starts from a " + kind.label());
        }
        String why = mismatch(stamp, jar, jvm);
        return why == null ? new Use(cache, stamp, kind.useOptions(cache)) : new PassOver(cache, why);
    }

    /** Why a cache stamped {@code made} does not fit jar {@code jar} on JVM {@code jvm}; null when it fits. */
    public static String mismatch(CacheStamp made, JarId jar, JvmId jvm) {
        if (!made.jvm().equals(jvm)) {
            return "it was made by another JVM (" + made.jvm().describe() + "; this is " + jvm.describe() + ")";
        }
        JarId was = made.jar();
        if (!was.path().equals(jar.path())) {
            return "it was made for the jar " + was.path() + ", this is " + jar.path();
        }
        if (was.size() != jar.size() || was.modifiedMillis() != jar.modifiedMillis()) {
            return "it was made for another build of " + jar.path() + " (" + was.size() + " bytes, modified "
                    + Instant.ofEpochMilli(was.modifiedMillis()) + "; now " + jar.size() + " bytes, modified "
                    + Instant.ofEpochMilli(jar.modifiedMillis()) + ")";
        }
        return null;
    }
}
