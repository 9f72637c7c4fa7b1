package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockCollector.Reference;
import geoblocks.blockstore.core.BlockCollector.Verdict;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaMoveStore;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The block collector's verdicts: a block is collected only once it is older than the grace, only
 * when no kept version places it here and nothing in flight names it, never before the node has
 * been settled (started, every peer up) for a grace; and after a restart in the middle, rebuilt from
 * the metadata engine alone, it keeps what the engine says is referenced or moving.
 */
class BlockCollectorTest {
    private static final long GRACE = 600_000;
    private static final long T0 = 1_800_000_000_000L;
    private long now = T0;
    private final BlockCollector collector = new BlockCollector(GRACE, () -> now);

    /** Lookups answering {@code ref} for every file, and in flight for {@code moving}. */
    private static BlockCollector.Lookups lookups(Reference ref, Set<String> moving) {
        return new BlockCollector.Lookups() {
            @Override
            public Reference reference(String fileId, int index) {
                return ref;
            }

            @Override
            public boolean inFlight(String fileId) {
                return moving.contains(fileId);
            }
        };
    }

    private static BlockFile block(String fileId, int index, long writtenAt) {
        return new BlockFile(BlockId.ofFileBlock(fileId, index), 100, writtenAt);
    }

    @Test
    void unreferencedBlock_isKeptUntilItsGracePasses_thenCollected() {
        BlockFile b = block("f1", 0, T0);
        long settled = T0 - 10 * GRACE;
        BlockCollector.Lookups none = lookups(Reference.NONE, Set.of());
        assertEquals(Verdict.YOUNG, collector.decide(b, settled, none));
        now = T0 + GRACE - 1;
        assertEquals(Verdict.YOUNG, collector.decide(b, settled, none), "one millisecond before the grace");
        now = T0 + GRACE;
        assertEquals(Verdict.COLLECT, collector.decide(b, settled, none));
        assertTrue(collector.decide(b, settled, none).collect());
    }

    @Test
    void oldBlock_isCollectedOnlyWhenNoKeptVersionPlacesItHere() {
        now = T0 + 2 * GRACE;
        BlockFile b = block("f1", 3, T0);
        long settled = T0 - GRACE;
        assertEquals(Verdict.REFERENCED, collector.decide(b, settled, lookups(Reference.HERE, Set.of())));
        assertEquals(Verdict.COLLECT, collector.decide(b, settled, lookups(Reference.ELSEWHERE, Set.of())),
                "a superseded location (moved or re-replicated away)");
        assertEquals(Verdict.COLLECT, collector.decide(b, settled, lookups(Reference.NONE, Set.of())),
                "a failed, refused or abandoned upload");
        assertEquals(Verdict.UNREADABLE, collector.decide(b, settled, lookups(Reference.UNREADABLE, Set.of())),
                "a damaged record might name it");
    }

    @Test
    void blockOfAFileInFlight_isKept_andCollectedOnceItIsNoLonger() {
        now = T0 + 2 * GRACE;
        BlockFile b = block("moving", 0, T0);
        Set<String> moving = new HashSet<>(Set.of("moving"));
        assertEquals(Verdict.IN_FLIGHT, collector.decide(b, T0 - GRACE, lookups(Reference.ELSEWHERE, moving)));
        assertEquals(Verdict.IN_FLIGHT, collector.decide(b, T0 - GRACE, lookups(Reference.NONE, moving)));
        moving.clear();
        assertEquals(Verdict.COLLECT, collector.decide(b, T0 - GRACE, lookups(Reference.NONE, moving)));
    }

    @Test
    void blockWithAnIdNoManifestCouldName_isNeverCollected() {
        now = T0 + 2 * GRACE;
        for (String id : List.of("bench-0-1", "b-", "b--1", "b-f1-", "b-f1-x", "b-f1-99999999999", "calibration")) {
            BlockFile b = new BlockFile(BlockId.of(id), 1, T0);
            assertEquals(Verdict.FOREIGN, collector.decide(b, T0 - GRACE, lookups(Reference.NONE, Set.of())), id);
        }
        assertEquals(Optional.of(new BlockCollector.FileBlock("a-b", 12)), BlockCollector.FileBlock.of(BlockId.of("b-a-b-12")));
    }

