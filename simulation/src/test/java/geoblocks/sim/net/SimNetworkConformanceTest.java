package geoblocks.sim.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.RttMatrix;
import geoblocks.net.Wire;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimRegistry;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.Start;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.MessageNotify;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The network conformance suite's cases (node module, {@code NetworkConformanceTest}, run there on
 * GeoNetwork and Kompics' NettyNetwork) on the simulator's network as our scenarios wire it:
 * {@link geoblocks.sim.harness.PlanScenario} (nodes addressed by ip:port, the network model a
 * {@link SimNetworkModel} over a {@link PathModel}), run by {@link SimRunner}. That suite blocks a
 * test thread on real sockets; the simulator runs single-threaded in simulated time, so here the
 * endpoints follow a script and record what they receive, and the checks read the records after
 * one run.
 *
 * <p>Where the simulator's network differs from the real ones by design, a test pins the difference
 * (its name says so) instead of hiding it:
 * <ul>
 *   <li>no size limit: nothing is serialized, the receiver gets the sender's object; only a link's
 *       drop-tail buffer drops a message larger than it;
 *   <li>no NetworkControl: the simulator connects a node's Network and Timer only
 *       ({@code SimulatorMngrComp}), so nobody hears of an unreachable peer, a partition or a loss;
 *   <li>only {@code Msg}s travel: a {@code MessageNotify.Req} is neither answered nor delivered;
 *   <li>strict FIFO per (source, destination): a control message ({@link NetMsg#isControl}) does
 *       not overtake the bulk messages queued before it, as it may on GeoNetwork;
 *   <li>UDP and TCP alike: the model treats both as packets (loss and partitions drop either).
 * </ul>
 */
class SimNetworkConformanceTest {
    /** dublin: a and the address nobody listens at; mumbai: b; seoul: c; saopaulo: d. */
    static final String A = "10.0.0.1";
    static final String B = "10.0.1.1";
    static final String C = "10.0.2.1";
    static final String D = "10.0.3.1";
    static final String NOBODY = "10.0.0.9";
    static final int PORT = 4000;
    /** Above every real network's limit: GeoNetwork's 16 MiB frame, NettyNetwork's 65,532 bytes. */
    static final int HUGE = (16 << 20) + (1 << 20);
    /** The buffer of the bottleneck from dublin to mumbai. */
    static final long LINK_BUFFER = 4L << 20;
    static final int FIFO_N = 300;
    static final int UDP_N = 50;
    /** The partition between seoul and saopaulo, simulated ms. */
    static final long CUT_UNTIL_MS = 1_000;

    private static List<Recv> received;
    private static SimResult result;

    /** One message sent by an endpoint, {@code atMs} after the run starts. */
    record Send(long atMs, String toIp, Transport transport, long seq, int bytes, boolean control, boolean askNotify)
            implements Serializable {
        static Send tcp(long atMs, String to, long seq, int bytes) {
            return new Send(atMs, to, Transport.TCP, seq, bytes, false, false);
        }
    }

    /** One delivery, as recorded by its receiver. */
    record Recv(String at, long seq, String from, String to, Transport transport, int bytes, long crc, long ms) {
        static Recv parse(String line) {
            String[] f = line.split("\\|");
            return new Recv(f[1], Long.parseLong(f[2]), f[3], f[4], Transport.valueOf(f[5]), Integer.parseInt(f[6]),
                    Long.parseLong(f[7]), Long.parseLong(f[8]));
        }
    }

    @BeforeAll
    static void run() {
        List<Send> a = new ArrayList<>();
        List<Send> b = new ArrayList<>();
        List<Send> c = new ArrayList<>();
        a.add(Send.tcp(0, B, 100, 1000));
        Random r = new Random(2);
        for (int i = 0; i < FIFO_N; i++) {
            int size = 1 + r.nextInt(3000);
            a.add(Send.tcp(10, B, 1000 + i, size));
            b.add(Send.tcp(10, A, 1000 + i, size));
        }
        a.add(new Send(10, B, Transport.TCP, 1000 + FIFO_N, 16, true, false));
        b.add(Send.tcp(20, A, 5000, HUGE));
        a.add(Send.tcp(3_000, B, 5100, (int) LINK_BUFFER + 1));
        a.add(Send.tcp(3_000, B, 5101, 100));
        for (int i = 0; i < UDP_N; i++) {
            b.add(new Send(30, A, Transport.UDP, 7000 + i, 1200, false, false));
        }
        a.add(Send.tcp(40, NOBODY, 9000, 10));
        a.add(new Send(50, B, Transport.TCP, 9100, 10, false, true));
        c.add(Send.tcp(500, D, 9200, 10));
        c.add(new Send(600, D, Transport.UDP, 9201, 10, false, false));
        c.add(Send.tcp(CUT_UNTIL_MS + 500, D, 9202, 10));

        NetworkSpec spec = NetworkSpec.builder(RttMatrix.specDefaults())
                .host(A, "dublin").host(NOBODY, "dublin").host(B, "mumbai").host(C, "seoul").host(D, "saopaulo")
                .path("dublin", "mumbai", new LinkSpec(100_000_000L, LINK_BUFFER))
                .jitterMs(20)
                .partition(0, CUT_UNTIL_MS, Set.of("seoul"), Set.of("saopaulo"))
                .build();
        List<NodePlan> nodes = List.of(
                new NodePlan("a", 0, A, PORT, new EndpointFactory(a)),
                new NodePlan("b", 0, B, PORT, new EndpointFactory(b)),
                new NodePlan("c", 0, C, PORT, new EndpointFactory(c)),
                new NodePlan("d", 0, D, PORT, new EndpointFactory(List.of())));
        result = SimRunner.run(new SimPlan(7, spec, nodes, 10_000, 1_000));
        received = new ArrayList<>();
        for (String line : result.extra()) {
            if (line.startsWith("recv|")) {
                received.add(Recv.parse(line));
            }
        }
    }

    private static List<Recv> at(String ip, long fromSeq, long toSeq) {
        return received.stream().filter(m -> m.at.equals(ip) && m.seq >= fromSeq && m.seq < toSeq).toList();
    }

    private static String addr(String ip) {
        return NetAddress.of(ip, PORT).toString();
    }

    @Test
    void theRunRaisedNoFault() {
        assertEquals(List.of(), result.faults());
    }

    @Test
    void tcp_aMessage_arrivesIntact_fromItsSender_afterTheOneWayDelay() {
        List<Recv> got = at(B, 100, 101);
        assertEquals(1, got.size(), "delivered once");
        Recv m = got.get(0);
        assertEquals(1000, m.bytes);
        assertEquals(ProbeMsg.crc(ProbeMsg.payload(100, 1000)), m.crc);
        assertEquals(addr(A), m.from);
        assertEquals(addr(B), m.to);
        assertEquals(Transport.TCP, m.transport);
        assertTrue(m.ms >= 122 / 2, "dublin-mumbai is 122 ms RTT: arrived at " + m.ms + " ms");
    }

    @Test
    void tcp_messagesBetweenTwoEndpoints_arriveInTheOrderSent_inBothDirections_despiteJitter() {
        for (String ip : List.of(A, B)) {
            List<Recv> got = at(ip, 1000, 1000 + FIFO_N);
            assertEquals(FIFO_N, got.size(), "all delivered at " + ip);
            for (int i = 0; i < FIFO_N; i++) {
                assertEquals(1000 + i, got.get(i).seq, "FIFO at " + ip);
            }
        }
    }

    /** Pinned difference: GeoNetwork may send a control message ahead of the bulk ones queued to the same peer. */
    @Test
    void aControlMessage_doesNotOvertakeTheBulkSentBeforeIt_unlikeGeoNetwork() {
        List<Recv> got = at(B, 1000, 1000 + FIFO_N + 1);
        assertEquals(FIFO_N + 1, got.size());
        assertEquals(1000 + FIFO_N, got.get(FIFO_N).seq, "the control message comes last, as it was sent");
    }

    /** Pinned difference: nothing is serialized, so the real networks' size limits do not exist here. */
    @Test
    void aMessageAboveEveryRealNetworksLimit_arrivesIntact_noSizeLimit() {
        List<Recv> got = at(A, 5000, 5001);
        assertEquals(1, got.size(), "a " + HUGE + "-byte message is delivered (no link on mumbai -> dublin)");
        assertEquals(ProbeMsg.crc(ProbeMsg.payload(5000, HUGE)), got.get(0).crc);
    }

    /** The simulator's only size limit is ours: a link's drop-tail buffer, silently (no one is told). */
    @Test
    void aMessageLargerThanALinksBuffer_isDropped_andTheNextOneStillArrives() {
        assertEquals(List.of(), at(B, 5100, 5101), "larger than the 4 MiB buffer of dublin -> mumbai");
        assertEquals(1, at(B, 5101, 5102).size(), "the path still carries the next message");
    }

    @Test
    void udp_datagrams_arrive_asUdp() {
        List<Recv> got = at(A, 7000, 7000 + UDP_N);
        assertEquals(UDP_N, got.size(), "no loss configured, so the model drops none");
        for (Recv m : got) {
            assertEquals(Transport.UDP, m.transport);
            assertEquals(addr(B), m.from);
            assertEquals(1200, m.bytes);
        }
    }

    /**
     * Pinned difference: GeoNetwork raises a NetworkException and NettyNetwork answers a
     * MessageNotify with FAILED; in the simulator a message to an address with no node is dropped,
     * and the sender hears nothing (it learns of the peer from its own timeouts, as a node does).
     */
    @Test
    void aPeerNobodyListensAt_isNotReportedToTheSender_theMessageIsDropped() {
        assertEquals(List.of(), at(NOBODY, 9000, 9001));
        assertEquals(List.of(), at(A, 9000, 9001), "nothing comes back to the sender");
        assertEquals(List.of(), controlEvents(), "no NetworkControl event at any endpoint");
    }

    /** Pinned difference: the simulator routes only {@code Msg}s; a MessageNotify request goes nowhere. */
    @Test
    void aMessageSentWithMessageNotify_isNeitherDeliveredNorAnswered() {
        assertEquals(List.of(), at(B, 9100, 9101), "the wrapped message is not delivered");
        assertTrue(result.extra().stream().noneMatch(l -> l.startsWith("notify|")), "and no MessageNotify.Resp comes");
    }

    /** Our model's partitions drop TCP messages like datagrams (the simulator keeps no connection to queue them on). */
    @Test
    void aPartition_dropsTcpAndUdpAlike_silently_andTrafficFlowsAfterIt() {
        assertEquals(List.of(), at(D, 9200, 9202), "sent during the partition");
        List<Recv> after = at(D, 9202, 9203);
        assertEquals(1, after.size(), "sent after the partition ended");
        assertTrue(after.get(0).ms > CUT_UNTIL_MS);
        long counted = result.extra().stream().filter(l -> l.startsWith("partitionDrops|"))
                .mapToLong(l -> Long.parseLong(l.substring("partitionDrops|".length()))).max().orElse(-1);
        assertEquals(2, counted, "the model counted both drops");
    }

    private static List<String> controlEvents() {
        return result.extra().stream().filter(l -> l.startsWith("ctl|")).toList();
    }

    /** The probe message: a sequence number and a payload that its sequence number determines. */
    static final class ProbeMsg extends NetMsg {
        final long seq;
        final byte[] payload;
        final boolean control;

        ProbeMsg(NetHeader h, long seq, byte[] payload, boolean control) {
            super(h);
            this.seq = seq;
            this.payload = payload;
            this.control = control;
        }

        static byte[] payload(long seq, int bytes) {
            byte[] p = new byte[bytes];
            new Random(seq).nextBytes(p);
            return p;
        }

        static long crc(byte[] p) {
            CRC32 c = new CRC32();
            c.update(p);
            return c.getValue();
        }

        @Override
        public boolean isControl() {
            return control;
        }

        @Override
        public int wireSize() {
            return Wire.headerSize(getHeader()) + 8 + 4 + payload.length;
        }
    }

    record EndpointFactory(List<Send> script) implements NodeFactory {
        EndpointFactory {
            script = List.copyOf(script);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return Endpoint.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new EndpointInit(self, script);
        }
    }

    public static final class EndpointInit extends Init<Endpoint> {
        final NetAddress self;
        final List<Send> script;

        EndpointInit(NetAddress self, List<Send> script) {
            this.self = self;
            this.script = script;
        }
    }

    /** Sends its script at the scripted times; records every delivery and every event it hears. */
    public static final class Endpoint extends ComponentDefinition {
        private final Positive<Network> net = requires(Network.class);
        private final Positive<Timer> timer = requires(Timer.class);
        private final Positive<NetworkControl> ctl = requires(NetworkControl.class);
        private final NetAddress self;
        private final List<Send> script;

        public Endpoint(EndpointInit init) {
            this.self = init.self;
            this.script = init.script;
            List<String> records = SimRegistry.extraRecords();
            handle(control, Start.class, s -> {
                for (long t : new TreeSet<>(script.stream().map(Send::atMs).toList())) {
                    ScheduleTimeout st = new ScheduleTimeout(t);
                    st.setTimeoutEvent(new SendAt(st, t));
                    trigger(st, timer);
                }
            });
            handle(timer, SendAt.class, t -> {
                for (Send s : script) {
                    if (s.atMs() == t.atMs) {
                        send(s);
                    }
                }
                if (SimRegistry.path() != null) {
                    records.add("partitionDrops|" + SimRegistry.path().partitionDrops());
                }
            });
            handle(net, ProbeMsg.class, m -> records.add(String.join("|", "recv", self.getIp().getHostAddress(),
                    Long.toString(m.seq), m.getHeader().source().toString(), m.getHeader().destination().toString(),
                    m.getHeader().protocol().name(), Integer.toString(m.payload.length),
                    Long.toString(ProbeMsg.crc(m.payload)), Long.toString(System.currentTimeMillis()))));
            handle(net, MessageNotify.Resp.class, r -> records.add("notify|" + self + "|" + r.getState()));
            handle(ctl, ListeningStatus.class, e -> records.add("ctl|" + self + "|" + e));
            handle(ctl, NetworkException.class, e -> records.add("ctl|" + self + "|" + e));
            handle(ctl, ConnectionStatus.Dropped.class, e -> records.add("ctl|" + self + "|" + e));
        }

        private void send(Send s) {
            NetHeader h = new NetHeader(self, NetAddress.of(s.toIp(), PORT), s.transport());
            ProbeMsg m = new ProbeMsg(h, s.seq(), ProbeMsg.payload(s.seq(), s.bytes()), s.control());
            if (s.askNotify()) {
                trigger(MessageNotify.create(m), net);
            } else {
                trigger(m, net);
            }
        }
    }

    static final class SendAt extends Timeout {
        final long atMs;

        SendAt(ScheduleTimeout st, long atMs) {
            super(st);
            this.atMs = atMs;
        }
    }
}
