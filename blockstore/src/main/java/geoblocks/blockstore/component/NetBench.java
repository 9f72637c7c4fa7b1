package geoblocks.blockstore.component;

import geoblocks.blockstore.core.NetBenchLimits;
import geoblocks.blockstore.core.NetBenchReceiver;
import geoblocks.blockstore.core.UdpPacer;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.BenchOp.NetBenchAck;
import geoblocks.blockstore.wire.BenchOp.NetBenchData;
import geoblocks.blockstore.wire.BenchOp.NetBenchEnd;
import geoblocks.blockstore.wire.BenchOp.NetBenchOpen;
import geoblocks.blockstore.wire.BenchOp.NetBenchReport;
import geoblocks.blockstore.wire.BenchOp.NetBenchReq;
import geoblocks.blockstore.wire.BenchOp.NetBenchResult;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.net.NetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import se.sics.kompics.KompicsEvent;

/**
 * {@code bench net} at a node: runs one test at a time from this node to a peer, iperf3-style, and
 * counts the tests peers run to it. tcp: each stream sends its share of {@code bytes} in chunks of
 * the node's chunk size over the node-to-node connection, at most {@link #TCP_WINDOW_CHUNKS}
 * chunks ahead of the peer's acknowledgements, and the time runs to the last acknowledgement.
 * udp: datagrams paced by {@link UdpPacer} for the duration, then the peer reports what arrived
 * (loss, RFC 3550 jitter). ledbat: each stream's share of {@code bytes} on its LEDBAT stream (all streams to a
 * peer share one LEDBAT flow), timed to the last stream's close (every byte acknowledged); the
 * streams start with {@link #LEDBAT_MAGIC} so the peer's background transfers leave them to this
 * part. The memory is one shared chunk and the counters.
 */
final class NetBench {
    static final int TCP_WINDOW_CHUNKS = 8;
    static final byte[] LEDBAT_MAGIC = "GBNETBCH".getBytes(StandardCharsets.US_ASCII);
    /** How long the sender waits after its last datagram before it asks for the report. */
    static final long UDP_DRAIN_NANOS = 300_000_000L;
    private static final int MAX_BURST = 512;
    /** A test (or a peer's sink) with no progress for this long is given up. */
    private static final long IDLE_NANOS = 30_000_000_000L;
    /** How often the client hears how far a running test is (so it does not take the node for silent). */
    private static final long PROGRESS_NANOS = 1_000_000_000L;

    private final Node node;
    private final BiConsumer<NetAddress, FileOp> datagrams;
    private final Consumer<KompicsEvent> ledbat;
    /** Starts (true) or stops (false) the fast pacing timer that calls {@link #pace}. */
    private final Consumer<Boolean> pacing;
    /** Tests peers run to this node, by peer and test id. */
    private final Map<Key, Sink> sinks = new HashMap<>();
    private final Map<Key, Long> sinkSeen = new HashMap<>();
    /** LEDBAT streams from peers that are bench streams (claimed at their first bytes). */
    private final Set<Key> benchStreams = new HashSet<>();
    private Test test;
    private long nextTest = 1;

    private record Key(NetAddress peer, long id) {}

    /** A test a peer runs to this node; tcp data is acknowledged, udp datagrams are not. */
    private record Sink(NetBenchReceiver counts, boolean tcp) {}

    /** The one test this node runs. */
    private final class Test {
        final long id;
        final NetBenchReq req;
        final NetAddress client;
        final NetAddress peer;
        final byte[] chunk;
        /** Bytes each stream sends (tcp, ledbat): an equal share, the first streams one byte more for the remainder. */
        final long[] share;
        final long[] sent;
        final long[] acked;
        long start;
        long end;
        long lastProgress;
        long lastReport;
        long packets;
        UdpPacer pacer;
        final Map<Long, Integer> ledbatTags = new HashMap<>();
        final Map<Integer, Integer> ledbatStreams = new HashMap<>();
        int closed;
        boolean ending;

