package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import geoblocks.blockstore.meta.LegacyUpgrade;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaReplicationQueueStore;
import geoblocks.blockstore.meta.MetaSettings;
import geoblocks.blockstore.meta.RocksMetaEngine;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestStoreTest {
    @TempDir
    Path root;

    static final MetaSettings SETTINGS = new MetaSettings(4 << 20, 4 << 20, true);
    RocksMetaEngine engine;
    ManifestStore store;
    /** The store a test reopened last (closed with the engine). */
    ManifestStore current;

    @BeforeEach
    void open() throws IOException {
        engine = RocksMetaEngine.open(root.resolve("meta"), SETTINGS);
        store = new ManifestStore(engine);
        current = store;
    }

    @AfterEach
    void close() {
        engine.close();
    }

    /** Closes the engine and opens it again from disk, as a restarted node does. */
    private ManifestStore reopen() throws IOException {
        engine.close();
        engine = RocksMetaEngine.open(root.resolve("meta"), SETTINGS);
        current = new ManifestStore(engine);
        return current;
    }

    /** Writes raw bytes as a name's stored history (what a damaged engine record would hold). */
    private void storeRaw(String name, byte[] bytes) throws IOException {
        current.engine().write(new MetaBatch().put(ManifestKeys.historyKey(name), bytes));
    }

    private static List<String> names(List<Manifest> ms) {
        return ms.stream().map(Manifest::name).toList();
    }

    private void saveAll(String... names) throws IOException {
        for (int i = 0; i < names.length; i++) {
            store.save(Manifests.of(names[i], 100 + i, 64));
        }
    }

    @Test
    void emptyStore_findsNothingListsNothing() {
        assertEquals(Optional.empty(), store.find("x"));
        assertEquals(List.of(), store.list("", 10));
        assertEquals(0, store.size());
        assertEquals(0, store.corruptOnLoad());
    }

    @Test
    void save_thenFind_returnsManifest() throws IOException {
        Manifest m = Manifests.of("a.txt", 1000, 64);
        store.save(m);
        assertEquals(Optional.of(m), store.find("a.txt"));
        assertEquals(Optional.empty(), store.find("b.txt"));
        assertEquals(1, store.size());
    }

    @Test
    void save_sameNameTwice_replaces() throws IOException {
        store.save(Manifests.of("a", 10, 4));
        Manifest newer = Manifests.of("a", 20, 4);
        store.save(newer);
        assertEquals(Optional.of(newer), store.find("a"));
        assertEquals(1, store.size());
        assertEquals(Optional.of(newer), reopen().find("a"));
    }

    @Test
    void list_pagesInNameOrder() throws IOException {
        saveAll("e", "a", "d", "b", "c", "g", "f");
        assertEquals(List.of("a", "b", "c"), names(store.list("", 3)));
        assertEquals(List.of("d", "e", "f"), names(store.list("c", 3)));
        assertEquals(List.of("g"), names(store.list("f", 3)));
        assertEquals(List.of(), names(store.list("g", 3)));
    }

    @Test
    void list_afterIsExclusiveAndNeedNotExist() throws IOException {
        saveAll("apple", "banana", "cherry");
        assertEquals(List.of("banana", "cherry"), names(store.list("apple", 10)));
        assertEquals(List.of("banana", "cherry"), names(store.list("b", 10)));
        assertEquals(List.of(), names(store.list("zzz", 10)));
    }

    @Test
    void list_limitZero_returnsNothing() throws IOException {
        saveAll("a", "b");
        assertEquals(List.of(), store.list("", 0));
    }

    @Test
    void list_pagingVisitsEveryNameOnce() throws IOException {
        for (int i = 0; i < 25; i++) {
            store.save(Manifests.of(String.format("file-%02d", i), i, 8));
        }
        StringBuilder seen = new StringBuilder();
        String after = "";
        int pages = 0;
        while (true) {
            List<Manifest> page = store.list(after, 4);
            if (page.isEmpty()) {
                break;
            }
            pages++;
            for (Manifest m : page) {
                seen.append(m.name()).append(',');
            }
            after = page.get(page.size() - 1).name();
        }
        assertEquals(7, pages);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            expected.append(String.format("file-%02d", i)).append(',');
        }
        assertEquals(expected.toString(), seen.toString());
    }

    @Test
    void tombstone_hidesTheNameFromFindAndList_butKeepsItsHistory() throws IOException {
        saveAll("a", "b");
        Manifest a = store.find("a").orElseThrow();
        Manifest t = Manifest.tombstone("a", "t1", "dublin", 5, new Version(a.version().clock() + 1, "dublin"));
        store.save(t);
        assertEquals(Optional.empty(), store.find("a"));
        assertEquals(List.of("b"), names(store.list("", 10)));
        assertEquals(List.of(a, t), store.history("a").orElseThrow().versions());
        assertEquals(List.of("a", "b"), store.histories("", 10).stream().map(ManifestHistory::name).toList());
        assertEquals(1, store.size());
        assertEquals(2, store.names());
        assertEquals(List.of(a, t), reopen().history("a").orElseThrow().versions());
    }

    @Test
    void replaceWithNull_forgetsTheName_onDiskToo() throws IOException {
        saveAll("a", "b");
        store.replace("a", null);
        assertEquals(Optional.empty(), store.history("a"));
        ManifestStore again = reopen();
        assertEquals(Optional.empty(), again.history("a"));
        assertEquals(null, engine.get(ManifestKeys.historyKey("a")));
        again.replace("never", null);
        assertEquals(List.of("b"), names(again.list("", 10)));
        assertEquals(1, again.size());
        assertEquals(1, again.names());
    }

    @Test
    void save_versionsInAnyOrder_keepsAllAscending_headIsTheHighest() throws IOException {
        Manifest base = Manifests.of("n", 10, 4);
        Manifest v1 = base.withVersion(new Version(100, "seoul"));
        Manifest v2 = base.withVersion(new Version(100, "tokyo")); // same clock: the region breaks the tie
        Manifest v3 = base.withVersion(new Version(200, "dublin"));
        store.save(v3);
        store.save(v1);
        store.save(v2);
        store.save(v1); // again: no change
        assertEquals(List.of(v1, v2, v3), store.history("n").orElseThrow().versions());
        assertEquals(Optional.of(v3), store.find("n"));
        assertEquals(200, store.maxClock());
        assertEquals(List.of(v1, v2, v3), reopen().history("n").orElseThrow().versions());
    }

    @Test
    void save_sameVersionWithHigherLocationEpoch_replacesIt_lowerIsIgnored() throws IOException {
        Manifest v = Manifests.of("n", 10, 4).withVersion(new Version(7, "seoul"));
        Manifest moved = v.withLocations(v.blocks().stream()
                .map(b -> new Manifest.BlockRef(b.length(), b.crc(), List.of("mumbai"))).toList());
        store.save(moved);
        store.save(v);
        assertEquals(List.of(moved), store.history("n").orElseThrow().versions());
        assertEquals(1, moved.locEpoch());
    }

    @Test
    void open_manifestWrittenByTheFormerFormat_loadsAsOneLegacyVersion() throws IOException {
        byte[] old; // written by the build before versions (ManifestCodec format 1), see resources/legacy
        try (var in = getClass().getResourceAsStream("/legacy/manifest-format1.bin")) {
            old = in.readAllBytes();
        }
        FileBlockStorage legacy = new FileBlockStorage(root.resolve("data/manifests"));
        legacy.put(new BlockId("m-" + HexFormat.of().formatHex("photos/1".getBytes(StandardCharsets.UTF_8))),
                old, Checksums.crc32c(old));
        LegacyUpgrade.Result r = LegacyUpgrade.run(root.resolve("data"), store, new MetaReplicationQueueStore(engine));
        assertEquals(new LegacyUpgrade.Result(1, 0, 0), r);

        ManifestStore again = reopen();

        assertEquals(0, again.corruptOnLoad());
        Manifest m = again.find("photos/1").orElseThrow();
        assertEquals(1_500_000, m.size());
        assertEquals(List.of("seoul", "mumbai"), m.blocks().get(1).replicas());
        assertEquals(0x7f00ff00, m.blocks().get(1).crc());
        assertEquals(Version.legacy(1_700_000_123_456L, "seoul"), m.version());
        assertEquals("018bcfe74a400000@seoul", m.version().id()); // its creation time, counter 0, its upload region
        assertEquals(0, m.locEpoch());
        assertFalse(m.deleted());
        // a newer version lands beside it, and both are kept
        Manifest newer = m.withVersion(new Version(HybridClock.of(1_700_000_200_000L, 0), "dublin"));
        again.save(newer);
        assertEquals(List.of(m, newer), reopen().history("photos/1").orElseThrow().versions());
    }

    @Test
    void bucketDigests_followTheContent_notTheOrderOfChanges() throws IOException {
        ManifestStore other = new ManifestStore(new MemoryMetaEngine());
        Manifest a1 = Manifests.of("a", 10, 4).withVersion(new Version(1, "x"));
        Manifest a2 = Manifests.of("a", 12, 4).withVersion(new Version(2, "y"));
        Manifest b = Manifests.of("b", 10, 4);
        store.save(a1);
        store.save(a2);
        store.save(b);
        other.save(b);
        assertFalse(Arrays.equals(store.bucketDigests(), other.bucketDigests()));
        other.save(a2);
        other.save(a1);
        assertArrayEquals(store.bucketDigests(), other.bucketDigests());
        assertEquals(store.digest("a"), other.digest("a"));
        int bucket = ManifestStore.bucketOf("a");
        assertTrue(store.digests(Set.of(bucket)).containsKey("a"));
        assertEquals(store.digests(Set.of(bucket)), other.digests(Set.of(bucket)));
        store.replace("a", null);
        other.replace("a", null);
        assertArrayEquals(store.bucketDigests(), other.bucketDigests());
        assertArrayEquals(new long[ManifestStore.BUCKETS], new ManifestStore(new MemoryMetaEngine()).bucketDigests());
        assertArrayEquals(store.bucketDigests(), reopen().bucketDigests(), "digests are kept, not recomputed");
    }

    @Test
    void reopen_servesSavedManifestsAndForgetsRemoved() throws IOException {
        Manifest a = Manifests.of("a", 1000, 64);
        Manifest big = Manifests.of("big", 20_000L * 8, 8);
        Manifest unicode = Manifests.of("写真 \uD83D\uDE00.jpg", 5, 2);
        Manifest longest = Manifests.of("n".repeat(Manifest.MAX_NAME_BYTES), 3, 2);
        store.save(a);
        store.save(big);
        store.save(unicode);
        store.save(longest);
        store.save(Manifests.of("gone", 1, 1));
        store.replace("gone", null);

        ManifestStore again = reopen();

        assertEquals(4, again.size());
        assertEquals(0, again.corruptOnLoad());
        assertEquals(Optional.of(a), again.find("a"));
        assertEquals(Optional.of(big), again.find("big"));
        assertEquals(Optional.of(unicode), again.find(unicode.name()));
        assertEquals(Optional.of(longest), again.find(longest.name()));
        assertEquals(Optional.empty(), again.find("gone"));
    }

    @Test
    void corruptHistoryRecord_isCountedAndNeverServed() throws IOException {
        saveAll("good", "bad");
        byte[] bytes = engine.get(ManifestKeys.historyKey("bad"));
        bytes[bytes.length - 10] ^= 0x04;
        storeRaw("bad", bytes);

        ManifestStore again = reopen();

        assertEquals(Optional.empty(), again.find("bad"));
        assertEquals(1, again.corruptOnLoad());
        assertTrue(again.find("good").isPresent());
        assertEquals(List.of("good"), names(again.list("", 10)));
    }

    @Test
    void truncatedOrForeignRecords_areCountedAndSkipped() throws IOException {
        saveAll("a", "b", "c");
        byte[] bytes = engine.get(ManifestKeys.historyKey("b"));
        storeRaw("b", Arrays.copyOf(bytes, bytes.length / 2));
        storeRaw("junk", "not a manifest at all".getBytes(StandardCharsets.UTF_8));
        storeRaw("elsewhere", engine.get(ManifestKeys.historyKey("a"))); // the history of 'a' under another name

        ManifestStore again = reopen();

        assertEquals(List.of("a", "c"), names(again.list("", 10)));
        assertEquals(Optional.empty(), again.history("elsewhere"));
        assertTrue(again.corruptOnLoad() >= 2);
    }

    @Test
    void list_byPrefix_seeksAndStopsAtThePrefixEnd() throws IOException {
        saveAll("a/1", "a/2", "a/3", "ab", "b/1", "a");
        assertEquals(List.of("a/1", "a/2", "a/3"), names(store.list("a/", "", 10)));
        assertEquals(List.of("a/3"), names(store.list("a/", "a/2", 10)));
        assertEquals(List.of("a/1", "a/2", "a/3"), names(store.list("a/", "0", 10)), "an 'after' before the prefix");
        assertEquals(List.of(), names(store.list("a/", "a/3", 10)));
        assertEquals(List.of(), names(store.list("a/", "z", 10)));
        assertEquals(List.of("b/1"), names(store.list("b", "", 10)));
        assertEquals(List.of("a/1"), names(store.list("a/", "", 1)));
    }

    @Test
    void counters_followEveryChange_andSurviveARestart() throws IOException {
        Manifest a = Manifests.of("a", 100, 64); // 2 blocks
        store.save(a);
        store.save(Manifests.of("b", 10, 64));
        store.save(Manifest.tombstone("b", "tb", "dublin", 9, new Version(a.version().clock() + 5, "dublin")));
        Map<String, ManifestStore.Placed> placed = store.placed();
        long blocks = a.blocks().stream().mapToLong(x -> x.replicas().size()).sum();
        long bytes = a.blocks().stream().mapToLong(x -> (long) x.length() * x.replicas().size()).sum();
        assertEquals(blocks, placed.values().stream().mapToLong(ManifestStore.Placed::blocks).sum());
        assertEquals(bytes, placed.values().stream().mapToLong(ManifestStore.Placed::bytes).sum());
        assertEquals(1, store.size());
        assertEquals(2, store.names());
        long clock = store.maxClock();

        ManifestStore again = reopen();

        assertEquals(placed, again.placed());
        assertEquals(1, again.size());
        assertEquals(2, again.names());
        assertEquals(clock, again.maxClock());
        again.replace("a", null);
        assertEquals(Map.of(), again.placed());
        assertEquals(0, again.size());
    }

    @Test
    void newest_readsTheCreationIndex() throws IOException {
        for (int i = 0; i < 10; i++) {
            Manifest m = Manifests.of("n" + i, 10, 4);
            store.save(new Manifest(m.name(), m.fileId(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), 1000 + i,
                    m.blocks(), m.version(), 0, false, Map.of()));
        }
        assertEquals(List.of("n9", "n8", "n7"), names(store.newest(3)));
        store.replace("n8", null);
        assertEquals(List.of("n9", "n7", "n6"), names(reopen().newest(3)));
    }

    @Test
    void namesOfFile_followsTheKeptVersions() throws IOException {
        Manifest a = Manifests.of("a", 10, 4);
        store.save(a);
        assertEquals(List.of("a"), store.namesOfFile(a.fileId()));
        store.replace("a", null);
        assertEquals(List.of(), store.namesOfFile(a.fileId()));
    }

    @Test
    void mergeAll_isOneBatch_andCountsWhatChanged() throws IOException {
        MemoryMetaEngine mem = new MemoryMetaEngine();
        ManifestStore s = new ManifestStore(mem);
        Manifest a = Manifests.of("a", 10, 4);
        assertEquals(2, s.mergeAll(List.of(ManifestHistory.of(a), ManifestHistory.of(Manifests.of("b", 10, 4)),
                ManifestHistory.of(a))));
        assertEquals(0, s.mergeAll(List.of(ManifestHistory.of(a))));
        mem.crashAfter(0);
        assertThrows(IOException.class, () -> s.mergeAll(List.of(ManifestHistory.of(Manifests.of("c", 10, 4)))));
        assertEquals(2, s.size(), "a write the engine refused changes nothing");
        assertEquals(Optional.empty(), s.history("c"));
        assertEquals(2, new ManifestStore(mem).size());
    }

    @Test
    void listing_alwaysAgreesWithTheLiveHeads_afterRandomChanges_andARestart() throws IOException {
        Random rnd = new Random(3);
        long clock = 1;
        for (int step = 0; step < 300; step++) {
            String name = "k/" + rnd.nextInt(40);
            int what = rnd.nextInt(4);
            if (what == 0) {
                store.replace(name, null);
            } else if (what == 1 && store.find(name).isPresent()) {
                store.save(Manifest.tombstone(name, "t" + step, "dublin", 5, new Version(++clock, "dublin")));
            } else {
                Manifest m = Manifests.of(name, 1 + rnd.nextInt(200), 64);
                store.save(new Manifest(name, m.fileId() + step, m.size(), m.blockSize(), m.policy(), m.uploadedAt(),
                        m.createdMillis(), m.blocks(), new Version(++clock, "seoul"), 0, false,
                        Map.of("etag", "\"" + step + "\"")));
            }
        }
        for (int round = 0; round < 2; round++) {
            ManifestStore s = round == 0 ? store : reopen();
            List<String> fromHeads = new ArrayList<>();
            for (Manifest m : s.list("k/", "", 1000)) {
                fromHeads.add(m.name() + " " + m.size() + " " + m.meta());
            }
            List<String> fromListing = new ArrayList<>();
            for (Listed l : s.listing("k/", "", 1000)) {
                fromListing.add(l.name() + " " + l.size() + " " + l.meta());
            }
            assertEquals(fromHeads, fromListing);
            assertEquals(s.size(), fromListing.size());
            assertEquals(fromListing.subList(1, Math.min(4, fromListing.size())).stream().map(x -> x.split(" ")[0]).toList(),
                    s.listing("k/", fromListing.get(0).split(" ")[0], 3).stream().map(Listed::name).toList());
        }
    }
}
