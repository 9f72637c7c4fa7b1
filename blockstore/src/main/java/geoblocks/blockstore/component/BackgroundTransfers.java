package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BackgroundExpectations;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.HolderFallback;
import geoblocks.blockstore.core.ProgressWatch;
import geoblocks.blockstore.core.PushBacklog;
import geoblocks.blockstore.core.TouchThrottle;
import geoblocks.blockstore.core.IncomingBlock;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.BlockStreamHeader;
import geoblocks.blockstore.wire.PeerOp.BackgroundFetch;
import geoblocks.blockstore.wire.PeerOp.BackgroundOffer;
import geoblocks.blockstore.wire.PeerOp.BackgroundStored;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import se.sics.kompics.KompicsEvent;

/**
 * Background block transfers over LEDBAT: the node holding a good copy pushes the block on its own
 * LEDBAT stream (one stream per block; the transport multiplexes all streams to one peer on one
 * flow with one congestion controller), a {@link BlockStreamHeader} first, then the bytes. The
 * receiver accepts only blocks it expects ({@link BackgroundExpectations}), assembles them in the
 * memory budget ({@link IncomingBlock}), stores them durably, and only then confirms with
 * {@link BackgroundStored} over TCP, which the sender's pending request waits for. Control
 * messages (fetch, offer, confirmation) travel over TCP. Glue only: the decisions are in the core
 * classes ({@link BackgroundExpectations}, {@link IncomingBlock}, {@link PushBacklog} for the
 * backlog, {@link HolderFallback} for which holder to ask next, {@link TouchThrottle} and
 * {@link ProgressWatch} for keeping expectations and pushes alive).
 */
final class BackgroundTransfers {
    /** What an expected block does when it is stored ({@code null}) or fails; {@code touchReq} is kept alive by its progress. */
    private record Waiting(long touchReq, Consumer<Failure> done) {}

    /** A push: its bytes (header and block) and its place in the backlog. */
    private record Outgoing(long req, NetAddress peer, byte[] header, byte[] data, PushBacklog.Push backlog) {}

    private record StreamKey(NetAddress peer, int streamId) {}

    private final Node node;
    private final Consumer<KompicsEvent> ledbat;
    private final TransferCounters counters;
    private final BackgroundExpectations<Waiting> expected;
    private final Map<Long, Outgoing> opening = new HashMap<>();
    private final Map<Integer, Outgoing> sending = new HashMap<>();
    private static final long TOUCH_EVERY_NANOS = 1_000_000_000L;
    /** Expectations from a peer are kept alive by its data at most once a second. */
    private final TouchThrottle<NetAddress> peerTouches = new TouchThrottle<>(TOUCH_EVERY_NANOS);
    /** Bytes the transport reported acknowledged per peer (all flows), to see progress. */
    private final ProgressWatch<NetAddress> peerProgress = new ProgressWatch<>();
    private final Map<StreamKey, IncomingBlock> incoming = new HashMap<>();
    private final Set<StreamKey> discarding = new HashSet<>();
    /** Incoming streams refused: unexpected, bad header, wrong length or checksum, no memory. */
    long refused;
    /** Bytes of pushes not yet acknowledged by their peer (offered, opening or streaming). */
    private final PushBacklog backlog = new PushBacklog();
    private final BackgroundStatus status = new BackgroundStatus();

    BackgroundTransfers(Node node, Consumer<KompicsEvent> ledbat, TransferCounters counters) {
        this.node = node;
        this.ledbat = ledbat;
        this.counters = counters;
        this.expected = new BackgroundExpectations<>(node.settings().rpcTimeoutMs() * 1_000_000L);
    }

    // ---- sending