        Test(long id, NetBenchReq req, NetAddress client, NetAddress peer) {
            this.id = id;
            this.req = req;
            this.client = client;
            this.peer = peer;
            int size = req.mode().equals("udp") ? req.payload() : node.settings().chunkBytes();
            this.chunk = new byte[size];
            new Random(id).nextBytes(chunk);
            this.share = new long[req.streams()];
            if (!req.mode().equals("udp")) {
                for (int s = 0; s < share.length; s++) {
                    share[s] = req.bytes() / share.length + (s < req.bytes() % share.length ? 1 : 0);
                }
            }
            this.sent = new long[req.streams()];
            this.acked = new long[req.streams()];
        }
    }

    NetBench(Node node, BiConsumer<NetAddress, FileOp> datagrams, Consumer<KompicsEvent> ledbat, Consumer<Boolean> pacing) {
        this.node = node;
        this.datagrams = datagrams;
        this.ledbat = ledbat;
        this.pacing = pacing;
    }

    // ---- the node running a test

    void onRequest(NetAddress client, NetBenchReq r) {
        String problem = NetBenchLimits.problem(r.mode(), r.streams(), r.bytes(), r.rateBps(), r.durationMs(), r.payload());
        FailureCode code = FailureCode.INVALID;
        if (problem == null && (r.to().equals(node.region()) || !node.peerRegions().contains(r.to()))) {
            problem = "bench net needs another region of the cluster, got '" + r.to() + "'";
        }
        if (problem == null && !node.rtt().isUp(r.to())) {
            problem = "region " + r.to() + " is down";
            code = FailureCode.UNAVAILABLE;
        }
        if (problem == null && test != null) {
            problem = "node busy: a bench test to " + test.req.to() + " is running";
            code = FailureCode.BUSY;
        }
        if (problem != null) {
            node.send(client, new Failed(r.req(), code, "bench net refused: " + problem));
            return;
        }
        Test t = new Test(nextTest++, r, client, node.addressOf(r.to()));
        test = t;
        long req = node.expect(t.peer, Pending.Waiter.of(op -> {
            if (op instanceof Done) {
                start(t);
            } else if (op instanceof Failed f) {
                fail(t, f.code(), f.error());
            }
            return true;
        }, why -> fail(t, why.code(), why.text())));
        node.send(t.peer, new NetBenchOpen(req, t.id, r.mode()));
    }

    private void start(Test t) {
        if (test != t) {
            return;
        }
        t.start = node.now();
        t.lastProgress = t.start;
        t.lastReport = t.start;
        switch (t.req.mode()) {
            case "tcp" -> {
                for (int s = 0; s < t.sent.length; s++) {
                    pumpTcp(t, s);
                }
            }
            case "udp" -> {
                t.pacer = new UdpPacer(t.req.rateBps() * t.req.streams(), t.req.payload(), t.start,
                        t.req.durationMs() * 1_000_000L, MAX_BURST);
                pacing.accept(true);
            }
            default -> {
                for (int s = 0; s < t.req.streams(); s++) {
                    long tag = -(t.id * 1000 + s + 1); // negative: never a background transfer's request id
                    t.ledbatTags.put(tag, s);
                    ledbat.accept(new OpenStream(t.peer, tag));
                }
            }
        }
    }

    private void pumpTcp(Test t, int s) {
        while (t.sent[s] < t.share[s] && t.sent[s] - t.acked[s] < (long) TCP_WINDOW_CHUNKS * t.chunk.length) {
            int n = (int) Math.min(t.chunk.length, t.share[s] - t.sent[s]);
            byte[] data = n == t.chunk.length ? t.chunk : Arrays.copyOf(t.chunk, n);
            node.send(t.peer, new NetBenchData(0, t.id, s, t.packets++, node.now(), data));
            t.sent[s] += n;
        }
    }

    void onAck(NetAddress from, NetBenchAck a) {
        Test t = test;
        if (t == null || t.ending || !from.equals(t.peer) || a.test() != t.id || a.stream() < 0 || a.stream() >= t.acked.length) {
            return;
        }
        t.acked[a.stream()] = Math.max(t.acked[a.stream()], Math.min(a.bytes(), t.sent[a.stream()]));
        t.lastProgress = node.now();
        pumpTcp(t, a.stream());
        for (int s = 0; s < t.acked.length; s++) {
            if (t.acked[s] < t.share[s]) {
                return;
            }
        }
        end(t);
    }

