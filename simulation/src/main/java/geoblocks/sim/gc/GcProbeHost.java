package geoblocks.sim.gc;

import geoblocks.blockstore.core.BlockCollector;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockReferences;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.MoveRecord;
import geoblocks.blockstore.meta.MetaGcTotals;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaMoveStore;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.ClientOp.Gc;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.sim.harness.SimRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * At a set time, judges every block on every node of the block collection scenario against that
 * node's own kept versions and kept moves, and every replica those versions place at the node
 * against its disk. Records per node {@code N|region|blocks|referenced|young|leaked|missing|moves}
 * ({@code young}: no kept version places it here but it is within the grace, or its file's move is
 * kept), one {@code L|region|blockId|ageMs|reference} per leaked block (unreferenced and older than
 * the grace), one {@code X|region|blockId|name} per missing replica, {@code C|region|blocks|bytes}
 * (what its collector collected), for each watched name {@code V|region|name|epoch|replicas}, and
 * each node's status of its collector: {@code S|region|collected|passes|checked|collectedInPass|inFlight|settledSince|moves}.
 */
public final class GcProbeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public GcProbeHost(ProbeInit init) {
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.atMs);
            st.setTimeoutEvent(new Check(st));
            trigger(st, timer);
        });
        handle(timer, Check.class, c -> {
            try {
                Set<String> moving = new HashSet<>();
                for (MemoryMetaEngine engine : GcNodes.ENGINES.values()) {
                    new MetaMoveStore(engine).load().moves().forEach(m -> moving.add(m.from().fileId()));
                }
                GcNodes.BLOCKS.forEach((region, blocks) -> judge(region, blocks, moving, init));
            } catch (IOException | UncheckedIOException e) {
                SimRegistry.extraRecords().add("E|" + e.getMessage());
            }
            long req = 0;
            for (String address : init.regions.values()) {
                trigger(new FileMsg(new NetHeader(init.self, NetAddress.parse(address), Transport.TCP),
                        new StatusReq(++req)), net);
            }
        });
        handle(net, FileMsg.class, m -> {
            if (m.op() instanceof StatusReply r) {
                Gc g = r.gc();
                SimRegistry.extraRecords().add("S|" + r.region() + "|" + g.collectedBlocks() + "|" + g.passes() + "|"
                        + g.passChecked() + "|" + g.passCollected() + "|" + g.passInFlight() + "|" + g.settledSinceMillis()
                        + "|" + g.moves() + "|" + System.currentTimeMillis());
            }
        });
    }

    /** {@code moving}: the files of the moves every node keeps (their copies are held at their targets). */
    private static void judge(String region, MemoryBlockStorage blocks, Set<String> moving, ProbeInit init) {
        List<String> out = SimRegistry.extraRecords();
        ManifestStore store = GcNodes.STORES.get(region);
        long now = System.currentTimeMillis();
        int moves;
        try {
            List<MoveRecord> kept = new MetaMoveStore(GcNodes.ENGINES.get(region)).load().moves();
            moves = kept.size();
            MetaGcTotals totals = new MetaGcTotals(GcNodes.ENGINES.get(region));
            out.add("C|" + region + "|" + totals.blocks() + "|" + totals.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long all = 0;
        long referenced = 0;
        long young = 0;
        long leaked = 0;
        for (int shard = 0; shard < blocks.shards(); shard++) {
            for (BlockFile f : blocks.listShard(shard, Long.MAX_VALUE)) {
                all++;
                Optional<BlockCollector.FileBlock> fb = BlockCollector.FileBlock.of(f.id());
                BlockCollector.Reference ref = fb.isEmpty() ? BlockCollector.Reference.UNREADABLE
                        : BlockReferences.of(store, region, fb.get().fileId(), fb.get().index());
                if (ref == BlockCollector.Reference.HERE) {
                    referenced++;
                } else if (now - f.modifiedMillis() <= init.graceMs || moving.contains(fb.get().fileId())) {
                    young++;
                } else {
                    leaked++;
                    out.add("L|" + region + "|" + f.id() + "|" + (now - f.modifiedMillis()) + "|" + ref);
                }
            }
        }
        long missing = 0;
        for (ManifestHistory h : store.histories("", Integer.MAX_VALUE)) {
            for (Manifest m : h.versions()) {
                for (int i = 0; i < m.blocks().size(); i++) {
                    if (!m.deleted() && m.blocks().get(i).replicas().contains(region) && !blocks.contains(m.blockId(i))) {
                        missing++;
                        out.add("X|" + region + "|" + m.blockId(i) + "|" + m.name());
                    }
                }
            }
        }
        out.add("N|" + region + "|" + all + "|" + referenced + "|" + young + "|" + leaked + "|" + missing + "|" + moves);
        for (String name : init.watched) {
            store.find(name).ifPresent(m -> out.add("V|" + region + "|" + name + "|" + m.locEpoch() + "|"
                    + String.join(",", m.blocks().get(0).replicas())));
        }
    }

    static final class Check extends Timeout {
        Check(ScheduleTimeout st) {
            super(st);
        }
    }

    public static final class ProbeInit extends Init<GcProbeHost> {
        final NetAddress self;
        final Map<String, String> regions;
        final long atMs;
        final long graceMs;
        final List<String> watched;

        ProbeInit(NetAddress self, Map<String, String> regions, long atMs, long graceMs, List<String> watched) {
            this.self = self;
            this.regions = regions;
            this.atMs = atMs;
            this.graceMs = graceMs;
            this.watched = watched;
        }
    }
}
