package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.faults.FaultTally;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Storage faults under the consistency workload, with the real nodes in the simulator (see
 * {@link StorageFaults}): power cuts that drop unsynced metadata, failed syncs, torn writes, bit
 * flips and a full disk, and every seed must keep every acknowledged write, readable byte for byte,
 * with every block replica a kept version names held intact at the end. {@code -Dgeoblocks.sim.storagefaults.seeds=N}
 * (default 2: the build's share), {@code .first=S} (default 1) choose the seeds;
 * {@code node.jar simulate storage-faults} runs longer sweeps.
 */
class StorageFaultsTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.storagefaults.seeds", 2);
    private static final long FIRST = Long.getLong("geoblocks.sim.storagefaults.first", 1);

    @Test
    void everySeed_keepsEveryAcknowledgedWrite_underStorageFaults() {
        List<String> failed = new ArrayList<>();
        Map<String, Long> faults = new TreeMap<>();
        long acked = 0;
        long replicas = 0;
        long t0 = System.nanoTime();
        for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
            StorageFaults.Outcome o = StorageFaults.run(seed);
            System.out.println(StorageFaults.line(o));
            if (!o.ok()) {
                failed.add("seed " + seed + ": " + o.allViolations());
            }
            acked += o.acknowledged();
            replicas += o.replicasChecked();
            o.faults().forEach((k, v) -> faults.merge(k, v, Long::sum));
        }
        System.out.printf("storage-faults: %d seeds from %d in %.1f s: %d acknowledged writes, faults %s, %d failed%n",
                SEEDS, FIRST, (System.nanoTime() - t0) / 1e9, acked, faults, failed.size());
        assertTrue(failed.isEmpty(), () -> failed.size() + " seeds failed, first: " + failed.get(0));
        assertTrue(acked >= SEEDS * 10L, "too few acknowledged writes: " + acked);
        assertTrue(replicas >= acked, "too few block replicas checked at the end: " + replicas);
        for (String kind : List.of(FaultTally.CRASH, FaultTally.UNSYNCED_META_LOST, FaultTally.SYNC_FAILED,
                FaultTally.DISK_FULL, FaultTally.BIT_FLIP, FaultTally.CORRUPT_READ)) {
            assertTrue(faults.getOrDefault(kind, 0L) > 0, "no " + kind + " in " + SEEDS + " seeds: " + faults);
        }
    }

    @Test
    void syncsThatMakeNothingDurable_areCaught_asAcknowledgedWritesLostAtAPowerCut() {
        StorageFaults.Outcome o = StorageFaults.run(1, StorageFaults.schedule(1).withLyingSyncs());

        assertTrue(o.ackedBeforeCuts() > 0, "no write was acknowledged before a power cut: " + StorageFaults.line(o));
        assertTrue(o.violations().stream().anyMatch(v -> v.contains("did not keep it through the power cut")),
                () -> "a disk that ignores syncs went unnoticed: " + StorageFaults.line(o));
    }

    @Test
    void sameSeed_givesTheSameRecordsAndFaults() {
        StorageFaults.Outcome a = StorageFaults.run(5);
        StorageFaults.Outcome b = StorageFaults.run(5);
        assertEquals(a.consistency().records(), b.consistency().records());
        assertEquals(a.faults(), b.faults());
    }
}