    /** The pacing timer fired: send the datagrams due; after the duration and a drain, end the test. */
    void pace() {
        Test t = test;
        if (t == null || t.pacer == null || t.ending) {
            pacing.accept(false);
            return;
        }
        long now = node.now();
        t.lastProgress = now;
        int n = t.pacer.due(now);
        for (int i = 0; i < n; i++) {
            int stream = (int) (t.packets % t.req.streams());
            datagrams.accept(t.peer, new NetBenchData(0, t.id, stream, t.packets++, now, t.chunk));
        }
        if (t.pacer.finished(now)) {
            if (t.end == 0) {
                t.end = now;
            } else if (now - t.end >= UDP_DRAIN_NANOS) {
                pacing.accept(false);
                end(t);
            }
        }
    }

    /** The stream opened for one of this test's tags: send its bytes (after the magic) and close it. */
    boolean onOpened(StreamOpened o) {
        Test t = test;
        Integer s = t == null ? null : t.ledbatTags.remove(o.tag());
        if (s == null) {
            return false;
        }
        t.ledbatStreams.put(o.streamId(), s);
        ledbat.accept(new SendData(o.streamId(), LEDBAT_MAGIC));
        for (long left = t.share[s]; left > 0; left -= t.chunk.length) {
            ledbat.accept(new SendData(o.streamId(), left >= t.chunk.length ? t.chunk
                    : Arrays.copyOf(t.chunk, (int) left)));
            t.packets++;
        }
        ledbat.accept(new CloseStream(o.streamId()));
        return true;
    }

    boolean onProgress(SendProgress p) {
        Test t = test;
        if (t == null || !t.ledbatStreams.containsKey(p.streamId())) {
            return false;
        }
        int s = t.ledbatStreams.get(p.streamId());
        t.acked[s] = Math.max(t.acked[s], Math.max(0, p.ackedBytes() - LEDBAT_MAGIC.length));
        t.lastProgress = node.now();
        return true;
    }

    /** A LEDBAT stream closed: at the sender, one of this test's finished; at the receiver, a bench stream ended. */
    boolean onClosed(StreamClosed c) {
        if (!c.sender()) {
            return benchStreams.remove(new Key(c.peer(), c.streamId()));
        }
        Test t = test;
        Integer s = t == null ? null : t.ledbatStreams.remove(c.streamId());
        if (s == null) {
            return false;
        }
        t.acked[s] = t.share[s];
        t.sent[s] = t.share[s];
        if (++t.closed == t.req.streams()) {
            end(t);
        }
        return true;
    }

    boolean onFailed(StreamFailed f) {
        if (!f.sender()) {
            return benchStreams.remove(new Key(f.peer(), f.streamId()));
        }
        Test t = test;
        if (t == null || t.ledbatStreams.remove(f.streamId()) == null) {
            return false;
        }
        fail(t, FailureCode.UNAVAILABLE, "LEDBAT stream to " + f.peer() + " failed: " + f.reason());
        return true;
    }

    /** Ends the sending: asks the peer what arrived, then answers the client. */
    private void end(Test t) {
        if (t.ending) {
            return;
        }
        t.ending = true;
        long now = node.now();
        long nanos = t.req.mode().equals("udp") ? t.req.durationMs() * 1_000_000L : now - t.start;
        long req = node.expect(t.peer, Pending.Waiter.of(op -> {
            if (op instanceof NetBenchReport r) {
                finish(t, r, nanos);
            } else if (op instanceof Failed f) {
                fail(t, f.code(), f.error());
            }
            return true;
        }, why -> fail(t, why.code(), why.text())));
        node.send(t.peer, new NetBenchEnd(req, t.id));
    }

    private void finish(Test t, NetBenchReport r, long nanos) {
        if (test != t) {
            return;
        }
        test = null;
        boolean udp = t.req.mode().equals("udp");
        long sentBytes = udp ? t.packets * t.chunk.length : Arrays.stream(t.acked).sum();
        // ledbat: the peer's transport acknowledged every byte (the bench part there only claims the streams)
        boolean ledbatMode = t.req.mode().equals("ledbat");
        node.send(t.client, new NetBenchResult(t.req.req(), t.req.mode(), t.req.streams(), udp ? t.req.rateBps() : 0,
                sentBytes, t.packets, ledbatMode ? sentBytes : r.bytes(), ledbatMode ? t.packets : r.packets(), nanos,
                r.jitterNanos()));
    }

