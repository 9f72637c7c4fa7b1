package geoblocks.sim.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.meta.MetaBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultyMetaEngineTest {
    private long now;
    private final FaultTally tally = new FaultTally();
    private final FaultyMetaEngine engine = new FaultyMetaEngine(() -> now, t -> t >= 100 && t < 200, tally);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void powerCut_dropsUnsyncedBatches_keepsSyncedOnes() throws IOException {
        engine.writeUnsynced(new MetaBatch().put(b("a"), b("1")));
        engine.sync();
        engine.writeUnsynced(new MetaBatch().put(b("b"), b("2")).delete(b("a")));
        assertArrayEquals(b("2"), engine.get(b("b")), "an unsynced write is visible at once");
        assertNull(engine.get(b("a")));

        assertEquals(1, engine.powerCut());

        assertArrayEquals(b("1"), engine.get(b("a")));
        assertNull(engine.get(b("b")));
        assertEquals(1, tally.get(FaultTally.UNSYNCED_META_LOST));
    }

    @Test
    void powerCut_mayKeepAPrefixOfTheUnsyncedBatches_inTheOrderWritten() throws IOException {
        engine.writeUnsynced(new MetaBatch().put(b("a"), b("1")));
        engine.writeUnsynced(new MetaBatch().put(b("a"), b("2")).put(b("b"), b("2")));
        engine.writeUnsynced(new MetaBatch().put(b("c"), b("3")));

        assertEquals(1, engine.powerCut(2));

        assertArrayEquals(b("2"), engine.get(b("a")));
        assertArrayEquals(b("2"), engine.get(b("b")));
        assertNull(engine.get(b("c")));
        assertEquals(2, tally.get(FaultTally.UNSYNCED_META_KEPT));
        assertEquals(1, tally.get(FaultTally.UNSYNCED_META_LOST));
    }

    @Test
    void syncedWrite_makesEarlierUnsyncedWritesDurable_asOneWalSyncDoes() throws IOException {
        engine.writeUnsynced(new MetaBatch().put(b("a"), b("1")));
        engine.write(new MetaBatch().put(b("b"), b("2")));

        assertEquals(0, engine.powerCut());

        assertArrayEquals(b("1"), engine.get(b("a")));
        assertArrayEquals(b("2"), engine.get(b("b")));
    }

    @Test
    void whileSyncsFail_syncAndWriteThrow_andNothingBecomesDurable() throws IOException {
        engine.writeUnsynced(new MetaBatch().put(b("a"), b("1")));
        now = 150;
        assertThrows(IOException.class, engine::sync);
        assertThrows(IOException.class, () -> engine.write(new MetaBatch().put(b("w"), b("x"))));
        assertNull(engine.get(b("w")), "a refused synced write is not applied");
        engine.writeUnsynced(new MetaBatch().put(b("c"), b("3")));
        assertEquals(2, engine.unsyncedBatches());
        assertEquals(1, tally.get(FaultTally.SYNC_FAILED));
        assertEquals(1, tally.get(FaultTally.WRITE_FAILED));

        now = 200;
        engine.sync();
        assertEquals(50, engine.longestFailureMs(), "failing from 150 ms until the sync at 200 ms worked");
        engine.powerCut();
        assertArrayEquals(b("1"), engine.get(b("a")));
        assertArrayEquals(b("3"), engine.get(b("c")));
    }

    @Test
    void manifestStore_defersToTheEngine_andReopensOnWhatThePowerCutLeft() throws IOException {
        assertTrue(engine.syncs(), "the node must group its syncs, as over RocksDB");
        ManifestStore store = new ManifestStore(engine);
        store.deferSyncs();
        Manifest m = new Manifest("f", "id1", 0, 1024, "local", "seoul", 1_700_000_000_000L, List.of());
        store.save(m);
        assertEquals(1, store.names());

        engine.powerCut();

        assertEquals(0, new ManifestStore(engine).names(), "a manifest never synced is gone after the cut");
    }
}
