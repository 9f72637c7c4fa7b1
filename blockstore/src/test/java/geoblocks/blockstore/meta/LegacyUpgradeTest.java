package geoblocks.blockstore.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.FileReplicationQueueStore;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.ReplicationQueue;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgrade in place: {@code resources/legacy-datadir} was written by the release before the
 * metadata engine (its ManifestStore over a FileBlockStorage; Gen.java.txt is the program that wrote
 * it): 41 names, 35 live, histories of one and two versions, tombstones acknowledged by dublin, and
 * a 100-byte name.
 */
class LegacyUpgradeTest {
    @TempDir
    Path tmp;

    private Path copyFixture() throws IOException, URISyntaxException {
        Path src = Path.of(getClass().getResource("/legacy-datadir/manifests").toURI());
        Path data = tmp.resolve("data");
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = data.resolve("manifests").resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return data;
    }

    @Test
    void dataDirOfThePreviousRelease_isConvertedOnce_nothingLost_oldFilesRemoved() throws Exception {
        Path data = copyFixture();
        new FileReplicationQueueStore(data.resolve("replication-queue")).save(
                List.of(new ReplicationQueue.Copy("docs/file-1", "f000000000000001", 0, "dublin")));
        try (RocksMetaEngine engine = RocksMetaEngine.open(data.resolve("meta"), MetaSettings.DEFAULTS)) {
            ManifestStore store = new ManifestStore(engine);
            MetaReplicationQueueStore queue = new MetaReplicationQueueStore(engine);
            LegacyUpgrade.Result r = LegacyUpgrade.run(data, store, queue);
            assertEquals(new LegacyUpgrade.Result(41, 0, 1), r);
            assertFalse(Files.exists(data.resolve("manifests")), "old files removed once converted");
            assertFalse(Files.exists(data.resolve("replication-queue")));
            assertEquals(LegacyUpgrade.Result.NOTHING, LegacyUpgrade.run(data, store, queue), "converted once");
        }
        try (RocksMetaEngine engine = RocksMetaEngine.open(data.resolve("meta"), MetaSettings.DEFAULTS)) {
            ManifestStore store = new ManifestStore(engine);
            assertEquals(41, store.names());
            assertEquals(35, store.size());
            assertEquals(27_200_000_008_000L, store.maxClock());
            ManifestHistory two = store.history("docs/file-5").orElseThrow();
            assertEquals(2, two.versions().size());
            assertEquals("dublin", two.head().version().region());
            ManifestHistory gone = store.history("docs/file-7").orElseThrow();
            assertTrue(gone.head().deleted());
            assertEquals(List.of("dublin"), gone.acknowledged());
            Manifest longest = store.find("x".repeat(100)).orElseThrow();
            assertEquals(2, longest.locEpoch());
            assertEquals("\"e3\"", store.find("photos/2026/file-3").orElseThrow().meta().get("etag"));
            assertEquals(List.of(new ReplicationQueue.Copy("docs/file-1", "f000000000000001", 0, "dublin")),
                    new MetaReplicationQueueStore(engine).load());
            assertEquals(store.list("", 1000).size(), 35);
        }
    }

    @Test
    void conversionCutShortByACrash_isDoneAgain_andUnreadableFilesAreKeptAside() throws Exception {
        Path data = copyFixture();
        Path one;
        try (Stream<Path> files = Files.walk(data.resolve("manifests"))) {
            one = files.filter(p -> p.toString().endsWith(".blk")).sorted().findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(one);
        bytes[bytes.length - 3] ^= 0x10;
        Files.write(one, bytes);
        MemoryMetaEngine engine = new MemoryMetaEngine();
        engine.crashAfter(0);
        ManifestStore store = new ManifestStore(engine);
        try {
            LegacyUpgrade.run(data, store, new MetaReplicationQueueStore(engine));
        } catch (IOException expected) {
            // the crash: nothing was written, the old files are all still there
        }
        assertTrue(Files.exists(one));
        engine.crashAfter(Integer.MAX_VALUE);
        LegacyUpgrade.Result r = LegacyUpgrade.run(data, new ManifestStore(engine), new MetaReplicationQueueStore(engine));
        assertEquals(new LegacyUpgrade.Result(40, 1, 0), r);
        assertEquals(40, new ManifestStore(engine).names());
        assertTrue(Files.exists(data.resolve("manifests.unreadable").resolve(one.getFileName())));
    }
}
