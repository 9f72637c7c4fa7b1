package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MovePlanTest {
    private static final Set<String> CLUSTER = Set.of("seoul", "dublin", "saopaulo", "mumbai");

    private static final Version V1 = new Version(HybridClock.of(1_000, 0), "seoul");

    /** Three blocks: seoul+dublin, seoul+dublin, dublin only; version V1 at location epoch 0. */
    private static Manifest file() {
        List<Manifest.BlockRef> blocks = List.of(
                new Manifest.BlockRef(100, 1, List.of("seoul", "dublin")),
                new Manifest.BlockRef(100, 2, List.of("seoul", "dublin")),
                new Manifest.BlockRef(50, 3, List.of("dublin")));
        return new Manifest("f", "id1", 250, 100, "localclosest", "seoul", 5L, blocks).withVersion(V1);
    }

    @Test
    void copies_eachTargetLackingABlockGetsItFromItsHolders_inBlockOrder() {
        MovePlan p = new MovePlan(file(), List.of("dublin", "mumbai"), CLUSTER);
        assertEquals(List.of(
                new MovePlan.Copy(0, "mumbai", List.of("seoul", "dublin")),
                new MovePlan.Copy(1, "mumbai", List.of("seoul", "dublin")),
                new MovePlan.Copy(2, "mumbai", List.of("dublin"))), p.copies());
        assertEquals(Map.of("mumbai", List.of(0, 1, 2)), p.copiesMade());
    }

    @Test
    void moved_namesOnlyTheTargets_keepsIdentityLengthsAndChecksums() {
        Manifest before = file();
        Manifest after = new MovePlan(before, List.of("mumbai", "saopaulo"), CLUSTER).moved(before);
        assertEquals(before.fileId(), after.fileId());
        assertEquals(before.createdMillis(), after.createdMillis());
        assertEquals(before.uploadedAt(), after.uploadedAt());
        assertEquals(V1, after.version()); // the same version at new homes
        assertEquals(before.locEpoch() + 1, after.locEpoch());
        assertFalse(after.deleted());
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of("mumbai", "saopaulo"), after.blocks().get(i).replicas());
            assertEquals(before.blocks().get(i).crc(), after.blocks().get(i).crc());
            assertEquals(before.blocks().get(i).length(), after.blocks().get(i).length());
        }
    }

    @Test
    void drops_areTheOldHomesThatAreNoLongerHomes() {
        MovePlan p = new MovePlan(file(), List.of("dublin", "mumbai"), CLUSTER);
        assertEquals(Map.of("seoul", List.of(0, 1)), p.drops()); // dublin stays a home: keeps its copies
        MovePlan away = new MovePlan(file(), List.of("saopaulo"), CLUSTER);
        assertEquals(Map.of("seoul", List.of(0, 1), "dublin", List.of(0, 1, 2)), away.drops());
    }

    @Test
    void moved_startsFromTheCurrentEpoch_soItWinsOverALocationChangeMadeMeanwhile() {
        Manifest before = file();
        List<Manifest.BlockRef> rereplicated = List.of(
                new Manifest.BlockRef(100, 1, List.of("seoul", "mumbai")),
                new Manifest.BlockRef(100, 2, List.of("seoul", "dublin")),
                new Manifest.BlockRef(50, 3, List.of("dublin")));
        Manifest current = before.withLocations(rereplicated); // epoch 1
        Manifest after = new MovePlan(before, List.of("saopaulo"), CLUSTER).moved(current);
        assertEquals(V1, after.version());
        assertEquals(2, after.locEpoch());
        assertEquals(after, ManifestHistory.of(current).merge(ManifestHistory.of(after)).head());
        assertEquals(after, ManifestHistory.of(after).merge(ManifestHistory.of(current)).head());
    }

    @Test
    void moved_refusesWhenATargetItMadeNoCopyAtLostItsCopyMeanwhile() {
        // planned at epoch 0 (seoul+dublin): to dublin+mumbai copies only to mumbai, dublin already holds the blocks
        Manifest before = file();
        MovePlan p = new MovePlan(before, List.of("dublin", "mumbai"), CLUSTER);
        // meanwhile another move committed: the blocks left dublin for saopaulo (and dublin dropped its copies)
        Manifest current = before.withLocations(List.of(
                new Manifest.BlockRef(100, 1, List.of("seoul", "saopaulo")),
                new Manifest.BlockRef(100, 2, List.of("seoul", "saopaulo")),
                new Manifest.BlockRef(50, 3, List.of("saopaulo"))));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.moved(current));
        assertTrue(e.getMessage().contains("no longer at dublin"), e.getMessage());
        // a target it copied to, or one still a home, is fine: the copies are there
        Manifest stillAtDublin = before.withLocations(List.of(
                new Manifest.BlockRef(100, 1, List.of("dublin", "saopaulo")),
                new Manifest.BlockRef(100, 2, List.of("dublin", "saopaulo")),
                new Manifest.BlockRef(50, 3, List.of("dublin"))));
        Manifest after = p.moved(stillAtDublin);
        assertEquals(List.of("dublin", "mumbai"), after.blocks().get(0).replicas());
        assertEquals(2, after.locEpoch());
    }

    @Test
    void moved_refusesANewerVersionWrittenUnderTheSameName() {
        MovePlan p = new MovePlan(file(), List.of("mumbai"), CLUSTER);
        Manifest other = new Manifest("f", "id2", 250, 100, "local", "seoul", 6L, file().blocks())
                .withVersion(new Version(HybridClock.of(2_000, 0), "dublin"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.moved(other));
        assertTrue(e.getMessage().contains("newer version"), e.getMessage());
        Manifest sameFileOtherVersion = file().withVersion(new Version(HybridClock.of(2_000, 0), "seoul"));
        assertThrows(IllegalStateException.class, () -> p.moved(sameFileOtherVersion));
    }

    @Test
    void moved_refusesADelete() {
        MovePlan p = new MovePlan(file(), List.of("mumbai"), CLUSTER);
        Manifest tombstone = Manifest.tombstone("f", "t1", "seoul", 7L, new Version(HybridClock.of(2_000, 0), "seoul"));
        assertThrows(IllegalStateException.class, () -> p.moved(tombstone));
    }

    @Test
    void noop_onlyWhenEveryBlockLivesExactlyAtTheTargets() {
        assertFalse(new MovePlan(file(), List.of("seoul", "dublin"), CLUSTER).noop()); // block 2 is only at dublin
        Manifest atDublin = new MovePlan(file(), List.of("dublin"), CLUSTER).moved(file());
        MovePlan again = new MovePlan(atDublin, List.of("dublin"), CLUSTER);
        assertTrue(again.noop());
        assertTrue(again.copies().isEmpty());
        assertTrue(again.drops().isEmpty());
    }

    @Test
    void targets_mustBeKnownDistinctAndSome() {
        assertThrows(IllegalArgumentException.class, () -> new MovePlan(file(), List.of(), CLUSTER));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> new MovePlan(file(), List.of("paris"), CLUSTER));
        assertTrue(unknown.getMessage().contains("unknown region 'paris'"), unknown.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new MovePlan(file(), List.of("mumbai", "mumbai"), CLUSTER));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
    }

    @Test
    void blockwise_copiesDropsAndCommitsOnlyTheBlocksWhoseHomesChange() {
        // dublin drained: blocks 0 and 1 swap dublin for mumbai, block 2 (dublin only) goes to saopaulo
        MovePlan p = MovePlan.blockwise(file(), List.of(List.of("seoul", "mumbai"), List.of("seoul", "mumbai"),
                List.of("saopaulo")), CLUSTER);
        assertEquals(List.of("seoul", "mumbai", "saopaulo"), p.targets());
        assertEquals(List.of(
                new MovePlan.Copy(0, "mumbai", List.of("seoul", "dublin")),
                new MovePlan.Copy(1, "mumbai", List.of("seoul", "dublin")),
                new MovePlan.Copy(2, "saopaulo", List.of("dublin"))), p.copies(), "no copy to seoul: it keeps blocks 0 and 1");
        assertEquals(Map.of("dublin", List.of(0, 1, 2)), p.drops());
        Manifest after = p.moved(file());
        assertEquals(List.of("seoul", "mumbai"), after.blocks().get(0).replicas());
        assertEquals(List.of("saopaulo"), after.blocks().get(2).replicas());
        assertTrue(p.noopFor(after));
        assertFalse(p.noop());
        assertEquals(p.record(7).blockTargets(), MovePlan.of(p.record(7), CLUSTER).record(7).blockTargets());
    }

    @Test
    void blockwise_needsHomesForEveryBlock_knownAndDistinct() {
        assertThrows(IllegalArgumentException.class,
                () -> MovePlan.blockwise(file(), List.of(List.of("seoul"), List.of("seoul")), CLUSTER));
        assertThrows(IllegalArgumentException.class,
                () -> MovePlan.blockwise(file(), List.of(List.of("seoul"), List.of(), List.of("seoul")), CLUSTER));
        assertThrows(IllegalArgumentException.class,
                () -> MovePlan.blockwise(file(), List.of(List.of("seoul"), List.of("paris"), List.of("seoul")), CLUSTER));
    }
}
