package geoblocks.sim.repair;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp.StatusReply;
import geoblocks.blockstore.wire.FileOp.StatusReq;
import geoblocks.blockstore.wire.FileOp.Transfers;
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
 * ({@code block region index ok}) and per node
 * ({@code status region repaired unrepairable tcpSent tcpReceived ledbatSent ledbatReceived}) in
 * the run's extra records.
 */
public final class RepairProbeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public RepairProbeHost(ProbeInit init) {
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.atMs);
            st.setTimeoutEvent(new Check(st));
            trigger(st, timer);
        });
        handle(timer, Check.class, c -> {
            Manifest m = RepairNodes.manifest(init.seed, List.copyOf(init.regions.keySet()));
            for (Map.Entry<String, BlockStorage> e : RepairNodes.STORES.entrySet()) {
                for (int i = 0; i < RepairNodes.BLOCKS; i++) {
                    SimRegistry.extraRecords().add("block " + e.getKey() + " " + i + " " + intact(e.getValue(), m, i));
                }
            }
            long req = 0;
            for (String region : init.regions.keySet()) {
                NetAddress node = NetAddress.parse(init.regions.get(region));
                trigger(new FileMsg(new NetHeader(init.self, node, Transport.TCP), new StatusReq(++req)), net);
            }
        });
        handle(net, FileMsg.class, msg -> {
            if (msg.op() instanceof StatusReply reply) {
                Transfers t = reply.transfers();
                SimRegistry.extraRecords().add("status " + reply.region() + " " + reply.repaired() + " " + reply.unrepairable() + " "
                        + t.tcpSent() + " " + t.tcpReceived() + " " + t.ledbatSent() + " " + t.ledbatReceived());
            }
        });
    }

    private static boolean intact(BlockStorage store, Manifest m, int i) {
        try {
            Block b = store.get(m.blockId(i));
            return b.crc() == m.blocks().get(i).crc() && Arrays.equals(b.data(), RepairNodes.block(seedOf(m), i));
        } catch (IOException e) {
            return false;
        }
    }

    private static long seedOf(Manifest m) {
        return Long.parseUnsignedLong(m.fileId().substring(1), 16);
    }

    static final class Check extends Timeout {
        Check(ScheduleTimeout st) {
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
