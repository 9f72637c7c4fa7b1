package geoblocks.sim.ledbat;

import geoblocks.ledbat.component.LedbatComponent;
import geoblocks.ledbat.component.LedbatInit;
import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.Timer;

/**
 * A simulated host that runs the real, unchanged {@link LedbatComponent} and pushes bulk data
 * through it: it opens one stream per flow to the peer and keeps each stream's send queue topped
 * up, so the transport is never application-limited. In block mode ({@code blockBytes > 0}) each
 * flow is instead a sequence of streams of one block each, the next opened when the last one's
 * bytes are all acknowledged (as the node's background transfers open one stream per block); each
 * finished block is recorded as {@code block,<flow>,<opened ms>,<closed ms>} in the run's extra
 * records. The component's periodic {@link StreamStats} (cwnd, RTT, its own queuing-delay
 * estimate) feed the flow probes.
 */
public final class LedbatSenderHost extends ComponentDefinition {
    /** Bytes queued per stream before refilling; the same zero-filled chunk is queued repeatedly. */
    private static final int CHUNK = 1 << 20;
    private static final byte[] ZEROS = new byte[CHUNK];

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final Component ledbat;
    private final Map<Integer, FlowProbe> probes = new HashMap<>();
    /** Block mode: stream id -> {flow index, opened at ms}. */
    private final Map<Integer, long[]> blocks = new HashMap<>();

    public LedbatSenderHost(LedbatSenderInit init) {
        ledbat = create(LedbatComponent.class, new LedbatInit(init.self, init.options.settings()));
        connect(ledbat.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(ledbat.getNegative(Timer.class), timer, Channel.TWO_WAY);
        Positive<LedbatPort> port = ledbat.getPositive(LedbatPort.class);
        onStart(s -> {
            for (int i = 0; i < init.flows.size(); i++) {
                trigger(new OpenStream(init.peer, i), port);
            }
        });
        byte[] block = new byte[init.blockBytes];
        handle(port, StreamOpened.class, o -> {
            FlowProbe p = SimRegistry.flow(init.flows.get((int) o.tag()), "ledbat", init.self, init.peer);
            probes.put(o.streamId(), p);
            SimRegistry.stream(init.self, o.streamId(), p);
            if (init.blockBytes > 0) {
                blocks.put(o.streamId(), new long[] {o.tag(), System.currentTimeMillis()});
                trigger(new SendData(o.streamId(), block), port);
                trigger(new CloseStream(o.streamId()), port);
                return;
            }
            trigger(new SendData(o.streamId(), ZEROS), port);
            trigger(new SendData(o.streamId(), ZEROS), port);
        });
        handle(port, SendProgress.class, p -> {
            if (init.blockBytes == 0 && p.queuedBytes() < CHUNK) {
                trigger(new SendData(p.streamId(), ZEROS), port);
            }
        });
        handle(port, StreamClosed.class, c -> {
            long[] b = c.sender() ? blocks.remove(c.streamId()) : null;
            if (b != null) {
                probes.remove(c.streamId());
                SimRegistry.extraRecords().add("block," + init.flows.get((int) b[0]) + "," + b[1] + ","
                        + System.currentTimeMillis());
                trigger(new OpenStream(init.peer, b[0]), port);
            }
        });
        handle(port, StreamStats.class, st -> {
            FlowProbe p = probes.get(st.streamId());
            if (p != null) {
                p.cwnd(st.cwnd());
                if (st.rttMicros() > 0) {
                    p.rttSample(st.rttMicros() / 1000.0);
                }
                p.ownQueueDelay(st.queuingDelayMicros() / 1000.0);
            }
        });
        handle(port, StreamFailed.class, f -> {
            throw new IllegalStateException("LEDBAT stream " + f.streamId() + " failed: " + f.reason());
        });
    }

    /** The sender's address, its peer, one flow name per stream, the LEDBAT options and the block size (0 = endless streams). */
    public static final class LedbatSenderInit extends Init<LedbatSenderHost> {
        final NetAddress self;
        final NetAddress peer;
        final List<String> flows;
        final LedbatOptions options;
        final int blockBytes;

        public LedbatSenderInit(NetAddress self, NetAddress peer, List<String> flows, LedbatOptions options) {
            this(self, peer, flows, options, 0);
        }

        public LedbatSenderInit(NetAddress self, NetAddress peer, List<String> flows, LedbatOptions options,
                int blockBytes) {
            if (flows.isEmpty()) {
                throw new IllegalArgumentException("a LEDBAT sender needs at least one flow");
            }
            this.blockBytes = blockBytes;
            this.self = self;
            this.peer = peer;
            this.flows = List.copyOf(flows);
            this.options = options;
        }
    }
}
