package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The decisions of one anti-entropy exchange between two nodes, over the two-level digest tree
 * {@link ManifestStore} keeps (as in Dynamo's and Cassandra's repair, a Merkle tree of hash
 * ranges): compare the {@link ManifestStore#BUCKETS} bucket digests; for each bucket that differs,
 * compare its {@link ManifestStore#LEAVES} leaf digests; for each leaf that differs, compare the
 * digest of every name in it. A name whose histories differ (or that one side lacks) is pulled
 * from the peer and pushed to it, and both sides merge ({@link ManifestHistory#merge}), after which
 * they hold the same history. What travels is proportional to the differences: one differing
 * name costs two bucket-digest arrays, one bucket's leaf digests and the names of one leaf (about
 * {@code names / 65,536} of them), whatever the number of names. Pure.
 */
public final class AntiEntropyPlan {
    private AntiEntropyPlan() {}

    /** Buckets (or leaves of one bucket) whose digests differ; both arrays must be equally long. */
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

    /**
     * The leaves of {@code bucket} whose digests differ, as tree-wide leaf numbers
     * ({@code bucket * LEAVES + leaf}, what {@link ManifestStore#leafOf} gives): {@code mine} and
     * {@code theirs} hold the bucket's {@link ManifestStore#LEAVES} leaf digests.
     */
    public static Set<Integer> differingLeaves(int bucket, long[] mine, long[] theirs) {
        if (bucket < 0 || bucket >= ManifestStore.BUCKETS) {
            throw new IllegalArgumentException("bucket must be in 0.." + (ManifestStore.BUCKETS - 1) + ", was " + bucket);
        }
        if (mine.length != ManifestStore.LEAVES || theirs.length != ManifestStore.LEAVES) {
            throw new IllegalArgumentException("a bucket has " + ManifestStore.LEAVES + " leaf digests, got "
                    + mine.length + " and " + theirs.length);
        }
        Set<Integer> out = new TreeSet<>();
        for (int leaf : differing(mine, theirs)) {
            out.add(bucket * ManifestStore.LEAVES + leaf);
        }
        return out;
    }

    /** {@code leaves} in ascending order, cut into rounds of at most {@code perRound} (asked for and settled in turn). */
    public static List<List<Integer>> rounds(Collection<Integer> leaves, int perRound) {
        if (perRound < 1) {
            throw new IllegalArgumentException("a round holds at least one leaf, asked for " + perRound);
        }
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(leaves));
        List<List<Integer>> out = new ArrayList<>();
        for (int at = 0; at < sorted.size(); at += perRound) {
            out.add(List.copyOf(sorted.subList(at, Math.min(sorted.size(), at + perRound))));
        }
        return out;
    }

    /** The first of {@code names} that does not fall in one of {@code leaves}, or null (a peer answered what was not asked). */
    public static String outside(Set<Integer> leaves, Collection<String> names) {
        for (String n : names) {
            if (!leaves.contains(ManifestStore.leafOf(n))) {
                return n;
            }
        }
        return null;
    }

    /**
     * Where to cut a list of entries into messages: entry {@code i} takes {@code sizes.get(i)}
     * bytes; a page holds at most {@code maxCount} entries and {@code maxBytes} bytes (an entry
     * larger than that alone). Returns each page's end (exclusive); an empty list is one empty page.
     */
    public static List<Integer> pageEnds(List<Integer> sizes, int maxBytes, int maxCount) {
        if (maxBytes < 1 || maxCount < 1) {
            throw new IllegalArgumentException("pages hold at least one byte and one entry, asked for "
                    + maxBytes + " bytes, " + maxCount + " entries");
        }
        List<Integer> ends = new ArrayList<>();
        int count = 0;
        long bytes = 0;
        for (int i = 0; i < sizes.size(); i++) {
            int s = sizes.get(i);
            if (count > 0 && (count == maxCount || bytes + s > maxBytes)) {
                ends.add(i);
                count = 0;
                bytes = 0;
            }
            count++;
            bytes += s;
        }
        ends.add(sizes.size());
        return ends;
    }

    /** Names to pull from the peer (it has them, differently or alone) and to push to it (likewise from here). */
    public record Plan(List<String> pull, List<String> push) {
        public boolean isEmpty() {
            return pull.isEmpty() && push.isEmpty();
        }
    }

    /** The plan for the names of the differing leaves: {@code mine} and {@code theirs} map name to digest. */
    public static Plan plan(Map<String, Long> mine, Map<String, Long> theirs) {
        List<String> pull = new ArrayList<>();
        List<String> push = new ArrayList<>();
        for (Map.Entry<String, Long> e : new TreeMap<>(theirs).entrySet()) {
            if (!Objects.equals(mine.get(e.getKey()), e.getValue())) {
                pull.add(e.getKey());
            }
        }
        for (Map.Entry<String, Long> e : new TreeMap<>(mine).entrySet()) {
            if (!Objects.equals(theirs.get(e.getKey()), e.getValue())) {
                push.add(e.getKey());
            }
        }
        return new Plan(pull, push);
    }
}
