package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.core.read.ReadPlan;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.FetchCancel;
import geoblocks.blockstore.wire.FileOp.FetchMore;
import geoblocks.blockstore.wire.FileOp.FetchPaced;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One block fetch of a download with {@link ReadOptions}: the {@link ReadPlan} decides whom to ask,
 * when to hedge and whom to cancel; this class does the I/O. Replicas are ranked by RTT or, with
 * {@code --rank load}, by {@link ServiceLatency}; peers are asked with cancellable fetches
 * ({@link FetchPaced}, acknowledged chunk by chunk with {@link FetchMore}); the losers of a parallel
 * or hedged read get a {@link FetchCancel}. Every fetch's time to first byte and, once complete,
 * its duration feed the node's {@link ServiceLatency}.
 */
final class PlannedFetch {
    private final Node node;
    private final BlockId id;
    private final Manifest.BlockRef ref;
    private final ReadPlan plan;
    private final Consumer<byte[]> ok;
    private final Consumer<String> failed;
    private final Map<String, Long> reqs = new HashMap<>();
    private final Map<String, Long> started = new HashMap<>();
    private final List<String> errors = new ArrayList<>();
    /** Peers told to stop: their chunks still in flight are taken and dropped until their request times out. */
    private final java.util.Set<String> cancelled = new java.util.HashSet<>();
    private boolean over;

    private PlannedFetch(Node node, BlockId id, Manifest.BlockRef ref, ReadOptions options, Consumer<byte[]> ok,
            Consumer<String> failed) {
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
            Consumer<String> failed) {
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
        long at = plan.hedgeAt();
        if (at != ReadPlan.NEVER) {
            node.schedule(at - node.now(), () -> {
                if (!over) {
                    ask(plan.onTimer(node.now()));
                }
            });
        }
    }

    private void askLocal(String region) {
        node.readLocal(id, read -> {
            if (read.block() == null) {
                fail(region, read.error());
            } else {
                node.serviceLatency().firstByte(region, node.now() - started.get(region), node.now());
                check(region, read.block().data());
            }
        });
    }

    private void askPeer(String region) {
        NetAddress peer = node.addressOf(region);
        Assembly[] parts = new Assembly[1];
        long req = node.expect(peer, Pending.Waiter.of(op -> {
            if (cancelled.contains(region)) {
                return false; // late chunks of a cancelled fetch: expected, not refused
            }
            if (op instanceof BlockData b) {
                if (parts[0] == null) {
                    node.serviceLatency().firstByte(region, node.now() - started.get(region), node.now());
                    if (b.total() != ref.length()) {
                        fail(region, "sent " + b.total() + " bytes, manifest says " + ref.length());
                        return true;
                    }
                    parts[0] = new Assembly(b.total(), b.total());
                }
                boolean complete = parts[0].add(b.offset(), b.data());
                node.send(peer, new FetchMore(b.req(), parts[0].received()));
                if (complete) {
                    check(region, parts[0].bytes());
                }
                return complete;
            }
            if (op instanceof Failed f) {
                fail(region, f.error());
                return true;
            }
            return false;
        }, why -> fail(region, why)));
        reqs.put(region, req);
        node.send(peer, new FetchPaced(req, id.value()));
    }

    private void check(String region, byte[] data) {
        int crc = Checksums.crc32c(data);
        if (data.length != ref.length() || crc != ref.crc()) {
            fail(region, "checksum " + Checksums.hex(crc) + " != manifest " + Checksums.hex(ref.crc()));
            return;
        }
        long now = node.now();
        node.serviceLatency().completed(region, data.length, now - started.get(region), now);
        for (String loser : plan.onSucceeded(region)) {
            Long req = reqs.get(loser);
            if (req != null) {
                cancelled.add(loser);
                node.send(node.addressOf(loser), new FetchCancel(req));
            }
        }
        if (!over && region.equals(plan.winner())) {
            over = true;
            ok.accept(data);
        }
    }

    private void fail(String region, String why) {
        if (over) {
            return;
        }
        node.serviceLatency().failed(region, node.now() - started.getOrDefault(region, node.now()), node.now());
        errors.add(region + ": " + why);
        List<String> next = plan.onFailed(region, node.now());
        if (plan.failedAll()) {
            over = true;
            failed.accept("block " + id + ": every replica failed: " + String.join("; ", errors));
        } else {
            ask(next);
        }
    }
}