    @Test
    void nothingIsCollected_untilTheNodeHasBeenSettledForAGrace() {
        now = T0 + 10 * GRACE;
        BlockFile b = block("f1", 0, T0);
        BlockCollector.Lookups none = lookups(Reference.NONE, Set.of());
        assertEquals(Verdict.YOUNG, collector.decide(b, BlockCollector.UNSETTLED, none), "a peer is down");
        assertEquals(Long.MIN_VALUE, collector.cutoffMillis(BlockCollector.UNSETTLED));
        long settled = now - GRACE + 1; // every peer up again (or the node restarted) just under a grace ago
        assertEquals(Verdict.YOUNG, collector.decide(b, settled, none));
        assertEquals(Long.MIN_VALUE, collector.cutoffMillis(settled));
        now++;
        assertEquals(Verdict.COLLECT, collector.decide(b, settled, none));
        assertEquals(now - GRACE, collector.cutoffMillis(settled));
    }

    @Test
    void grace_mustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new BlockCollector(0, () -> 0));
    }

    /**
     * A node holds four old blocks: one a kept version places here, one whose version moved away,
     * one copied here by a move in flight, one of an upload that failed. It restarts in the middle of
     * the move: everything it knows comes back from its metadata engine (a new ManifestStore and
     * MetaMoveStore over the same engine, an empty in-flight registry but for the moves it resumes).
     * For a grace after the restart nothing is collected; then only the failed upload's and the
     * moved-away block go, while the move's copy stays until the move ends.
     */
    @Test
    void restartInTheMiddle_stateRebuiltFromTheEngine_keepsReferencedAndMovingBlocks() throws IOException {
        MemoryMetaEngine engine = new MemoryMetaEngine();
        Version v = new Version(HybridClock.of(T0 - 5 * GRACE, 0), "dublin");
        Manifest here = new Manifest("kept", "fkept", 100, 100, "local", "seoul", T0, List.of(
                new Manifest.BlockRef(100, 1, List.of("seoul"))), v, 0, false);
        Manifest away = new Manifest("away", "faway", 100, 100, "local", "seoul", T0, List.of(
                new Manifest.BlockRef(100, 2, List.of("dublin"))), v, 1, false);
        Manifest moving = new Manifest("moving", "fmove", 100, 100, "local", "dublin", T0, List.of(
                new Manifest.BlockRef(100, 3, List.of("dublin"))), v, 0, false);
        ManifestStore before = new ManifestStore(engine);
        before.save(here);
        before.save(away);
        before.save(moving);
        new MetaMoveStore(engine).save(new MoveRecord(moving, List.of("seoul"), T0 - 3 * GRACE));
        List<BlockFile> blocks = List.of(block("fkept", 0, T0 - 4 * GRACE), block("faway", 0, T0 - 4 * GRACE),
                block("fmove", 0, T0 - 2 * GRACE), block("ffailed", 0, T0 - 4 * GRACE));

        // the restart: nothing survives but the engine
        long restartedAt = T0;
        ManifestStore store = new ManifestStore(engine);
        InFlightFiles inFlight = new InFlightFiles(GRACE * 1_000_000L);
        for (MoveRecord r : new MetaMoveStore(engine).load().moves()) {
            inFlight.hold(r.from().fileId()); // as Migrations does when it resumes the move
        }
        BlockCollector.Lookups lookups = new BlockCollector.Lookups() {
            @Override
            public Reference reference(String fileId, int index) {
                return BlockReferences.of(store, "seoul", fileId, index);
            }

            @Override
            public boolean inFlight(String fileId) {
                return inFlight.inFlight(fileId, (now - restartedAt) * 1_000_000L);
            }
        };
        now = restartedAt + GRACE - 1;
        for (BlockFile b : blocks) {
            assertEquals(Verdict.YOUNG, collector.decide(b, restartedAt, lookups), b + " within a grace of the restart");
        }
        now = restartedAt + GRACE;
        assertEquals(List.of(Verdict.REFERENCED, Verdict.COLLECT, Verdict.IN_FLIGHT, Verdict.COLLECT),
                blocks.stream().map(b -> collector.decide(b, restartedAt, lookups)).toList());
        inFlight.release("fmove", (now - restartedAt) * 1_000_000L); // the move ended: its copy was named here or dropped
        now += GRACE;
        assertEquals(Verdict.COLLECT, collector.decide(blocks.get(2), restartedAt, lookups));
    }
}
