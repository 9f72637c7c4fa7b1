package geoblocks.sim.faults;

import geoblocks.blockstore.core.BlockId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The disks of one storage-fault run: each node's {@link FaultyBlockStorage} and
 * {@link FaultyMetaEngine}, which outlive the node as a disk outlives its process, the
 * {@link FaultSchedule} they follow and the {@link FaultTally}. Faults that corrupt (bit flips, torn
 * writes) hit a node's block only where a version that node keeps names the block there and at
 * another node that holds it intact, so that a good copy the repair can find is always left (a
 * block of a single-copy policy is never corrupted: nothing could repair it).
 * Scheduled flips land at the first storage call at or after their time, on a block chosen then
 * with the run's seeded random; one thread (the simulator's) uses it.
 */
public final class Disks {
    private final FaultSchedule schedule;
    private final LongSupplier clockMillis;
    private final Random random;
    private final FaultTally tally = new FaultTally();
    private final Map<String, FaultyBlockStorage> blocks = new TreeMap<>();
    private final Map<String, FaultyMetaEngine> engines = new TreeMap<>();
    /** When each node's disk was last opened (simulated ms). */
    private final Map<String, Long> openedAt = new TreeMap<>();
    private int flipsDone;

    /** Per node, the nodes that the versions it keeps name as replicas of each block. */
    private final Function<String, Map<BlockId, Set<String>>> namedReplicas;

    /** {@code namedReplicas}: for a node, the replicas that the versions it keeps name, per block. */
    public Disks(FaultSchedule schedule, LongSupplier clockMillis, Function<String, Map<BlockId, Set<String>>> namedReplicas) {
        this.schedule = schedule;
        this.namedReplicas = namedReplicas;
        this.clockMillis = clockMillis;
        this.random = new Random(schedule.choiceSeed());
    }

    public FaultTally tally() {
        return tally;
    }

    public Map<String, FaultyBlockStorage> blocks() {
        return blocks;
    }

    public Map<String, FaultyMetaEngine> engines() {
        return engines;
    }

    /**
     * The disk of {@code region} as its node starts: made empty at its first start; after a crash,
     * as the power cut left it (unsynced metadata dropped, in half the cuts all but a random prefix of
     * it; recent deletions perhaps undone, recent puts perhaps torn).
     */
    public Disk open(String region) {
        FaultyBlockStorage b = blocks.get(region);
        long cutAt = -1;
        if (b == null) {
            b = new FaultyBlockStorage(clockMillis, now -> schedule.full(region, now), tally);
            b.beforeEachCall(this::due);
            blocks.put(region, b);
            engines.put(region, new FaultyMetaEngine(clockMillis, now -> schedule.syncFails(region, now), tally,
                    schedule.syncsLie()));
        } else {
            long now = clockMillis.getAsLong();
            FaultSchedule.Crash c = schedule.restartOf(region, now);
            if (c != null && c.killMs() >= openedAt.get(region)) { // else the simulator asks again for the same start
                try {
                    Map<BlockId, Set<String>> named = namedReplicas.apply(region);
                    FaultyMetaEngine e = engines.get(region);
                    e.powerCut(random.nextBoolean() ? 0 : random.nextInt(e.unsyncedBatches() + 1));
                    b.powerCut(c.killMs(), random, id -> repairable(region, id, named));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                tally.add(FaultTally.CRASH);
                cutAt = c.killMs();
            }
        }
        openedAt.put(region, clockMillis.getAsLong());
        return new Disk(b, engines.get(region), cutAt);
    }

    /** A node's disk: its blocks, its metadata engine, and when power was cut before this start (-1: never). */
    public record Disk(FaultyBlockStorage blocks, FaultyMetaEngine engine, long cutAtMs) {}

    /** True when {@code named} names {@code region} and another node that holds block {@code id} intact as its replicas. */
    boolean repairable(String region, BlockId id, Map<BlockId, Set<String>> named) {
        Set<String> replicas = named.getOrDefault(id, Set.of());
        return replicas.contains(region) && replicas.stream()
                .anyMatch(r -> !r.equals(region) && blocks.containsKey(r) && blocks.get(r).intact(id));
    }

    /** Lands every flip scheduled at or before now: each on a block of a random node that could be repaired there. */
    void due() {
        long now = clockMillis.getAsLong();
        while (flipsDone < schedule.flipsAtMs().size() && schedule.flipsAtMs().get(flipsDone) <= now) {
            flipsDone++;
            List<String> regions = new ArrayList<>(blocks.keySet());
            String region = regions.get(random.nextInt(regions.size()));
            FaultyBlockStorage b = blocks.get(region);
            Map<BlockId, Set<String>> named = namedReplicas.apply(region);
            List<BlockId> candidates = b.list().stream().filter(id -> b.intact(id) && repairable(region, id, named)).toList();
            if (candidates.isEmpty()) {
                continue; // nothing to flip that could be repaired: the flip is skipped (not counted)
            }
            try {
                b.flip(candidates.get(random.nextInt(candidates.size())), random.nextLong());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

}
