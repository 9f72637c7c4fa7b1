package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.core.ReplicationQueue.Copy;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Drains the coordinator's durable replication queue (copies owed after {@code put --ack local}):
 * each copy is read here (or fetched from a replica, checked like a download), offered to its
 * target and pushed over LEDBAT (or sent as TCP replica messages when background-transport = tcp);
 * it leaves the queue only when the target confirms it durable. A copy whose version is no longer
 * kept (the retention dropped it), or whose manifest no longer names the target (re-replication
 * replaced it), is dropped with a log line; a version that was overwritten or deleted is still
 * kept, so its copies are still made. Additions are saved before the put is acknowledged; removals are saved on the next tick
 * (after a crash a removed copy may be sent again, which the target's atomic replace makes
 * harmless). Glue only: the decisions are in {@link ReplicationQueue}.
 */
final class Replicator {
    /** Copies in flight at once, and the retry backoff (doubling from the base up to the cap). */
    static final int MAX_IN_FLIGHT = 4;
    static final long BACKOFF_BASE_NANOS = 1_000_000_000L;
    static final long BACKOFF_CAP_NANOS = 60_000_000_000L;

    private final Node node;
    private final ReplicationQueueStore store;
    private final ReplicaCopy copies;
    private final ReplicationQueue queue;
    private boolean dirty;

    /** {@code resumed}: what {@code store} held at start (read once, by whoever opened it). */
    Replicator(Node node, ReplicationQueueStore store, List<Copy> resumed, ReplicaCopy copies) {
        this.node = node;
        this.store = store;
        this.copies = copies;
        this.queue = new ReplicationQueue(MAX_IN_FLIGHT, BACKOFF_BASE_NANOS, BACKOFF_CAP_NANOS, node::now);
        queue.add(resumed);
        if (queue.size() > 0) {
            Logs.info(node.region() + ": resuming " + queue.size() + " queued replica copies");
        }
    }

    /** Queues {@code copies} and saves the queue durably; the caller stores the manifest after this returns. */
    void enqueue(List<Copy> copies) throws IOException {
        queue.add(copies);
        store.save(queue.copies());
        dirty = false;
    }

    /** Queues, durably, a copy of block i of the file to each region {@code owed} lists for i (nothing when none). */
    void enqueueOwed(String name, String fileId, Map<Integer, List<String>> owed) throws IOException {
        List<Copy> copies = new ArrayList<>();
        owed.forEach((i, regions) -> regions.forEach(region -> copies.add(new Copy(name, fileId, i, region))));
        if (!copies.isEmpty()) {
            enqueue(copies);
        }
    }

    /** The regions still owed a copy of each block of {@code m}. */
    Map<Integer, List<String>> pending(Manifest m) {
        return queue.pending(m.name(), m.fileId());
    }

    int size() {
        return queue.size();
    }

    /** True when the queue still owes a copy of a block of {@code fileId} (the block collector keeps its blocks). */
    boolean owes(String fileId) {
        return queue.owes(fileId);
    }

    /** Saves removals, then starts what the queue allows. */
    void tick() {
        if (dirty) {
            try {
                store.save(queue.copies());
                dirty = false;
            } catch (IOException e) {
                Logs.warn(node.region() + ": saving the replication queue failed (retried next tick): " + e.getMessage());
            }
        }
        pump();
    }

    /** Starts every copy the queue lets go now. */
    void pump() {
        for (Copy c : queue.next(node.rtt()::isUp)) {
            start(c);
        }
    }

    private void start(Copy c) {
        Manifest m = node.manifests().history(c.name()).flatMap(h -> h.findFile(c.fileId())).orElse(null);
        if (m == null || c.block() >= m.blocks().size()
                || !m.blocks().get(c.block()).replicas().contains(c.target())) {
            Logs.info(node.region() + ": queued copy of block " + c.block() + " of '" + c.name() + "' to " + c.target()
                    + " is no longer needed (version dropped or replica moved)");
            queue.remove(c);
            dirty = true;
            return;
        }
        Manifest.BlockRef ref = m.blocks().get(c.block());
        if (!node.admission().tryReserve(ref.length())) {
            failed(c, new Failure(FailureCode.BUSY, node.admission().busy(ref.length())));
            return;
        }
        Consumer<Failure> done = why -> {
            node.admission().release(ref.length());
            if (why == null) {
                queue.succeeded(c);
                dirty = true;
                pump();
            } else {
                failed(c, why);
            }
        };
        Downloads.fetch(node, m, c.block(), data -> copies.background(node.addressOf(c.target()), c.blockId(), data, ref.crc(), done),
                why -> done.accept(why.prefixed("cannot read the block: ")));
    }

    private void failed(Copy c, Failure why) {
        long wait = queue.failed(c);
        Logs.warn(node.region() + ": copy of block " + c.block() + " of '" + c.name() + "' to " + c.target()
                + " failed (attempt " + queue.failures(c) + ", next in " + wait / 1_000_000 + " ms): " + why.text());
    }
}
