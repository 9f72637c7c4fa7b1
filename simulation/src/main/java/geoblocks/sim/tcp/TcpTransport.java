package geoblocks.sim.tcp;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * TCP for a simulated host's own messages: sits between a component (a geoblocks node) and the
 * simulator's network and carries every {@link Transport#TCP} message to a listed peer over one
 * simulated TCP connection per peer and direction, as the production network keeps one TCP
 * connection per peer. The messages form a byte stream ({@code wireSize()} bytes each); the
 * stream goes out in segments under the congestion control of {@link TcpSenderCore} (Reno or
 * CUBIC, SACK recovery, RFC 6298 timeouts), the receiver acknowledges every segment and hands each
 * message up once all of its bytes and everything before it have arrived, in order. So messages
 * are never lost, they queue behind each other (head-of-line) and the connection backs off when
 * the bottleneck drops its segments, instead of the network model dropping whole messages.
 *
 * <p>The stream is application-limited: a connection sends only what was written. After more
 * than an RTO without sending, cwnd restarts from the initial window (RFC 5681 section 4.1, Linux
 * {@code tcp_slow_start_after_idle}). No receive window (the sender's queue is unbounded, as a
 * socket's is to an application that does not check writability), no delayed ACKs. UDP messages
 * and messages to hosts not listed (clients on the LAN) pass through unchanged. Reports each
 * connection's cwnd, RTT and delivered bytes on a {@link FlowProbe} named
 * {@code "tcp SELF>PEER"} (labels from the init).
 */
public final class TcpTransport extends ComponentDefinition {
    private final Negative<Network> up = provides(Network.class);
    private final Positive<Network> down = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final TcpTransportInit init;
    private final Map<NetAddress, Sender> senders = new HashMap<>();
    private final Map<NetAddress, Receiver> receivers = new HashMap<>();

    public TcpTransport(TcpTransportInit init) {
        this.init = init;
        handle(up, Msg.class, this::fromAbove);
        handle(down, Msg.class, this::fromBelow);
        handle(timer, Rto.class, t -> {
            Sender s = senders.get(t.peer);
            if (s != null) {
                s.timerDueNs = Long.MAX_VALUE;
                s.core.onTimer(now(), s.out);
                s.flush();
            }
        });
    }

    private static long now() {
        return System.nanoTime();
    }

    private void fromAbove(Msg<?, ?> m) {
        if (m instanceof NetMsg n && n.getHeader().protocol() == Transport.TCP
                && init.peers.containsKey(n.getHeader().destination())) {
            senders.computeIfAbsent(n.getHeader().destination(), Sender::new).write(n);
        } else {
            trigger(m, down);
        }
    }

    private void fromBelow(Msg<?, ?> m) {
        if (m instanceof StreamSegment s) {
            receivers.computeIfAbsent(s.getHeader().source(), Receiver::new).onSegment(s);
        } else if (m instanceof TcpAck a && senders.containsKey(a.getHeader().source())) {
            senders.get(a.getHeader().source()).onAck(a);
        } else {
            trigger(m, up);
        }
    }

    /** Our half of the connection to one peer: the byte stream we send it. */
    private final class Sender {
        final NetAddress peer;
        final NetHeader header;
        final CongestionControl cc;
        final TcpSenderCore core;
        final FlowProbe probe;
        /** Messages not yet acknowledged in full, by the stream offset just past them. */
        final TreeMap<Long, NetMsg> unacked = new TreeMap<>();
        final List<TcpSenderCore.Send> out = new ArrayList<>();
        long written;
        long lastSendNs = Long.MIN_VALUE;
        long timerDueNs = Long.MAX_VALUE;

        Sender(NetAddress peer) {
            this.peer = peer;
            this.header = new NetHeader(init.self, peer, Transport.TCP);
            this.cc = CongestionControl.of(init.congestionControl, init.mss, init.initialWindow);
            this.core = new TcpSenderCore(init.mss, cc, 0);
            this.probe = SimRegistry.flow("tcp " + init.selfLabel + ">" + init.peers.get(peer), "tcp", init.self, peer);
        }

        void write(NetMsg m) {
            long now = now();
            boolean idle = core.acked() == written;
            if (idle && lastSendNs != Long.MIN_VALUE && now - lastSendNs > core.rtoNs()) {
                cc.setCwnd(Math.min(cc.cwnd(), (long) init.initialWindow * init.mss));
            }
            written += m.wireSize();
            unacked.put(written, m);
            core.write(now, m.wireSize(), out);
            flush();
        }

        void onAck(TcpAck a) {
            long now = now();
            core.onAck(now, a.ackNo, a.echoNs, a.sackUnsafe(), out);
            unacked.headMap(core.acked(), true).clear();
            if (a.echoNs >= 0) {
                probe.rttSample((now - a.echoNs) / 1e6);
            }
            flush();
        }

        void flush() {
            long now = now();
            for (TcpSenderCore.Send s : out) {
                Map<Long, NetMsg> ending = unacked.subMap(s.seq(), false, s.seq() + s.len(), true);
                long[] ends = new long[ending.size()];
                int i = 0;
                for (Long e : ending.keySet()) {
                    ends[i++] = e;
                }
                trigger(new StreamSegment(header, s.seq(), s.len(), now, ends, new ArrayList<>(ending.values())), down);
                lastSendNs = now;
            }
            out.clear();
            probe.cwnd(core.cwnd());
            long ms = core.rtoTimerMs(now, timerDueNs);
            if (ms > 0) {
                ScheduleTimeout st = new ScheduleTimeout(ms);
                st.setTimeoutEvent(new Rto(st, peer));
                trigger(st, timer);
                timerDueNs = now + ms * 1_000_000;
            }
        }
    }

    /** The peer's half: the byte stream it sends us, reassembled, and the messages waiting for their bytes. */
    private final class Receiver {
        final NetHeader ackHeader;
        final TcpReceiverCore core = new TcpReceiverCore();
        final TreeMap<Long, NetMsg> waiting = new TreeMap<>();
        final FlowProbe probe;

        Receiver(NetAddress peer) {
            this.ackHeader = new NetHeader(init.self, peer, Transport.TCP);
            String label = init.peers.getOrDefault(peer, peer.toString());
            this.probe = SimRegistry.flow("tcp " + label + ">" + init.selfLabel, "tcp", peer, init.self);
        }

        void onSegment(StreamSegment s) {
            long before = core.delivered();
            for (int i = 0; i < s.ends.length; i++) {
                if (s.ends[i] > before) {
                    waiting.putIfAbsent(s.ends[i], s.messages.get(i));
                }
            }
            long ack = core.onSegment(s.seq, s.len);
            probe.delivered(core.delivered() - before);
            trigger(new TcpAck(ackHeader, ack, s.tsNs, core.sackBlocks(s.seq)), down);
            Map.Entry<Long, NetMsg> e;
            while ((e = waiting.firstEntry()) != null && e.getKey() <= core.delivered()) {
                waiting.pollFirstEntry();
                trigger(e.getValue(), up);
            }
        }
    }

    static final class Rto extends Timeout {
        final NetAddress peer;

        Rto(ScheduleTimeout st, NetAddress peer) {
            super(st);
            this.peer = peer;
        }
    }

    /**
     * Who this host is ({@code selfLabel} names it in flow names), the peers whose TCP messages ride
     * simulated TCP (address to label), congestion control (reno, cubic), MSS and initial window
     * in segments.
     */
    public static final class TcpTransportInit extends Init<TcpTransport> {
        final NetAddress self;
        final String selfLabel;
        final Map<NetAddress, String> peers;
        final String congestionControl;
        final int mss;
        final int initialWindow;

        public TcpTransportInit(NetAddress self, String selfLabel, Map<NetAddress, String> peers,
                String congestionControl, int mss, int initialWindow) {
            if (mss < 100 || initialWindow < 1) {
                throw new IllegalArgumentException("need mss >= 100 and initial window >= 1, was " + mss + " / "
                        + initialWindow);
            }
            CongestionControl.of(congestionControl, mss, initialWindow); // rejects unknown names now
            this.self = self;
            this.selfLabel = selfLabel;
            this.peers = new LinkedHashMap<>(peers);
            this.congestionControl = congestionControl;
            this.mss = mss;
            this.initialWindow = initialWindow;
        }
    }
}