    private void fail(Test t, FailureCode code, String why) {
        if (test != t) {
            return;
        }
        test = null;
        pacing.accept(false);
        node.send(t.client, new Failed(t.req.req(), code, "bench net to " + t.req.to() + " failed: " + why));
    }

    // ---- the peer counting a test

    void onOpen(NetAddress from, NetBenchOpen o) {
        if (sinks.size() >= 16) {
            node.send(from, new Failed(o.req(), FailureCode.BUSY, "node busy: too many bench tests"));
            return;
        }
        Key k = new Key(from, o.test());
        sinks.put(k, new Sink(new NetBenchReceiver(), o.mode().equals("tcp")));
        sinkSeen.put(k, node.now());
        node.send(from, new Done(o.req(), "ready"));
    }

    void onData(NetAddress from, NetBenchData d) {
        Key k = new Key(from, d.test());
        Sink sink = sinks.get(k);
        if (sink == null) {
            return; // a test that ended, or never was
        }
        long now = node.now();
        sinkSeen.put(k, now);
        long streamBytes = sink.counts().arrived(d.stream(), d.data().length, d.sentNanos(), now);
        if (sink.tcp()) {
            node.send(from, new NetBenchAck(0, d.test(), d.stream(), streamBytes));
        }
    }

    void onEnd(NetAddress from, NetBenchEnd e) {
        Key k = new Key(from, e.test());
        Sink sink = sinks.remove(k);
        sinkSeen.remove(k);
        if (sink == null) {
            node.send(from, new Failed(e.req(), FailureCode.INVALID, "no bench test " + e.test() + " from " + from));
            return;
        }
        NetBenchReceiver c = sink.counts();
        node.send(from, new NetBenchReport(e.req(), c.packets(), c.bytes(), c.jitterNanos(), c.spanNanos()));
    }

    /** LEDBAT data: true when it belongs to a bench stream (claimed at its first bytes by the magic). */
    boolean claims(DataReceived d) {
        Key k = new Key(d.peer(), d.streamId());
        if (benchStreams.contains(k)) {
            sawLedbatData(d.peer());
            return true;
        }
        if (d.offset() == 0 && d.data().length >= LEDBAT_MAGIC.length
                && Arrays.equals(d.data(), 0, LEDBAT_MAGIC.length, LEDBAT_MAGIC, 0, LEDBAT_MAGIC.length)) {
            benchStreams.add(k);
            sawLedbatData(d.peer());
            return true;
        }
        return false;
    }

    /**
     * A ledbat test's data arrives on LEDBAT streams, not as NetBenchData: it keeps the peer's sinks
     * from being dropped as idle (a slow ledbat test outliving IDLE_NANOS lost its sink, and its end
     * was answered "no bench test").
     */
    private void sawLedbatData(NetAddress peer) {
        long now = node.now();
        sinkSeen.replaceAll((key, seen) -> key.peer().equals(peer) ? now : seen);
    }

    /**
     * Drops what peers left behind (a test whose end never came), gives up a test of this node that
     * made no progress for {@link #IDLE_NANOS}, and tells the client of a running test how far it is
     * about once a second ({@code PutProgress}: bytes acknowledged, or datagrams sent).
     */
    void tick(long now) {
        sinkSeen.entrySet().removeIf(e -> {
            if (now - e.getValue() > IDLE_NANOS) {
                sinks.remove(e.getKey());
                return true;
            }
            return false;
        });
        Test t = test;
        if (t == null || t.start == 0) {
            return;
        }
        if (now - t.lastProgress > IDLE_NANOS) {
            fail(t, FailureCode.UNAVAILABLE, "no progress for " + IDLE_NANOS / 1_000_000_000L + " s");
        } else if (now - t.lastReport >= PROGRESS_NANOS) {
            t.lastReport = now;
            node.send(t.client, new PutProgress(t.req.req(), t.req.mode().equals("udp") ? t.packets : Arrays.stream(t.acked).sum()));
        }
    }
}
