package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.core.read.ReadPlan;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.core.read.ReplicaFailures;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchCancel;
import geoblocks.blockstore.wire.PeerOp.FetchMore;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One block fetch of a download with {@link ReadOptions}: the {@link ReadPlan} decides whom to ask,
 * when to hedge and whom to cancel; this class does the I/O. Replicas are ranked by RTT or, with
 * {@code --rank load}, by {@link ServiceLatency}; peers are asked with cancellable fetches
 * ({@link FetchPaced}, acknowledged chunk by chunk with {@link FetchMore}); the losers of a parallel
 * or hedged read get a {@link FetchCancel}. Every fetch's time to first byte and, once complete,
 * its duration feed the node's {@link ServiceLatency}. The download reserved one block in the memory
 * budget; each further block arriving at the same time (parallel, hedged) reserves its own until
 * the fetch ends, and a replica whose block finds no memory counts as failed.
 */
final class PlannedFetch {
    private final Node node;
    private final BlockId id;
    private final Manifest.BlockRef ref;
    private final ReadPlan plan;
    private final Consumer<byte[]> ok;
    private final Consumer<Failure> failed;
    private final Map<String, Long> reqs = new HashMap<>();
    private final Map<String, Long> started = new HashMap<>();
    private final ReplicaFailures errors = new ReplicaFailures();
    /** Peers told to stop: their chunks still in flight are taken and dropped until their request times out. */
    private final Set<String> cancelled = new HashSet<>();
    /** Blocks arriving from peers, by region. */
    private final Map<String, Assembly> assemblies = new HashMap<>();
    /** Memory reserved for the blocks arriving beyond the first (the download's window reserved that one). */
    private long extraReserved;
    /** The hedge time a wake-up is already set for. */
    private long hedgeScheduled = ReadPlan.NEVER;
    private boolean over;

    private PlannedFetch(Node node, BlockId id, Manifest.BlockRef ref, ReadOptions options, Consumer<byte[]> ok,
            Consumer<Failure> failed) {
        this.node = node;
        this.id = id;
        this.ref = ref;
        this.ok = ok;
        this.failed = failed;
        ServiceLatency latency = node.serviceLatency();
        List<String> order = options.loadAware() ? latency.rank(ref.replicas(), node.rtt(), node.now())
                : node.rtt().readOrder(ref.replicas());
        this.plan = new ReadPlan(options.strategy(), order,
                r -> latency.hedgeDelayNanos(r, ref.length(), node.rtt(), node.now()));
    }

    /** Fetches block {@code index} of {@code m} as {@code options} say; calls back with the bytes or an error. */
    static void fetch(Node node, Manifest m, int index, ReadOptions options, Consumer<byte[]> ok,
            Consumer<Failure> failed) {
        PlannedFetch f = new PlannedFetch(node, m.blockId(index), m.blocks().get(index), options, ok, failed);
        f.ask(f.plan.start(node.now()));
    }

    private void ask(List<String> regions) {
        for (String r : regions) {
            started.put(r, node.now());
            if (r.equals(node.region())) {
                askLocal(r);
            } else {
                askPeer(r);
            }
        }
        armHedge();
    }

    /**
     * Sets a wake-up for the plan's hedge time unless one is already set for it. A wake-up that
     * finds the hedge not yet due (it fired early, or the hedge moved later after a failure) leaves
     * the plan's hedge time in place; the current one clears its mark first, so {@link #ask} sets a
     * new wake-up, and the hedge is never lost.
     */
    private void armHedge() {
        long at = plan.hedgeAt();
        if (at == ReadPlan.NEVER || at == hedgeScheduled) {
            return;
        }
        hedgeScheduled = at;
        node.schedule(at - node.now(), () -> {
            if (over) {
                return;
            }
            if (hedgeScheduled == at) {
                hedgeScheduled = ReadPlan.NEVER; // this wake-up is spent: a hedge still pending gets a new one
            }
            ask(plan.onTimer(node.now()));
        });
    }