    /** Pushes {@code data} to {@code peer}; {@code done} gets null once the peer stored it durably, else why not. */
    void push(NetAddress peer, BlockId id, byte[] data, int crc, Consumer<Failure> done) {
        // BackgroundStored carries no code: a refusal is UNAVAILABLE, as the block did not get there
        long req = node.expect(peer, Pending.Waiter.until(BackgroundStored.class, s -> s.ok() ? null
                : new Failure(FailureCode.UNAVAILABLE, peer + " refused block " + id + ": " + s.error()), done));
        byte[] header = new BlockStreamHeader(req, id.value(), data.length, crc).encode();
        Outgoing out = new Outgoing(req, peer, header, data, backlog.start(header.length + (long) data.length));
        opening.put(req, out);
        ledbat.accept(new OpenStream(peer, req));
    }

    /**
     * Announces block {@code id} to {@code peer} ({@link BackgroundOffer}), then pushes it once the
     * peer expects it; {@code done} gets null once the peer stored it durably, else why not.
     */
    void offerAndPush(NetAddress peer, BlockId id, byte[] data, int crc, Consumer<Failure> done) {
        backlog.offered(data.length);   // waits for the answer to the offer
        long req = node.expect(peer, Pending.Waiter.of(op -> {
            if (op instanceof Done) {
                backlog.offerSettled(data.length);
                push(peer, id, data, crc, done);
                return true;
            }
            if (op instanceof Failed f) {
                backlog.offerSettled(data.length);
                done.accept(Failure.of(f).prefixed("offer refused: "));
                return true;
            }
            return false;
        }, why -> {
            backlog.offerSettled(data.length);
            done.accept(why.prefixed("offer unanswered: "));
        }));
        node.send(peer, new BackgroundOffer(req, id.value(), data.length, crc));
    }

    void onOpened(StreamOpened o) {
        Outgoing out = opening.remove(o.tag());
        if (out == null) {
            return;
        }
        sending.put(o.streamId(), out);
        ledbat.accept(new SendData(o.streamId(), out.header()));
        ledbat.accept(new SendData(o.streamId(), out.data()));
        ledbat.accept(new CloseStream(o.streamId()));
    }

    void onProgress(SendProgress p) {
        Outgoing out = sending.get(p.streamId());
        if (out != null) {
            backlog.acknowledged(out.backlog(), p.ackedBytes());
            node.touch(out.req());
        }
    }

    /**
     * The transport's per-peer figures: kept for status, and while a peer's flow makes any progress
     * every push to that peer stays alive. The streams share the flow, so while LEDBAT yields one
     * stream's own progress can be far slower than the request timeout allows (minimum window
     * shared by several streams); giving those pushes up would send their blocks again.
     */
    void onPeerStats(PeerStats s) {
        status.onPeerStats(s, address -> {
            for (String r : node.peerRegions()) {
                if (node.addressOf(r).equals(address)) {
                    return r;
                }
            }
            return address.toString();
        });
        for (PeerStats.Peer p : s.peers()) {
            if (peerProgress.advanced(p.peer(), p.ackedBytes())) {
                for (Outgoing out : sending.values()) {
                    if (out.peer().equals(p.peer())) {
                        node.touch(out.req());
                    }
                }
            }
        }
    }

    /** The background part of the status reply; {@code queuedCopies}: copies the replication queue still owes. */
    ClientOp.Background status(int queuedCopies) {
        Map<NetAddress, String> regions = new HashMap<>();
        for (String r : node.peerRegions()) {
            regions.put(node.addressOf(r), r);
        }
        return status.reply(backlog.bytes(), queuedCopies, regions);
    }

    /** A peer asks for a block it needs: read ours and push it. */
    void onFetch(NetAddress peer, BackgroundFetch f) {
        BlockId id = BlockId.of(f.blockId());
        if (!node.admission().tryReserve(f.length())) {
            node.send(peer, new Failed(f.req(), FailureCode.BUSY, node.admission().busy(f.length())));
            return;
        }
        node.readLocal(id, read -> {
            Failure problem = read.block() == null ? read.failure()
                    : read.block().crc() != f.crc() || read.block().length() != f.length()
                            ? new Failure(FailureCode.BLOCK_CORRUPT, "copy of " + id + " here does not match the asked length and checksum")
                            : null;
            if (problem != null) {
                node.admission().release(f.length());
                node.send(peer, problem.prefixed(node.region() + ": ").reply(f.req()));
                return;
            }
            push(peer, id, read.block().data(), f.crc(), why -> {
                node.admission().release(f.length());
                if (why != null) {
                    node.send(peer, why.prefixed(node.region() + ": ").reply(f.req()));
                }
            });
        });
    }

