package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.meta.MemoryMetaEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AntiEntropyPlanTest {
    private static final List<String> REGIONS = List.of("seoul", "dublin", "saopaulo", "mumbai");
    /** Leaves per round, as the component asks for them. */
    private static final int PER_ROUND = 256;

    @Test
    void differing_listsTheBucketsWhoseDigestsDiffer() {
        assertEquals(Set.of(1, 3), AntiEntropyPlan.differing(new long[] {0, 5, 7, 9}, new long[] {0, 6, 7, 8}));
        assertEquals(Set.of(), AntiEntropyPlan.differing(new long[] {1, 2}, new long[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.differing(new long[2], new long[3]));
    }

    @Test
    void differingLeaves_numbersLeavesAcrossTheTree_andChecksItsInput() {
        long[] mine = new long[ManifestStore.LEAVES];
        long[] theirs = new long[ManifestStore.LEAVES];
        theirs[0] = 1;
        theirs[255] = 2;
        assertEquals(Set.of(7 * 256, 7 * 256 + 255), AntiEntropyPlan.differingLeaves(7, mine, theirs));
        long[] first = new long[ManifestStore.LEAVES];
        first[0] = 3;
        assertEquals(Set.of(255 * 256), AntiEntropyPlan.differingLeaves(255, mine, first));
        assertEquals(Set.of(), AntiEntropyPlan.differingLeaves(0, mine, mine.clone()));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.differingLeaves(256, mine, theirs));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.differingLeaves(-1, mine, theirs));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.differingLeaves(0, mine, new long[255]));
    }

    @Test
    void rounds_sortAndCutTheLeaves() {
        assertEquals(List.of(List.of(1, 2), List.of(5, 9), List.of(700)), AntiEntropyPlan.rounds(List.of(9, 5, 700, 1, 2), 2));
        assertEquals(List.of(), AntiEntropyPlan.rounds(List.of(), 256));
        assertEquals(List.of(List.of(3)), AntiEntropyPlan.rounds(List.of(3, 3), 256));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.rounds(List.of(1), 0));
    }

    @Test
    void pageEnds_cutByBytesAndByCount_anOversizedEntryAlone() {
        assertEquals(List.of(0), AntiEntropyPlan.pageEnds(List.of(), 100, 10));
        assertEquals(List.of(2, 4, 5), AntiEntropyPlan.pageEnds(List.of(40, 60, 50, 50, 1), 100, 10));
        assertEquals(List.of(2, 4, 5), AntiEntropyPlan.pageEnds(List.of(1, 1, 1, 1, 1), 100, 2));
        assertEquals(List.of(1, 2, 3), AntiEntropyPlan.pageEnds(List.of(10, 500, 10), 100, 10));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.pageEnds(List.of(1), 0, 1));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.pageEnds(List.of(1), 1, 0));
    }

    @Test
    void outside_findsANameOfALeafNotAskedFor() {
        assertNull(AntiEntropyPlan.outside(Set.of(ManifestStore.leafOf("a"), ManifestStore.leafOf("b")), List.of("a", "b")));
        assertNull(AntiEntropyPlan.outside(Set.of(), List.of()));
        String stray = IntStream.range(0, 1000).mapToObj(i -> "x" + i)
                .filter(n -> ManifestStore.leafOf(n) != ManifestStore.leafOf("a")).findFirst().orElseThrow();
        assertEquals(stray, AntiEntropyPlan.outside(Set.of(ManifestStore.leafOf("a")), List.of("a", stray)));
    }

    @Test
    void plan_pullsWhatThePeerHasDifferently_pushesWhatThisNodeHasDifferently() {
        AntiEntropyPlan.Plan p = AntiEntropyPlan.plan(Map.of("same", 1L, "differs", 2L, "onlyMine", 3L),
                Map.of("same", 1L, "differs", 9L, "onlyTheirs", 4L));
        assertEquals(List.of("differs", "onlyTheirs"), p.pull());
        assertEquals(List.of("differs", "onlyMine"), p.push());
        assertTrue(AntiEntropyPlan.plan(Map.of("a", 1L), Map.of("a", 1L)).isEmpty());
    }

    // ---- the digest tree and the two-level exchange over random stores

    /** What one exchange started by {@code mine} with {@code theirs} compares and decides, step by step as the component does. */
    record Outcome(Set<Integer> buckets, Set<Integer> leaves, int namesCompared, AntiEntropyPlan.Plan plan) {}

    static Outcome exchange(ManifestStore mine, ManifestStore theirs) {
        // SyncDigest: the peer compares the asker's bucket digests with its own
        Set<Integer> buckets = AntiEntropyPlan.differing(theirs.bucketDigests(), mine.bucketDigests());
        // SyncLeaves: the asker compares the peer's leaf digests of those buckets with its own
        Set<Integer> leaves = new TreeSet<>();
        for (int b : buckets) {
            leaves.addAll(AntiEntropyPlan.differingLeaves(b, mine.leafDigests(b), theirs.leafDigests(b)));
        }
        // SyncNamesReq / SyncNames per round, then the plan of each round
        List<String> pull = new ArrayList<>();
        List<String> push = new ArrayList<>();
        int compared = 0;
        for (List<Integer> round : AntiEntropyPlan.rounds(leaves, PER_ROUND)) {
            Set<Integer> asked = new TreeSet<>(round);
            Map<String, Long> theirNames = theirs.leafNameDigests(asked);
            assertNull(AntiEntropyPlan.outside(asked, theirNames.keySet()));
            Map<String, Long> myNames = mine.leafNameDigests(asked);
            compared += theirNames.size() + myNames.size();
            AntiEntropyPlan.Plan p = AntiEntropyPlan.plan(myNames, theirNames);
            pull.addAll(p.pull());
            push.addAll(p.push());
        }
        return new Outcome(buckets, leaves, compared, new AntiEntropyPlan.Plan(pull, push));
    }

    /** Carries out a plan as the component does: pulled histories merged in one batch, pushed ones merged there. */
    static void settle(ManifestStore mine, ManifestStore theirs, AntiEntropyPlan.Plan p) throws IOException {
        List<ManifestHistory> pulled = new ArrayList<>();
        for (String n : p.pull()) {
            pulled.add(theirs.history(n).orElseThrow());
        }
        for (String n : p.push()) {
            theirs.merge(mine.history(n).orElseThrow());
        }
        mine.mergeAll(pulled);
    }

    private static void assertSameTree(ManifestStore a, ManifestStore b, String what) {
        assertArrayEquals(a.bucketDigests(), b.bucketDigests(), what + ": bucket digests");
        for (int bucket = 0; bucket < ManifestStore.BUCKETS; bucket++) {
            assertArrayEquals(a.leafDigests(bucket), b.leafDigests(bucket), what + ": leaf digests of bucket " + bucket);
        }
    }

    /** A leaf's digest is the XOR of its names' digests, a bucket's the XOR of its leaves'. */
    private static void assertTreeConsistent(ManifestStore s, String what) {
        Set<Integer> every = new TreeSet<>();
        for (int leaf = 0; leaf < ManifestStore.BUCKETS * ManifestStore.LEAVES; leaf++) {
            every.add(leaf);
        }
        long[] leaves = new long[ManifestStore.BUCKETS * ManifestStore.LEAVES];
        s.leafNameDigests(every).forEach((n, d) -> leaves[ManifestStore.leafOf(n)] ^= d);
        for (int bucket = 0; bucket < ManifestStore.BUCKETS; bucket++) {
            long[] mine = s.leafDigests(bucket);
            long x = 0;
            for (int leaf = 0; leaf < ManifestStore.LEAVES; leaf++) {
                assertEquals(leaves[bucket * ManifestStore.LEAVES + leaf], mine[leaf], what + ": leaf " + bucket + "/" + leaf);
                x ^= mine[leaf];
            }
            assertEquals(x, s.bucketDigests()[bucket], what + ": bucket " + bucket);
        }
    }

    /** A distinct name: mostly short, some non-ASCII, some at the 1,088-byte limit. */
    static String name(Random r, int i) {
        return switch (r.nextInt(10)) {
            case 0 -> {
                String head = "long/" + i + "/";
                yield head + "k".repeat(Manifest.MAX_NAME_BYTES - head.length() - r.nextInt(3));
            }
            case 1 -> "写真/" + i + "/résumé-\uD83D\uDE00";
            default -> "n" + i + "-" + r.nextInt(1000);
        };
    }

    private static List<String> replicas(Random r) {
        List<String> all = new ArrayList<>(REGIONS);
        Collections.shuffle(all, r);
        return List.copyOf(all.subList(0, 1 + r.nextInt(3)));
    }

    /** One version of {@code name} at {@code clock}: live or a tombstone. */
    private static Manifest version(Random r, String name, long clock) {
        Version v = new Version(clock, REGIONS.get(r.nextInt(REGIONS.size())));
        if (r.nextInt(6) == 0) {
            return Manifest.tombstone(name, "t" + clock, v.region(), 1_700_000_000_000L + clock, v);
        }
        return Manifests.of(name, 1 + r.nextInt(5000), 1024, replicas(r)).withVersion(v);
    }

    /** What a node may receive of a name, in pieces: versions, newer location epochs, tombstone acknowledgements. */
    static List<ManifestHistory> pieces(Random r, String name) {
        List<ManifestHistory> out = new ArrayList<>();
        long clock = 1_000 + r.nextInt(1_000);
        for (int v = 1 + r.nextInt(3); v > 0; v--) {
            clock += 1 + r.nextInt(50);
            Manifest m = version(r, name, clock);
            out.add(ManifestHistory.of(m));
            if (!m.deleted() && r.nextInt(4) == 0) {
                List<Manifest.BlockRef> moved = m.blocks().stream().map(b -> b.withReplicas(replicas(r))).toList();
                out.add(ManifestHistory.of(m.withLocations(moved)));
            }
            if (m.deleted() && r.nextBoolean()) {
                out.add(ManifestHistory.of(m).acknowledgedBy(REGIONS.get(r.nextInt(REGIONS.size()))));
            }
        }
        return out;
    }

    /** {@code n} names and every piece of each, in name order. */
    static Map<String, List<ManifestHistory>> histories(Random r, int n) {
        Map<String, List<ManifestHistory>> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = name(r, i);
            out.put(name, pieces(r, name));
        }
        return out;
    }

    private static ManifestStore store() throws IOException {
        return new ManifestStore(new MemoryMetaEngine());
    }

    private static ManifestStore storeOf(List<ManifestHistory> pieces) throws IOException {
        ManifestStore s = store();
        s.mergeAll(pieces);
        return s;
    }

    /**
     * The digests depend only on what a store holds, not on the order it came in: two stores
     * given the same pieces in different orders (one by one with merge, the other in random
     * batches with mergeAll) agree on every bucket and leaf, and stay so when reopened.
     */
    @Test
    void digests_sameHistoriesInAnyOrder_equalOnEveryBucketAndLeaf() throws IOException {
        for (long seed = 1; seed <= 40; seed++) {
            Random r = new Random(seed);
            List<ManifestHistory> all = new ArrayList<>();
            histories(r, 300).values().forEach(all::addAll);
            List<ManifestHistory> one = new ArrayList<>(all);
            List<ManifestHistory> two = new ArrayList<>(all);
            Collections.shuffle(one, new Random(seed * 31));
            Collections.shuffle(two, new Random(seed * 37));
            MemoryMetaEngine engineA = new MemoryMetaEngine();
            ManifestStore a = new ManifestStore(engineA);
            for (ManifestHistory h : one) {
                a.merge(h);
            }
            ManifestStore b = store();
            for (int at = 0; at < two.size(); ) {
                int to = Math.min(two.size(), at + 1 + r.nextInt(50));
                b.mergeAll(two.subList(at, to));
                at = to;
            }
            String what = "seed " + seed;
            assertSameTree(a, b, what);
            assertEquals(a.names(), b.names(), what);
            assertTreeConsistent(a, what);
            assertSameTree(new ManifestStore(engineA), b, what + ", reopened");
            Outcome o = exchange(a, b);
            assertEquals(Set.of(), o.buckets(), what);
            assertTrue(o.plan().isEmpty(), what);
        }
    }

    private enum Change { ADDED, REMOVED, CHANGED }

    /** A piece that changes the history {@code h} of a name (its digest then differs). */
    private static ManifestHistory change(Random r, ManifestHistory h) {
        Manifest head = h.head();
        switch (r.nextInt(4)) {
            case 0: // a version below the head that one side never got
                long below = h.versions().get(0).version().clock() - 1 - r.nextInt(10);
                return ManifestHistory.of(version(r, h.name(), below));
            case 1: // the head at new places
                if (!head.deleted()) {
                    return ManifestHistory.of(head.withLocations(
                            head.blocks().stream().map(b -> b.withReplicas(List.of("nowhere-" + r.nextInt(9)))).toList()));
                }
                // fall through: a tombstone head has no blocks to move
            case 2: // the tombstone head acknowledged by one more region
                if (head.deleted()) {
                    return h.acknowledgedBy("acknowledger-" + r.nextInt(9));
                }
                // fall through
            default: // a newer version, live or a tombstone
                return ManifestHistory.of(version(r, h.name(), head.version().clock() + 1 + r.nextInt(10)));
        }
    }

    /**
     * Over 200 seeded pairs of stores of 300 names that differ in exactly one name (added, removed,
     * or held differently, on either side), the exchange finds that name and no other: exactly one
     * bucket and one leaf differ, the names compared are only that leaf's, and the plan pulls
     * and/or pushes that one name as the change requires. Settling the plan makes the stores equal.
     */
    @Test
    void exchange_storesDifferingInOneName_findsExactlyThatName() throws IOException {
        Map<Change, Integer> seen = new HashMap<>();
        for (long seed = 1; seed <= 200; seed++) {
            Random r = new Random(seed);
            Map<String, List<ManifestHistory>> base = histories(r, 300);
            List<String> names = new ArrayList<>(base.keySet());
            Change kind = Change.values()[(int) (seed % 3)];
            boolean onMine = (seed / 3) % 2 == 0;
            List<ManifestHistory> same = new ArrayList<>();
            List<ManifestHistory> other = new ArrayList<>();
            String target;
            if (kind == Change.ADDED) {
                target = name(r, 300);
                base.values().forEach(same::addAll);
                other.addAll(same);
                other.addAll(pieces(r, target));
            } else {
                target = names.get(r.nextInt(names.size()));
                base.forEach((n, p) -> {
                    same.addAll(p);
                    if (!n.equals(target) || kind == Change.CHANGED) {
                        other.addAll(p);
                    }
                });
                if (kind == Change.CHANGED) {
                    ManifestHistory h = ManifestHistory.of(base.get(target).get(0).head());
                    for (ManifestHistory p : base.get(target)) {
                        h = h.merge(p);
                    }
                    other.add(change(r, h));
                }
            }
            ManifestStore plain = storeOf(same);
            ManifestStore changed = storeOf(other);
            ManifestStore mine = onMine ? changed : plain;
            ManifestStore theirs = onMine ? plain : changed;
            String what = "seed " + seed + ", " + kind + (onMine ? " here" : " at the peer") + ", '" + target + "'";

            Outcome o = exchange(mine, theirs);
            assertEquals(Set.of(ManifestStore.bucketOf(target)), o.buckets(), what);
            assertEquals(Set.of(ManifestStore.leafOf(target)), o.leaves(), what);
            int inLeaf = mine.leafNameDigests(o.leaves()).size() + theirs.leafNameDigests(o.leaves()).size();
            assertEquals(inLeaf, o.namesCompared(), what);
            boolean mineHasIt = mine.history(target).isPresent();
            boolean theirsHasIt = theirs.history(target).isPresent();
            assertEquals(theirsHasIt ? List.of(target) : List.of(), o.plan().pull(), what + ": pull");
            assertEquals(mineHasIt ? List.of(target) : List.of(), o.plan().push(), what + ": push");
            assertEquals(kind == Change.CHANGED, mineHasIt && theirsHasIt, what);

            settle(mine, theirs, o.plan());
            assertSameTree(mine, theirs, what + ", settled");
            assertTrue(exchange(mine, theirs).plan().isEmpty(), what + ", settled");
            seen.merge(kind, 1, Integer::sum);
        }
        assertEquals(Map.of(Change.ADDED, 66, Change.REMOVED, 67, Change.CHANGED, 67), seen);
    }

    /**
     * What one differing name costs does not grow with the names: among 20,000 names (the one-level
     * exchange compared a whole bucket, about 78 of them on each side) the exchange compares only
     * the names of one leaf.
     */
    @Test
    void exchange_oneDifferenceAmongManyNames_comparesOneLeafOfNames() throws IOException {
        Random r = new Random(42);
        List<ManifestHistory> all = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            all.add(ManifestHistory.of(Manifests.of("obj/" + i, 1 + r.nextInt(100), 1024)
                    .withVersion(new Version(1_000 + i, "seoul"))));
        }
        ManifestStore a = storeOf(all);
        ManifestStore b = storeOf(all);
        b.save(Manifests.of("obj/new", 7, 1024).withVersion(new Version(99_999, "dublin")));
        Outcome o = exchange(a, b);
        assertEquals(1, o.buckets().size());
        assertEquals(1, o.leaves().size());
        assertTrue(o.namesCompared() <= 2 * 6 + 1, "compared " + o.namesCompared() + " names");
        assertEquals(List.of("obj/new"), o.plan().pull());
        assertEquals(List.of(), o.plan().push());
    }

    /** The exchange converges two stores that differ in many names, with tombstones, on both sides. */
    @Test
    void exchangeAsPlanned_convergesTwoStores() throws Exception {
        ManifestStore a = store();
        ManifestStore b = store();
        for (int i = 0; i < 60; i++) {
            Manifest m = Manifests.of("f" + i, 10 + i, 4).withVersion(new Version(100 + i, i % 2 == 0 ? "seoul" : "dublin"));
            if (i % 3 != 0) {
                a.save(m);
            }
            if (i % 5 != 0) {
                b.save(i % 7 == 0 ? Manifest.tombstone(m.name(), "t", "mumbai", 1, new Version(500 + i, "mumbai")) : m);
            }
        }
        Outcome o = exchange(a, b);
        assertTrue(o.leaves().size() >= o.buckets().size());
        settle(a, b, o.plan());
        assertSameTree(a, b, "after one exchange");
        assertTrue(AntiEntropyPlan.differing(a.bucketDigests(), b.bucketDigests()).isEmpty());
    }
}
