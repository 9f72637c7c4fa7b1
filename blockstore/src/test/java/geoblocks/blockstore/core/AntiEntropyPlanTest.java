package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AntiEntropyPlanTest {
    @Test
    void differing_listsTheBucketsWhoseDigestsDiffer() {
        assertEquals(Set.of(1, 3), AntiEntropyPlan.differing(new long[] {0, 5, 7, 9}, new long[] {0, 6, 7, 8}));
        assertEquals(Set.of(), AntiEntropyPlan.differing(new long[] {1, 2}, new long[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> AntiEntropyPlan.differing(new long[2], new long[3]));
    }

    @Test
    void plan_pullsWhatThePeerHasDifferently_pushesWhatThisNodeHasDifferently() {
        AntiEntropyPlan.Plan p = AntiEntropyPlan.plan(Map.of("same", 1L, "differs", 2L, "onlyMine", 3L),
                Map.of("same", 1L, "differs", 9L, "onlyTheirs", 4L));
        assertEquals(List.of("differs", "onlyTheirs"), p.pull());
        assertEquals(List.of("differs", "onlyMine"), p.push());
        assertTrue(AntiEntropyPlan.plan(Map.of("a", 1L), Map.of("a", 1L)).isEmpty());
    }

    /** Two stores that exchange as planned and merge end up with equal digests: the exchange converges. */
    @Test
    void exchangeAsPlanned_convergesTwoStores() throws Exception {
        ManifestStore a = new ManifestStore(new geoblocks.blockstore.meta.MemoryMetaEngine());
        ManifestStore b = new ManifestStore(new geoblocks.blockstore.meta.MemoryMetaEngine());
        for (int i = 0; i < 60; i++) {
            Manifest m = Manifests.of("f" + i, 10 + i, 4).withVersion(new Version(100 + i, i % 2 == 0 ? "seoul" : "dublin"));
            if (i % 3 != 0) {
                a.save(m);
            }
            if (i % 5 != 0) {
                b.save(i % 7 == 0 ? Manifest.tombstone(m.name(), "t", "mumbai", 1, new Version(500 + i, "mumbai")) : m);
            }
        }
        Set<Integer> buckets = AntiEntropyPlan.differing(a.bucketDigests(), b.bucketDigests());
        AntiEntropyPlan.Plan p = AntiEntropyPlan.plan(a.digests(buckets), b.digests(buckets));
        for (String n : p.pull()) {
            a.merge(b.history(n).orElseThrow());
        }
        for (String n : p.push()) {
            b.merge(a.history(n).orElseThrow());
        }
        assertEquals(java.util.Arrays.toString(a.bucketDigests()), java.util.Arrays.toString(b.bucketDigests()));
        assertTrue(AntiEntropyPlan.differing(a.bucketDigests(), b.bucketDigests()).isEmpty());
    }
}
