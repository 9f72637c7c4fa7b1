package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decisions of one anti-entropy exchange between two nodes (as in Dynamo's and Cassandra's
 * repair, with one level of hash buckets instead of a Merkle tree): compare the digests of every
 * bucket of names, then, for the buckets that differ, the digest of every name in them; a name
 * whose histories differ (or that one side lacks) is pulled from the peer and pushed to it, and
 * both sides merge ({@link ManifestHistory#merge}), after which they hold the same history. Pure.
 */
public final class AntiEntropyPlan {
    private AntiEntropyPlan() {}

    /** Buckets whose digests differ; both arrays must have one digest per bucket. */
    public static Set<Integer> differing(long[] mine, long[] theirs) {
        if (mine.length != theirs.length) {
            throw new IllegalArgumentException("digests of " + theirs.length + " buckets, expected " + mine.length);
        }
        Set<Integer> out = new TreeSet<>();
        for (int b = 0; b < mine.length; b++) {
            if (mine[b] != theirs[b]) {
                out.add(b);
            }
        }
        return out;
    }

    /** Names to pull from the peer (it has them, differently or alone) and to push to it (likewise from here). */
    public record Plan(List<String> pull, List<String> push) {
        public boolean isEmpty() {
            return pull.isEmpty() && push.isEmpty();
        }
    }

    /** The plan for the names of the differing buckets: {@code mine} and {@code theirs} map name to digest. */
    public static Plan plan(Map<String, Long> mine, Map<String, Long> theirs) {
        List<String> pull = new ArrayList<>();
        List<String> push = new ArrayList<>();
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(theirs).entrySet()) {
            if (!Objects.equals(mine.get(e.getKey()), e.getValue())) {
                pull.add(e.getKey());
            }
        }
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(mine).entrySet()) {
            if (!Objects.equals(theirs.get(e.getKey()), e.getValue())) {
                push.add(e.getKey());
            }
        }
        return new Plan(pull, push);
    }
}
