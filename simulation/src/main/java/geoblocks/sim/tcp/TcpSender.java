package geoblocks.sim.tcp;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import java.util.ArrayList;
import java.util.List;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A bulk TCP sender as a simulated node: sends an unlimited byte stream to a {@link TcpReceiver}
 * from its start (after a SYN exchange if its {@link TcpProfile} has one) until {@code durationMs}
 * after its start, driven by {@link TcpSenderCore}. Thin glue: reads
 * the (simulated) clock, turns the core's decisions into segments, and keeps one retransmission
 * timer in step with the core's deadline. Reports cwnd and RTT to its {@link FlowProbe}.
 */
public final class TcpSender extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final NetHeader header;
    private final TcpProfile profile;
    private final TcpSenderCore core;
    private boolean started;
    private final long durationMs;
    private final FlowProbe probe;
    private final List<TcpSenderCore.Send> out = new ArrayList<>();
    private long timerDueNs = Long.MAX_VALUE;

    public TcpSender(TcpSenderInit init) {
        header = new NetHeader(init.self, init.peer, Transport.TCP);
        profile = init.profile;
        core = new TcpSenderCore(profile.mss(), CongestionControl.of(profile.congestionControl(), profile.mss(),
                profile.initialWindow()), Long.MAX_VALUE / 2, profile.rto());
        durationMs = init.durationMs;
        probe = SimRegistry.flow(init.flow, "tcp", init.self, init.peer);
        onStart(s -> {
            if (durationMs > 0) {
                ScheduleTimeout st = new ScheduleTimeout(durationMs);
                st.setTimeoutEvent(new Stop(st));
                trigger(st, timer);
            }
            if (profile.handshake()) {
                trigger(new TcpSyn(header, false, now()), net);   // data starts with the SYN-ACK
            } else {
                startData();
            }
        });
        handle(net, TcpSyn.class, syn -> {
            if (syn.ack && !started) {
                core.handshakeRtt(now() - syn.tsNs);
                startData();
            }
        });
        handle(net, TcpAck.class, this::onAck);
        handle(timer, Rto.class, t -> {
            timerDueNs = Long.MAX_VALUE;
            core.onTimer(now(), out);
            flush();
        });
        handle(timer, Stop.class, t -> core.stop());
    }

    private void startData() {
        started = true;
        core.start(now(), out);
        flush();
    }

    private static long now() {
        return System.nanoTime();
    }

    private void onAck(TcpAck ack) {
        if (!started) {
            return;
        }
        long now = now();
        core.onAck(now, ack.ackNo, ack.echoNs, ack.sackUnsafe(), out);
        if (ack.echoNs >= 0) {
            probe.rttSample((now - ack.echoNs) / 1e6);
        }
        flush();
    }

    private void flush() {
        long now = now();
        for (TcpSenderCore.Send s : out) {
            trigger(new TcpSegment(header, s.seq(), s.len(), now, profile.headerBytes()), net);
        }
        out.clear();
        probe.cwnd(core.cwnd());
        long ms = core.rtoTimerMs(now, timerDueNs);
        if (ms > 0) {
            ScheduleTimeout st = new ScheduleTimeout(ms);
            st.setTimeoutEvent(new Rto(st));
            trigger(st, timer);
            timerDueNs = now + ms * 1_000_000;
        }
    }

    static final class Rto extends Timeout {
        Rto(ScheduleTimeout st) {
            super(st);
        }
    }

    static final class Stop extends Timeout {
        Stop(ScheduleTimeout st) {
            super(st);
        }
    }

    /** Who sends to whom, the flow's name, what kind of TCP ({@link TcpProfile}) and how long to send. */
    public static final class TcpSenderInit extends Init<TcpSender> {
        final NetAddress self;
        final NetAddress peer;
        final String flow;
        final TcpProfile profile;
        final long durationMs;

        public TcpSenderInit(NetAddress self, NetAddress peer, String flow, String congestionControl, long durationMs) {
            this(self, peer, flow, TcpProfile.of(congestionControl), durationMs);
        }

        public TcpSenderInit(NetAddress self, NetAddress peer, String flow, TcpProfile profile, long durationMs) {
            if (durationMs < 0) {
                throw new IllegalArgumentException("duration must be >= 0 ms (0 = forever), was " + durationMs);
            }
            this.self = self;
            this.peer = peer;
            this.flow = flow;
            this.profile = profile;
            this.durationMs = durationMs;
        }
    }
}
