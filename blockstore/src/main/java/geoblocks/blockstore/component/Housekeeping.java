package geoblocks.blockstore.component;

import java.util.function.LongConsumer;

/**
 * What a node's file service does on every tick, in order: expire what waited too long (transfer
 * memory, pending requests, idle transfers), let each part take its periodic step, and at their own
 * cadences check the data directories (every 5 s) and publish a snapshot (about once a second).
 * Time comes with each call ({@link Node#now()}); the component's timer only calls it.
 */
final class Housekeeping {
    /** Between two checks of the data directories: 5 s. */
    static final long DISK_CHECK_NANOS = 5_000_000_000L;
    /** Snapshots about once a second: at every fourth fast tick, at every slow one. */
    static final long SNAPSHOT_NANOS = 900_000_000L;
    /** How often the client of a request waiting for memory hears {@code Waiting} (well within any client's silence timeout). */
    static final long REMIND_NANOS = 2_000_000_000L;

    private final NodeContext node;
    private final NodeParts parts;
    private final RefusedInput refused;
    private final Runnable checkDisks;
    private final LongConsumer snapshot;
    private long lastTick;
    private long lastReminder;
    private long lastSnapshot = Long.MIN_VALUE;
    private long lastDiskCheck = Long.MIN_VALUE;

    /**
     * {@code checkDisks} asks the block store to check its directories; {@code snapshot} publishes
     * the node's snapshot at the time it is given.
     */
    Housekeeping(NodeContext node, NodeParts parts, RefusedInput refused, Runnable checkDisks,
            LongConsumer snapshot) {
        this.node = node;
        this.parts = parts;
        this.refused = refused;
        this.checkDisks = checkDisks;
        this.snapshot = snapshot;
        this.lastTick = node.now();
    }

    void tick(long now) {
        node.admission().expire(now);
        node.pending().expire(now, "");
        long idle = 2 * node.settings().rpcTimeoutMs() * 1_000_000L;
        parts.uploads().expire(now, idle);
        parts.uploads().hold(now);
        if (now - lastReminder >= REMIND_NANOS) {
            lastReminder = now;
            parts.uploads().remindWaiting(now);
            parts.downloads().remindWaiting(now);
        }
        parts.downloads().expire(now, idle);
        parts.replicas().expire(now, idle);
        parts.scrubber().tick(now, now - lastTick);
        parts.rereplicator().tick(now);
        parts.replicator().tick();
        parts.background().tick(now);
        parts.migrations().tick(now);
        parts.gc().tick(now);
        parts.antiEntropy().tick(now);
        parts.netBench().tick(now);
        node.versions().sweep();
        lastTick = now;
        refused.log(now);
        if (lastDiskCheck == Long.MIN_VALUE || now - lastDiskCheck >= DISK_CHECK_NANOS) {
            lastDiskCheck = now;
            checkDisks.run();
        }
        if (lastSnapshot == Long.MIN_VALUE || now - lastSnapshot >= SNAPSHOT_NANOS) {
            lastSnapshot = now;
            snapshot.accept(now);
        }
    }
}