    // ---- receiving

    /** Asks {@code holders} in turn to push block {@code id}; {@code done} gets null once it is stored here. */
    void pull(List<NetAddress> holders, BlockId id, int length, int crc, Consumer<Failure> done) {
        pullFrom(new HolderFallback<>(holders), id, length, crc, done);
    }

    private void pullFrom(HolderFallback<NetAddress> holders, BlockId id, int length, int crc, Consumer<Failure> done) {
        NetAddress holder = holders.next();
        if (holder == null) {
            done.accept(holders.why());
            return;
        }
        Consumer<Failure> next = why -> {
            holders.failed(holder, why);
            pullFrom(holders, id, length, crc, done);
        };
        long req = node.expect(holder, Pending.Waiter.of(op -> {
            if (op instanceof Failed f) {
                failExpected(holder, id.value(), Failure.of(f), next);
                return true;
            }
            return false;
        }, why -> failExpected(holder, id.value(), why, next)));
        Waiting w = new Waiting(req, why -> {
            node.cancel(req);
            if (why == null) {
                done.accept(null);
            } else {
                next.accept(why);
            }
        });
        if (!expected.expect(holder, id.value(), length, crc, w, node.now())) {
            node.cancel(req);
            // the same block is already on its way from there (a retried copy): wait for that one
            if (!expected.join(holder, id.value(), length, crc, first -> new Waiting(first.touchReq(), why -> {
                first.done().accept(why);
                w.done().accept(why);
            }))) {
                next.accept(new Failure(FailureCode.UNAVAILABLE, "a different block " + id + " is already on its way from there"));
            }
            return;
        }
        node.send(holder, new BackgroundFetch(req, id.value(), length, crc));
    }

    /** A peer announces a push: expect it. */
    void onOffer(NetAddress peer, BackgroundOffer o) {
        BlockId.of(o.blockId());
        expected.expect(peer, o.blockId(), o.length(), o.crc(), new Waiting(0, why -> {
            if (why != null) {
                Logs.warn(node.region() + ": background block " + o.blockId() + " from " + peer + " not stored: " + why.text());
            }
        }), node.now());
        node.send(peer, new Done(o.req(), "ready"));
    }

    void onData(DataReceived d) {
        counters.ledbatReceived(d.data().length);
        StreamKey key = new StreamKey(d.peer(), d.streamId());
        if (discarding.contains(key)) {
            return;
        }
        IncomingBlock in = incoming.get(key);
        if (in == null) { // a new stream: its header must match an expectation from its peer
            NetAddress peer = d.peer();
            in = new IncomingBlock(node.admission(), h -> expected.admit(peer, h, node.now()));
            incoming.put(key, in);
        }
        IncomingBlock.Outcome o = in.accept(d.data());
        if (o instanceof IncomingBlock.Refused r) {
            incoming.remove(key);
            discarding.add(key);
            refuse(d.peer(), in, r);
        } else if (in.admitted()) {
            // the block's own data keeps it alive; the peer's data keeps its blocks waiting their turn
            BackgroundExpectations.Expected<Waiting> e = expected.touch(d.peer(), in.header().blockId(), node.now());
            if (e != null && e.attachment.touchReq() != 0) {
                node.touch(e.attachment.touchReq());
            }
            touchPeer(d.peer());
        }
    }

    void onClosed(StreamClosed c) {
        if (c.sender()) {
            Outgoing out = sending.remove(c.streamId());
            if (out != null) {
                backlog.ended(out.backlog());
                counters.ledbatSent(c.bytes());
            }
            return;
        }
        StreamKey key = new StreamKey(c.peer(), c.streamId());
        if (discarding.remove(key)) {
            return;
        }
        IncomingBlock in = incoming.remove(key);
        if (in == null) {
            return; // an empty stream: nothing arrived
        }
        IncomingBlock.Outcome o = in.finish();
        if (o instanceof IncomingBlock.Refused r) {
            refuse(c.peer(), in, r);
        } else if (o instanceof IncomingBlock.Complete done) {
            store(c.peer(), done);
        }
    }

