package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ManifestHistoryTest {
    private static final long MS = 1L << HybridClock.LOGICAL_BITS;

    private static Manifest v(long millis, String region) {
        return Manifests.of("n", 10 + millis % 7, 4).withVersion(new Version(HybridClock.of(millis, 0), region));
    }

    private static Manifest tomb(long millis, String region) {
        return Manifest.tombstone("n", "t" + millis, region, millis, new Version(HybridClock.of(millis, 0), region));
    }

    private static ManifestHistory h(Manifest... ms) {
        List<Manifest> l = new ArrayList<>(List.of(ms));
        Collections.sort(l, (a, b) -> a.version().compareTo(b.version()));
        return new ManifestHistory("n", l);
    }

    @Test
    void new_unsortedOrDuplicateOrForeignVersions_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ManifestHistory("n", List.of(v(2, "a"), v(1, "a"))));
        assertThrows(IllegalArgumentException.class, () -> new ManifestHistory("n", List.of(v(1, "a"), v(1, "a"))));
        assertThrows(IllegalArgumentException.class, () -> new ManifestHistory("n", List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ManifestHistory("other", List.of(v(1, "a"))));
        assertTrue(e.getMessage().contains("history of 'other'"), e.getMessage());
    }

    @Test
    void head_isTheHighest_liveIsEmptyWhenItIsATombstone() {
        assertEquals(v(5, "b"), h(v(5, "a"), v(5, "b"), v(3, "z")).head());
        assertEquals(Optional.empty(), h(v(1, "a"), tomb(2, "b")).live());
        assertEquals(Optional.of(v(3, "a")), h(tomb(2, "b"), v(3, "a")).live()); // a put after the delete
    }

    @Test
    void merge_isCommutativeAssociativeIdempotent_overRandomHistories() {
        Random r = new Random(11);
        for (int round = 0; round < 500; round++) {
            ManifestHistory a = acked(random(r), r);
            ManifestHistory b = acked(random(r), r);
            ManifestHistory c = acked(random(r), r);
            assertEquals(a.merge(b), b.merge(a));
            assertEquals(a.merge(b).merge(c), a.merge(b.merge(c)));
            assertEquals(a.merge(a), a);
            assertEquals(a.merge(b), a.merge(b).merge(b));
        }
    }

    /** {@code h} acknowledged by a random subset of the regions (when its head is a tombstone). */
    private static ManifestHistory acked(ManifestHistory h, Random r) {
        for (String region : List.of("seoul", "dublin", "mumbai", "saopaulo")) {
            if (r.nextBoolean()) {
                h = h.acknowledgedBy(region);
            }
        }
        return h;
    }

    private static ManifestHistory random(Random r) {
        List<Manifest> all = new ArrayList<>();
        String[] regions = {"seoul", "dublin", "mumbai"};
        for (int i = 0; i < 1 + r.nextInt(4); i++) {
            long ms = 1 + r.nextInt(6);
            String region = regions[r.nextInt(3)];
            Manifest m = r.nextInt(4) == 0 ? tomb(ms, region) : v(ms, region);
            if (!m.deleted() && r.nextBoolean()) { // the same version, moved once or twice
                m = m.withLocations(m.blocks().stream().map(b -> new Manifest.BlockRef(b.length(), b.crc(),
                        List.of(regions[r.nextInt(3)]))).toList());
            }
            if (r.nextInt(5) == 0) { // purged (at one of two times: two regions purged it)
                m = m.purgedAt(100 + r.nextInt(2));
            }
            Manifest chosen = m;
            all.removeIf(x -> x.version().equals(chosen.version()));
            all.add(m);
        }
        Collections.sort(all, (x, y) -> x.version().compareTo(y.version()));
        return new ManifestHistory("n", all);
    }

    @Test
    void merge_sameVersion_higherEpochWins_thenTheHigherEncoding() {
        Manifest base = v(4, "a");
        Manifest toX = base.withLocations(base.blocks().stream().map(b -> new Manifest.BlockRef(b.length(), b.crc(), List.of("x"))).toList());
        Manifest toY = base.withLocations(base.blocks().stream().map(b -> new Manifest.BlockRef(b.length(), b.crc(), List.of("y"))).toList());
        assertEquals(List.of(toX), h(base).merge(h(toX)).versions());
        assertEquals(List.of(toX), h(toX).merge(h(base)).versions());
        // two movers of one version at one epoch: the same choice on both sides
        assertEquals(h(toX).merge(h(toY)), h(toY).merge(h(toX)));
    }

    @Test
    void merge_putAndConcurrentDelete_theHigherVersionWinsEverywhere() {
        ManifestHistory seoul = h(v(1, "x"), v(10, "seoul"));
        ManifestHistory dublin = h(v(1, "x"), tomb(10, "dublin")); // same millisecond: "seoul" > "dublin"
        assertEquals(v(10, "seoul"), seoul.merge(dublin).head());
        assertEquals(v(10, "seoul"), dublin.merge(seoul).head());
        assertEquals(3, seoul.merge(dublin).versions().size()); // the delete is kept as an earlier version
    }

    @Test
    void prune_dropsVersionsSupersededLongerThanTheRetention() {
        ManifestHistory hist = h(v(100, "a"), v(200, "a"), v(300, "a"));
        assertEquals(hist, hist.prune(299, 100).kept()); // v100 superseded at 200: kept until 300
        ManifestHistory.Pruned p = hist.prune(300, 100);
        assertEquals(List.of(v(200, "a"), v(300, "a")), p.kept().versions());
        assertEquals(List.of(v(100, "a")), p.dropped());
        p = hist.prune(10_000, 100);
        assertEquals(List.of(v(300, "a")), p.kept().versions()); // the head is never dropped while live
        assertEquals(2, p.dropped().size());
    }

    private static Manifest kept(long millis) {
        Manifest m = v(millis, "a");
        return new Manifest(m.name(), m.fileId(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis(),
                m.blocks(), m.version(), 0, false, Map.of(Manifest.META_KEEP, "1"));
    }

    @Test
    void prune_keepsVersionsMarkedKeep_andDropsTheUnmarkedOnesAroundThem() {
        ManifestHistory hist = h(v(100, "a"), kept(200), v(300, "a"), tomb(400, "a"), v(500, "a"));
        ManifestHistory.Pruned p = hist.prune(10_000, 100);
        assertEquals(List.of(kept(200), v(500, "a")), p.kept().versions());
        assertEquals(List.of(v(100, "a"), v(300, "a"), tomb(400, "a")), p.dropped());
        assertEquals(p.kept(), p.kept().prune(1_000_000, 100).kept(), "a kept version stays however old");
    }

    @Test
    void prune_neverDropsTheHead_aTombstoneStaysAloneWithItsAcknowledgements() {
        ManifestHistory hist = new ManifestHistory("n", List.of(v(100, "a"), tomb(200, "b")), List.of("b", "a"));
        ManifestHistory.Pruned p = hist.prune(1_000_000, 100);
        assertEquals(List.of(tomb(200, "b")), p.kept().versions());
        assertEquals(List.of("a", "b"), p.kept().acknowledged());
        assertTrue(p.kept().loneTombstone());
        assertEquals(List.of(v(100, "a")), p.dropped());
    }

    @Test
    void acknowledged_onlyForATombstoneHead_sortedOnce() {
        assertThrows(IllegalArgumentException.class, () -> new ManifestHistory("n", List.of(v(1, "a")), List.of("a")));
        ManifestHistory t = h(v(1, "a"), tomb(2, "b")).acknowledgedBy("seoul").acknowledgedBy("dublin").acknowledgedBy("seoul");
        assertEquals(List.of("dublin", "seoul"), t.acknowledged());
        ManifestHistory live = h(v(1, "a"));
        assertSame(live, live.acknowledgedBy("seoul"));
    }

    @Test
    void merge_sameTombstoneHead_joinsTheAcknowledgements_aNewerHeadStartsAfresh() {
        ManifestHistory seoul = h(v(1, "a"), tomb(2, "b")).acknowledgedBy("seoul").acknowledgedBy("b");
        ManifestHistory dublin = h(tomb(2, "b")).acknowledgedBy("dublin");
        assertEquals(List.of("b", "dublin", "seoul"), seoul.merge(dublin).acknowledged());
        assertEquals(seoul.merge(dublin), dublin.merge(seoul));
        // a later delete: only who stored that one counts
        ManifestHistory later = h(tomb(5, "c")).acknowledgedBy("c");
        assertEquals(List.of("c"), seoul.merge(later).acknowledged());
        // re-created after the delete: a live head has nothing to acknowledge
        assertEquals(List.of(), seoul.merge(h(v(9, "a"))).acknowledged());
        assertFalse(seoul.merge(h(v(9, "a"))).loneTombstone());
    }

    @Test
    void prune_aVersionThatArrivesLongAfterItLost_isDroppedAtOnce() {
        ManifestHistory now = h(v(1000, "a")).merge(h(v(10, "late")));
        assertEquals(List.of(v(1000, "a")), now.prune(1000 + 500, 500).kept().versions());
    }

    @Test
    void findFile_skipsTombstones_andFindsByFileId() {
        Manifest a = v(1, "a");
        ManifestHistory hist = h(a, tomb(2, "b"));
        assertEquals(Optional.of(a), hist.findFile(a.fileId()));
        assertEquals(Optional.empty(), hist.findFile("t2"));
        assertEquals(Optional.of(a), hist.find(a.version()));
        assertEquals(2 * MS, hist.maxClock());
    }
}
