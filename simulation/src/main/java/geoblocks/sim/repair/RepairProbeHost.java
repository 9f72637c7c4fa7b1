package geoblocks.sim.repair;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.sim.harness.SimRegistry;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated host that, at a set time, checks every replica of the repair scenario's file in each
 * node's store and asks each node for its status, recording one line per block
 * ({@code block region index ok}), per node
 * ({@code status region repaired unrepairable tcpSent tcpReceived ledbatSent ledbatReceived
 * queuedBytes queuedCopies}) and per LEDBAT peer a node reports
 * ({@code ledbat region peer active streams cwnd queued inFlight queuingMs baseMs rttMs retransmissions})
 * in the run's extra records. Until then it asks the first node for its status every 250 ms and
 * records the first reply that shows an active LEDBAT flow the same way, marked {@code during}.
 */
public final class RepairProbeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    /** Request ids of the periodic status requests start here. */
    private static final long WATCH = 1_000_000;
    private long watchReq = WATCH;
    private boolean sawActive;

    public RepairProbeHost(ProbeInit init) {
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.atMs);
            st.setTimeoutEvent(new Check(st));
            trigger(st, timer);
            watch();
        });
        handle(timer, Watch.class, w -> {
            if (!sawActive && System.currentTimeMillis() < init.atMs) {
                String first = init.regions.values().iterator().next();
                trigger(new FileMsg(new NetHeader(init.self, NetAddress.parse(first), Transport.TCP),
                        new StatusReq(++watchReq)), net);
                watch();
            }
        });
        handle(timer, Check.class, c -> {
            Manifest m = RepairNodes.manifest(init.seed, List.copyOf(init.regions.keySet()));
            for (Map.Entry<String, BlockStorage> e : RepairNodes.STORES.entrySet()) {
                for (int i = 0; i < RepairNodes.BLOCKS; i++) {
                    SimRegistry.extraRecords().add("block " + e.getKey() + " " + i + " " + intact(e.getValue(), m, i, init.seed));
                }
            }
            long req = 0;
            for (String region : init.regions.keySet()) {
                NetAddress node = NetAddress.parse(init.regions.get(region));
                trigger(new FileMsg(new NetHeader(init.self, node, Transport.TCP), new StatusReq(++req)), net);
            }
        });
        handle(net, FileMsg.class, msg -> {
            if (msg.op() instanceof StatusReply reply && reply.req() > WATCH) {
                if (!sawActive && reply.background().peers().stream().anyMatch(LedbatPeer::active)) {
                    sawActive = true;
                    record("during", reply);
                }
            } else if (msg.op() instanceof StatusReply reply) {
                record("", reply);
            }
        });
    }

    private void watch() {
        ScheduleTimeout st = new ScheduleTimeout(250);
        st.setTimeoutEvent(new Watch(st));
        trigger(st, timer);
    }

    private static void record(String mark, StatusReply reply) {
        String prefix = mark.isEmpty() ? "" : mark + " ";
        Transfers t = reply.transfers();
        Background b = reply.background();
        SimRegistry.extraRecords().add(prefix + "status " + reply.region() + " " + reply.repaired() + " "
                + reply.unrepairable() + " " + t.tcpSent() + " " + t.tcpReceived() + " " + t.ledbatSent() + " "
                + t.ledbatReceived() + " " + b.queuedBytes() + " " + b.queuedCopies());
        for (LedbatPeer p : b.peers()) {
            SimRegistry.extraRecords().add(prefix + "ledbat " + reply.region() + " " + p.region() + " " + p.active() + " "
                    + p.streams() + " " + p.cwndBytes() + " " + p.queuedBytes() + " " + p.inFlightBytes() + " "
                    + p.queuingDelayMs() + " " + p.baseDelayMs() + " " + p.rttMs() + " " + p.retransmissions());
        }
    }

    private static boolean intact(BlockStorage store, Manifest m, int i, long seed) {
        try {
            Block b = store.get(m.blockId(i));
            return b.crc() == m.blocks().get(i).crc() && Arrays.equals(b.data(), RepairNodes.block(seed, i));
        } catch (IOException e) {
            return false;
        }
    }

    static final class Check extends Timeout {
        Check(ScheduleTimeout st) {
            super(st);
        }
    }

    static final class Watch extends Timeout {
        Watch(ScheduleTimeout st) {
            super(st);
        }
    }

    public static final class ProbeInit extends Init<RepairProbeHost> {
        final NetAddress self;
        final Map<String, String> regions;
        final long seed;
        final long atMs;

        ProbeInit(NetAddress self, Map<String, String> regions, long seed, long atMs) {
            this.self = self;
            this.regions = regions;
            this.seed = seed;
            this.atMs = atMs;
        }
    }
}
