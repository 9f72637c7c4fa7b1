package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaMoveStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A kept move survives encoding and the engine; a damaged one is refused, never half-read. */
class MoveRecordTest {
    private static final MoveRecord MOVE = new MoveRecord(Manifests.of("photos/" + "x".repeat(1000), 5000, 1024),
            List.of("dublin", "mumbai"), 1_800_000_000_000L);

    @Test
    void encodeThenDecode_givesTheSameRecord() throws IOException {
        assertEquals(MOVE, MoveRecord.decode(MOVE.encode(), "test"));
    }

    @Test
    void blockwise_encodeThenDecode_givesTheSameRecord_andAWholeMoveStaysVersion1() throws IOException {
        Manifest from = Manifests.of("a", 3000, 1024); // three blocks
        MoveRecord r = MoveRecord.blockwise(from, List.of(List.of("seoul"), List.of("mumbai", "seoul"), List.of("dublin")), 5);
        assertEquals(List.of("seoul", "mumbai", "dublin"), r.targets());
        byte[] b = r.encode();
        assertEquals(MoveRecord.BLOCKWISE, b[4]);
        assertEquals(r, MoveRecord.decode(b, "test"));
        assertEquals(MoveRecord.WHOLE, MOVE.encode()[4], "a whole move is written as before (version 1)");
        MoveRecord same = MoveRecord.blockwise(from, Collections.nCopies(3, List.of("seoul", "mumbai")), 5);
        assertEquals(MoveRecord.WHOLE, same.encode()[4]);
        assertEquals(same, MoveRecord.decode(same.encode(), "test"));
    }

    @Test
    void decode_damagedOrTruncated_isRefused() {
        for (byte[] b : List.of(MOVE.encode(), MoveRecord.blockwise(Manifests.of("a", 3000, 1024),
                List.of(List.of("seoul"), List.of("mumbai", "seoul"), List.of("dublin")), 5).encode())) {
            refusesDamage(b);
        }
    }

    private static void refusesDamage(byte[] b) {
        for (int i = 0; i < b.length; i += 7) {
            byte[] d = b.clone();
            d[i] ^= 0x10;
            assertThrows(IOException.class, () -> MoveRecord.decode(d, "test"), "flipped byte " + i);
        }
        for (int n : new int[] {0, 5, 17, b.length - 1}) {
            assertThrows(IOException.class, () -> MoveRecord.decode(Arrays.copyOf(b, n), "test"), n + " bytes");
        }
    }

    @Test
    void record_needsTargets_andALiveVersion() {
        assertThrows(IllegalArgumentException.class, () -> new MoveRecord(MOVE.from(), List.of(), 0));
        Manifest from = Manifests.of("a", 3000, 1024);
        assertThrows(IllegalArgumentException.class, () -> MoveRecord.blockwise(from, List.of(List.of("seoul")), 0),
                "homes for one block of three");
    }

    @Test
    void metaMoveStore_keepsEachMoveUntilRemoved_andReportsUnreadableOnes() throws IOException {
        MemoryMetaEngine engine = new MemoryMetaEngine();
        MetaMoveStore store = new MetaMoveStore(engine);
        MoveRecord other = new MoveRecord(Manifests.of("a", 10, 4), List.of("seoul"), 1);
        store.save(MOVE);
        store.save(other);
        assertEquals(List.of(other, MOVE), new MetaMoveStore(engine).load().moves());
        store.remove(MetaMoveStore.key(other)); // records are kept per version: name and file id
        assertEquals(List.of(MOVE), new MetaMoveStore(engine).load().moves());
        engine.write(new MetaBatch().put("mbad".getBytes(), new byte[] {1, 2, 3}));
        MetaMoveStore.Loaded loaded = new MetaMoveStore(engine).load();
        assertEquals(List.of(MOVE), loaded.moves());
        assertEquals(List.of("bad"), loaded.unreadable());
        assertTrue(new ManifestStore(engine).names() == 0, "the manifests never see the moves' keys");
    }
}