    private void askLocal(String region) {
        node.readLocal(id, read -> {
            if (read.block() == null) {
                fail(region, read.failure());
            } else {
                node.serviceLatency().firstByte(region, node.now() - started.get(region), node.now());
                // the store verified the bytes against the CRC32C it returns (BlockStorage's contract)
                check(region, read.block().data(), read.block().crc());
            }
        });
    }

    private void askPeer(String region) {
        NetAddress peer = node.addressOf(region);
        long req = node.expect(peer, Pending.Waiter.of(op -> {
            if (cancelled.contains(region) || over) {
                return false; // late chunks of a cancelled fetch: expected, not refused
            }
            if (op instanceof BlockData b) {
                return onData(region, peer, b);
            }
            if (op instanceof Failed f) {
                fail(region, Failure.of(f));
                return true;
            }
            return false;
        }, why -> fail(region, why)));
        reqs.put(region, req);
        node.send(peer, new FetchPaced(req, id.value()));
    }

    /** A chunk from {@code region}; true when its request is over (block complete or refused). */
    private boolean onData(String region, NetAddress peer, BlockData b) {
        Assembly parts = assemblies.get(region);
        if (parts == null) {
            node.serviceLatency().firstByte(region, node.now() - started.get(region), node.now());
            if (b.total() != ref.length()) {
                fail(region, new Failure(FailureCode.BLOCK_CORRUPT, "sent " + b.total() + " bytes, manifest says " + ref.length()));
                return true;
            }
            if (!assemblies.isEmpty()) { // the download reserved one block; a second one arriving at once reserves its own
                if (!node.admission().tryReserve(b.total())) {
                    fail(region, new Failure(FailureCode.BUSY, node.admission().busy(b.total())));
                    return true;
                }
                extraReserved += b.total();
            }
            parts = new Assembly(b.total(), b.total());
            assemblies.put(region, parts);
        }
        boolean complete;
        try {
            complete = parts.add(b.offset(), b.data());
        } catch (IllegalArgumentException e) {
            assemblies.remove(region);
            fail(region, new Failure(FailureCode.INVALID, e.getMessage())); // the peer's chunks do not fit together
            return true;
        }
        node.send(peer, new FetchMore(b.req(), parts.received()));
        if (complete) {
            assemblies.remove(region);
            byte[] data = parts.bytes();
            check(region, data, Checksums.crc32c(data));
        }
        return complete;
    }

    /** {@code crc}: the CRC32C of {@code data}, computed here or verified by this node's store. */
    private void check(String region, byte[] data, int crc) {
        if (data.length != ref.length() || crc != ref.crc()) {
            fail(region, new Failure(FailureCode.BLOCK_CORRUPT, "checksum " + Checksums.hex(crc) + " != manifest "
                    + Checksums.hex(ref.crc())));
            return;
        }
        long now = node.now();
        node.serviceLatency().completed(region, data.length, now - started.get(region), now);
        for (String loser : plan.onSucceeded(region)) {
            node.serviceLatency().cancelled(loser, ref.length(), now - started.get(loser), now);
            Long req = reqs.get(loser);
            if (req != null) {
                cancelled.add(loser);
                node.send(node.addressOf(loser), new FetchCancel(req));
            }
        }
        if (!over && region.equals(plan.winner())) {
            end();
            ok.accept(data);
        }
    }

    /** The fetch is over: the losers' partial blocks go, and with them the memory they reserved. */
    private void end() {
        over = true;
        assemblies.clear();
        node.admission().release(extraReserved);
        extraReserved = 0;
    }

    private void fail(String region, Failure why) {
        if (over) {
            return;
        }
        node.serviceLatency().failed(region, node.now() - started.getOrDefault(region, node.now()), node.now());
        errors.add(region, why);
        List<String> next = plan.onFailed(region, node.now());
        if (plan.failedAll()) {
            end();
            failed.accept(errors.all(id));
        } else {
            ask(next);
        }
    }
}
