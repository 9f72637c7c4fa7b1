package geoblocks.blockstore.core.layout;

import geoblocks.net.ClusterVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rule that raises the cluster's version ({@code cluster finalize}), pure. The cluster version is the
 * lowest release its members may run: what a release knows but the one before it cannot read (a format
 * on disk or on the wire) switches on only once the cluster version reached that release, and from then
 * on nodes refuse peers below it (their handshakes name their releases). Until then any region may go
 * back to the previous release without losing anything. It never falls.
 *
 * <p>{@link #raise} takes it to {@code target} only when every member of the layout (draining ones too:
 * they still serve) is connected to the deciding node now and runs {@code target} or later, so no node
 * that cannot read what comes next is left in the cluster; a region that is down blocks it (nobody knows
 * what it will come back as), and is started on the new release or removed first.
 */
public final class ClusterUpgrade {
    private ClusterUpgrade() {}

    /**
     * The next layout, at cluster version {@code target}. {@code running}: the release line each region
     * connected to the deciding node runs now, the deciding node's own included (regions missing: down, or
     * not connected). IllegalArgumentException when {@code target} is not above the current version;
     * IllegalStateException naming the regions that hold it back, and what to do.
     */
    public static Layout raise(Layout current, ClusterVersion target, Map<String, ClusterVersion> running) {
        if (target.compareTo(current.clusterVersion()) <= 0) {
            throw new IllegalArgumentException("the cluster version is already " + current.clusterVersion()
                    + (target.equals(current.clusterVersion()) ? "" : ", above " + target) + ": nothing to finalize"
                    + " (it never falls)");
        }
        List<String> behind = behind(current, target, running);
        if (!behind.isEmpty()) {
            throw new IllegalStateException("cannot raise the cluster version to " + target + ": " + String.join("; ",
                    behind) + ". Every member must run " + target + " or later and be up first (see docs/upgrading.md)");
        }
        return new Layout(current.version() + 1, current.regions(), current.ownersBefore(), current.ownersSince(), target);
    }

    /** What holds the cluster version below {@code target}: one entry per member, "dublin runs 0.2", "mumbai is down". */
    public static List<String> behind(Layout current, ClusterVersion target, Map<String, ClusterVersion> running) {
        List<String> out = new ArrayList<>();
        for (String m : current.members()) {
            ClusterVersion v = running.get(m);
            if (v == null) {
                out.add(m + " is down or not connected (what it runs is unknown: start it on " + target
                        + " or later, or remove it)");
            } else if (v.compareTo(target) < 0) {
                out.add(m + " runs " + v + " (upgrade it)");
            }
        }
        return out;
    }

    /**
     * For operators, whether {@code cluster finalize} at a node of release {@code self} could raise the cluster
     * version now: "every member runs 0.3 or later: `cluster finalize` raises it to 0.3", "0.3 waits: dublin runs 0.2
     * (upgrade it)", or "" (the cluster is at {@code self} already, or above).
     */
    public static String note(Layout current, ClusterVersion self, Map<String, ClusterVersion> running) {
        if (self.compareTo(current.clusterVersion()) <= 0) {
            return "";
        }
        List<String> behind = behind(current, self, new TreeMap<>(running));
        return behind.isEmpty() ? "every member runs " + self + " or later: `cluster finalize` raises it to " + self
                : self + " waits: " + String.join("; ", behind);
    }

    /**
     * Why a node of release {@code release} must not run on a data directory whose stored layout is {@code stored}
     * (its cluster version is above that release: what the cluster switched on is more than it reads), or null.
     */
    public static String tooOld(Layout stored, ClusterVersion release) {
        if (stored == null || stored.clusterVersion().compareTo(release) <= 0) {
            return null;
        }
        return "this node's cluster runs at cluster version " + stored.clusterVersion() + " (its layout version "
                + stored.version() + " says so), above release " + release + " which this build runs: what the cluster"
                + " switched on is more than " + release + " reads. Run " + stored.clusterVersion()
                + " or later (see docs/upgrading.md)";
    }
}
