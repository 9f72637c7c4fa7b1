package geoblocks.net;

/**
 * The versions of one protocol that one end speaks, {@code min} to {@code max} inclusive (0..255, one
 * byte on the wire). Two ends speak the highest version both ranges hold ({@link #highestShared});
 * when the ranges do not meet, {@link #mismatch} says which end is older. A node speaks at least its
 * own version and the previous release's, so one region can be upgraded or rolled back alone.
 */
public record VersionRange(int min, int max) {
    public VersionRange {
        if (min < 0 || max > 255 || min > max) {
            throw new IllegalArgumentException("version range must be 0 <= min <= max <= 255, was " + min + ".." + max);
        }
    }

    /** The range of one version alone. */
    public static VersionRange only(int version) {
        return new VersionRange(version, version);
    }

    public boolean contains(int version) {
        return version >= min && version <= max;
    }

    /** The highest version both ranges hold, or -1 when they do not meet. */
    public int highestShared(VersionRange theirs) {
        int top = Math.min(max, theirs.max);
        return top >= Math.max(min, theirs.min) ? top : -1;
    }

    /**
     * This range with its top at {@code highest} (an end that must play an older release: an upgrade
     * test pins the new build to the version below); IllegalArgumentException when outside the range.
     */
    public VersionRange atMost(int highest) {
        if (!contains(highest)) {
            throw new IllegalArgumentException("cannot pin " + this + " at " + highest + ": outside the range");
        }
        return new VersionRange(min, highest);
    }

    /**
     * Why {@code ours} and {@code theirs} share no version of {@code protocol}, in words for an operator:
     * which end is older, and what to do.
     */
    public static String mismatch(String protocol, VersionRange ours, VersionRange theirs) {
        String older = theirs.max < ours.min ? "the peer runs an older geoblocks, from before every version this node"
                + " still speaks: upgrade the peer" : "the peer runs a newer geoblocks, which no longer speaks any"
                + " version this node does: upgrade this node";
        return protocol + ": this node speaks version " + ours + ", the peer " + theirs + " (" + older + "; a node"
                + " speaks its own version and the previous release's, see docs/upgrading.md)";
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + "-" + max;
    }
}
