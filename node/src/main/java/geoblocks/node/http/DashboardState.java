package geoblocks.node.http;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.StoredBlocks;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.PeerVersions;
import geoblocks.node.BuildVersion;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dashboard's {@code /api/state} JSON, rendered from one {@link NodeSnapshot}: the node's
 * region, its view of every region (up, RTT), the cluster's RTT matrix (every measured pair, with
 * whether each row is fresh), block replicas and bytes per region, the blocks and
 * bytes on its own disk, what it refused (node-to-node and HTTP causes), the newest
 * files with their replicas per block, transfer counters, LEDBAT per peer, requests by operation
 * and the recent ones, the scrubber's pass progress, and the chart history ({@link TransferHistory}:
 * the last minutes of throughput, cwnd and queuing delay samples). It holds no secret: the snapshot has none.
 */
final class DashboardState {
    private DashboardState() {}

    static String render(NodeSnapshot s, long nowMillis, StoredBlocks stored, Map<String, Long> httpRefused,
            TransferHistory history) {
        return render(s, nowMillis, stored, httpRefused, history, new PeerVersions());
    }

    /** As above, with the build and the file protocol version each peer's handshake agreed ({@code versions}). */
    static String render(NodeSnapshot s, long nowMillis, StoredBlocks stored, Map<String, Long> httpRefused,
            TransferHistory history, PeerVersions versions) {
        return render(s, nowMillis, stored, httpRefused, history, versions, DiskSpace.UNKNOWN);
    }

