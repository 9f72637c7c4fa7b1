package geoblocks.sim.tcp;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The receiving end of a simulated TCP flow: acknowledges segments (cumulative ACK with the
 * segment's timestamp echoed) and counts in-order bytes as delivered on the flow's probe. With
 * the profile's delayed ACKs (Linux) it acknowledges every second in-order segment, anything out
 * of order or filling a hole at once, and a lone segment after {@link #DELAYED_ACK_MS}; otherwise
 * every segment. Answers a SYN with a SYN-ACK.
 */
public final class TcpReceiver extends ComponentDefinition {
    /** Linux's minimum delayed-ACK timeout (TCP_DELACK_MIN). */
    static final long DELAYED_ACK_MS = 40;

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final TcpReceiverCore core = new TcpReceiverCore();
    private final NetAddress self;
    private final String flow;
    private final TcpProfile profile;
    private FlowProbe probe;
    private int unacked;
    private TcpSegment lastUnacked;
    private boolean delackArmed;

    public TcpReceiver(TcpReceiverInit init) {
        self = init.self;
        flow = init.flow;
        profile = init.profile;
        handle(net, TcpSegment.class, this::onSegment);
        handle(net, TcpSyn.class, syn -> {
            if (!syn.ack) {
                trigger(new TcpSyn(syn.getHeader().reply(), true, syn.tsNs), net);
            }
        });
        handle(timer, DelayedAck.class, t -> {
            delackArmed = false;
            if (unacked > 0) {
                ack(lastUnacked);
            }
        });
    }

    private void onSegment(TcpSegment seg) {
        if (probe == null) {
            probe = SimRegistry.flow(flow, "tcp", seg.getHeader().source(), self);
        }
        long before = core.delivered();
        boolean hadHoles = core.outOfOrderRanges() > 0;
        boolean inOrder = seg.seq == before;
        core.onSegment(seg.seq, seg.len);
        probe.delivered(core.delivered() - before);
        if (!profile.delayedAcks() || !inOrder || hadHoles || core.outOfOrderRanges() > 0) {
            ack(seg);
            return;
        }
        unacked++;
        lastUnacked = seg;
        if (unacked >= 2) {
            ack(seg);
        } else if (!delackArmed) {
            delackArmed = true;
            ScheduleTimeout st = new ScheduleTimeout(DELAYED_ACK_MS);
            st.setTimeoutEvent(new DelayedAck(st));
            trigger(st, timer);
        }
    }

    private void ack(TcpSegment seg) {
        unacked = 0;
        trigger(new TcpAck(seg.getHeader().reply(), core.delivered(), seg.tsNs, core.sackBlocks(seg.seq),
                profile.headerBytes()), net);
    }

    static final class DelayedAck extends Timeout {
        DelayedAck(ScheduleTimeout st) {
            super(st);
        }
    }

    /** The receiver's address, the flow it terminates and its kind of TCP. */
    public static final class TcpReceiverInit extends Init<TcpReceiver> {
        final NetAddress self;
        final String flow;
        final TcpProfile profile;

        public TcpReceiverInit(NetAddress self, String flow) {
            this(self, flow, TcpProfile.of("reno"));
        }

        public TcpReceiverInit(NetAddress self, String flow, TcpProfile profile) {
            this.self = self;
            this.flow = flow;
            this.profile = profile;
        }
    }
}