    void onFailed(StreamFailed f) {
        if (f.sender()) {
            Outgoing out = sending.remove(f.streamId());
            if (out != null) {
                backlog.ended(out.backlog());
                node.fail(out.req(), "LEDBAT stream to " + f.peer() + " failed: " + f.reason());
            }
            return;
        }
        StreamKey key = new StreamKey(f.peer(), f.streamId());
        discarding.remove(key);
        IncomingBlock in = incoming.remove(key);
        if (in != null) {
            in.abandon();
            if (in.admitted()) {
                finishExpected(f.peer(), in.header().blockId(),
                        new Failure(FailureCode.UNAVAILABLE, "LEDBAT stream failed: " + f.reason()));
            }
        }
    }

    /**
     * Data from {@code peer}: every block expected from it and not yet arriving stays alive, at most
     * once a second (its blocks share one flow and queue behind the one arriving, oldest first).
     */
    private void touchPeer(NetAddress peer) {
        long now = node.now();
        if (!peerTouches.due(peer, now)) {
            return;
        }
        for (BackgroundExpectations.Expected<Waiting> e : expected.touchPeer(peer, now)) {
            if (e.attachment.touchReq != 0) {
                node.touch(e.attachment.touchReq);
            }
        }
    }

    /** Expectations past their deadline, or passed over by their peer, fail (their callers ask again). */
    void tick(long now) {
        for (BackgroundExpectations.Expected<Waiting> e : expected.expire(now)) {
            e.attachment.done.accept(new Failure(FailureCode.UNAVAILABLE, e.passedOver()
                    ? "block " + e.blockId + " was passed over by " + e.peer + " (it sends blocks asked for later;"
                            + " restarted or lost the request)"
                    : "no block " + e.blockId + " from " + e.peer + " in time"));
        }
    }

    private void store(NetAddress peer, IncomingBlock.Complete c) {
        BlockStreamHeader h = c.header();
        if (expected.touch(peer, h.blockId(), node.now()) == null) {
            node.admission().release(h.length());
            refused++;
            node.send(peer, new BackgroundStored(h.req(), h.blockId(), false, "arrived after its expectation ended"));
            return;
        }
        node.storeLocal(BlockId.of(h.blockId()), c.data(), h.crc(), stored -> {
            node.admission().release(h.length());
            boolean ok = stored.ok();
            node.send(peer, new BackgroundStored(h.req(), h.blockId(), ok, ok ? "" : stored.failure().text()));
            finishExpected(peer, h.blockId(), ok ? null : stored.failure().prefixed("storing failed: "));
        });
    }

    private void refuse(NetAddress peer, IncomingBlock in, IncomingBlock.Refused r) {
        refused++;
        Logs.warn(node.region() + ": refused a background block stream from " + peer + ": " + r.reason());
        if (r.header() != null) {
            node.send(peer, new BackgroundStored(r.header().req(), r.header().blockId(), false, r.reason()));
            if (in.admitted()) {
                // a stream that fails its header, length or checksum checks, or finds no memory
                finishExpected(peer, r.header().blockId(), new Failure(FailureCode.UNAVAILABLE, r.reason()));
            }
        }
    }

    /** The holder refused or did not answer a pull: every caller waiting for that block learns why. */
    private void failExpected(NetAddress holder, String blockId, Failure why, Consumer<Failure> next) {
        BackgroundExpectations.Expected<Waiting> e = expected.remove(holder, blockId);
        if (e != null) {
            e.attachment.done().accept(why);
        } else {
            next.accept(why);
        }
    }

    private void finishExpected(NetAddress peer, String blockId, Failure why) {
        BackgroundExpectations.Expected<Waiting> e = expected.remove(peer, blockId);
        if (e != null) {
            e.attachment.done.accept(why);
        }
    }
}