    /**
     * As above, with the space on the disk the node's blocks go to: {@code storage} says when writes are refused
     * (a full block disk, failing metadata syncs), as /readyz does.
     */
    static String render(NodeSnapshot s, long nowMillis, StoredBlocks stored, Map<String, Long> httpRefused,
            TransferHistory history, PeerVersions versions, DiskSpace disk) {
        JsonWriter j = new JsonWriter().begin();
        if (s == null) {
            return j.field("ready", false).end().toString();
        }
        j.name("build").begin().field("version", BuildVersion.version())
                .field("commit", BuildVersion.commit())
                .field("fileProtocol", FileCodec.RANGE.toString());
        j.name("peerFileProtocol").begin();
        versions.byPeer(FileCodec.CODEC_ID).forEach((peer, v) -> j.field(peer.toString(), v));
        j.end();
        ClientOp.Versions members = s.status().versions();
        if (members != null) {
            j.field("clusterVersion", members.clusterVersion()).field("finalizeNote", members.finalizeNote());
            j.name("memberBuilds").begin();
            members.members().forEach(m -> j.field(m.region(), m.build()));
            j.end();
        }
        j.end();
        j.name("storage").begin().field("blockDiskFull", disk.full());
        if (disk.known()) {
            j.field("blockDisk", disk.describe());
        }
        if (s.storageFault() != null) {
            j.field("fault", s.storageFault());
        }
        j.end();
        StatusReply st = s.status();
        j.field("ready", true).field("region", s.region()).field("timeMillis", s.timeMillis())
                .field("ageMs", Math.max(0, nowMillis - s.timeMillis())).field("layoutVersion", s.layout().version())
                .field("drainMovesStarted", s.layout().drainMovesStarted()).field("drainPending", s.layout().drainPending())
                .field("fillMovesStarted", s.layout().fillMovesStarted())
                .field("zoneMovesStarted", s.layout().zoneMovesStarted())
                .field("fillPendingBytes", s.layout().fillPendingBytes())
                .field("movesCommitted", s.layout().movesCommitted()).field("movedBytes", s.layout().movedBytes());
        j.name("rebalance").begin();
        j.name("drainPendingVersions").begin();
        new TreeMap<>(s.layout().drainPendingByRegion()).forEach(j::field);
        j.end();
        j.name("shortBytes").begin();
        new TreeMap<>(s.layout().shortBytes()).forEach(j::field);
        j.end().end();
        j.name("regions").beginArray();
        j.begin().field("region", s.region()).field("self", true).field("up", true).field("rttMs", 0).end();
        for (PeerRtt p : st.peers()) {
            j.begin().field("region", p.region()).field("self", false).field("up", p.rttMs() >= 0)
                    .field("rttMs", p.rttMs() >= 0 ? p.rttMs() : Double.NaN).end();
        }
        j.endArray();
        matrix(j, s.rttMatrix());
        j.name("placed").begin();
        s.placed().forEach((r, p) -> j.name(r).begin().field("blocks", p.blocks()).field("bytes", p.bytes()).end());
        j.end();
        j.name("stored").begin().field("blocks", stored.blocks()).field("bytes", stored.bytes()).end();
        j.field("files", s.files());
        j.name("recentFiles").beginArray();
        for (NodeSnapshot.FileView f : s.recentFiles()) {
            j.begin().field("name", f.name()).field("size", f.size()).field("blockSize", f.blockSize())
                    .field("policy", f.policy()).field("uploadedAt", f.uploadedAt())
                    .field("createdMillis", f.createdMillis()).field("blocks", f.blocks());
            j.name("replicas").beginArray();
            for (List<String> b : f.blockReplicas()) {
                j.beginArray();
                b.forEach(j::value);
                j.endArray();
            }
            j.endArray().end();
        }
        j.endArray();
        Transfers t = st.transfers();
        j.name("transfers").begin().field("foregroundSent", t.foregroundSent())
                .field("foregroundReceived", t.foregroundReceived()).field("backgroundSent", t.backgroundSent())
                .field("backgroundReceived", t.backgroundReceived()).field("ledbatSent", t.ledbatSent())
                .field("tcpBackgroundSent", t.tcpBackgroundSent()).end();
        j.name("background").begin().field("queuedBytes", st.background().queuedBytes())
                .field("queuedCopies", st.background().queuedCopies());
        j.name("peers").beginArray();
        for (LedbatPeer p : st.background().peers()) {
            j.begin().field("region", p.region()).field("active", p.active()).field("streams", p.streams())
                    .field("cwndBytes", p.cwndBytes()).field("inFlightBytes", p.inFlightBytes())
                    .field("queuingDelayMs", p.queuingDelayMs()).field("baseDelayMs", p.baseDelayMs())
                    .field("rttMs", p.rttMs()).field("retransmissions", p.retransmissions())
                    .field("pathMtuBytes", p.pathMtuBytes()).field("stalledForMs", p.stalledForMs()).end();
        }
        j.endArray().end();
        NodeSnapshot.Scrub sc = s.scrub();
        j.name("scrub").begin().field("verified", st.scrubbed()).field("repaired", st.repaired())
                .field("unrepairable", st.unrepairable()).field("passes", sc.passes()).field("running", sc.running())
                .field("passBlocks", sc.passBlocks()).field("passStartMillis", sc.passStartMillis())
                .field("lastPassEndMillis", sc.lastPassEndMillis()).end();
        ClientOp.Gc g = st.gc();
        j.name("gc").begin().field("collectedBlocks", g.collectedBlocks()).field("collectedBytes", g.collectedBytes())
                .field("passes", g.passes()).field("running", g.running()).field("passChecked", g.passChecked())
                .field("passCollected", g.passCollected()).field("passInFlight", g.passInFlight())
                .field("lastPassEndMillis", g.lastPassEndMillis()).field("settledSinceMillis", g.settledSinceMillis())
                .field("moves", g.moves()).end();
        j.name("refused").begin().field("malformed", st.malformed()).field("unauthenticated", st.unauthenticated());
        j.name("http").begin();
        httpRefused.forEach((cause, n) -> j.field(cause, n));
        j.end().end();
        j.name("memory").begin().field("used", s.memoryUsedBytes()).field("capacity", s.memoryCapacityBytes()).end();
        RequestStats.Snapshot r = s.requests();
        j.name("requests").begin();
        for (Map.Entry<String, Map<String, Long>> e : r.counts().entrySet()) {
            j.name(e.getKey()).begin();
            e.getValue().forEach((res, n) -> j.field(res, n));
            j.end();
        }
        j.end();
        j.name("recentRequests").beginArray();
        for (RequestStats.Recent q : r.recent()) {
            j.begin().field("endMillis", q.endMillis()).field("op", q.op()).field("name", q.name())
                    .field("result", q.result()).field("latencyMs", q.latencyMs()).field("error", q.error()).end();
        }
        j.endArray();
        j.name("history");
        history.write(j);
        return j.end().toString();
    }

    /** {@code "matrix": {"regions": [...], "links": [{from, to, rttMs (null: down or none), down, fresh, ageMs}]}}. */
    private static void matrix(JsonWriter j, MeasuredRttMatrix m) {
        j.name("matrix").begin().name("regions").beginArray();
        m.regions().forEach(j::value);
        j.endArray().name("links").beginArray();
        for (MeasuredRttMatrix.Link l : m.links()) {
            j.begin().field("from", l.from()).field("to", l.to()).field("rttMs", l.rttMs()).field("down", l.down())
                    .field("fresh", l.fresh()).field("ageMs", l.ageMs()).end();
        }
        j.endArray().end();
    }
}
