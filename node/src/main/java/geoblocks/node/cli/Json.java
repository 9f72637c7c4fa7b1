package geoblocks.node.cli;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.s3.migration.PendingMigration;
import java.util.List;
import java.util.Map;

/** Minimal JSON rendering of a manifest for {@code stat --json} and of a node's {@code status --json}. */
final class Json {
    private Json() {}

    /**
     * {@code stat --json}: the manifest; per block {@code replicas} (regions with a durable copy:
     * the manifest's regions minus the pending ones) and {@code pending} (regions the coordinator's
     * replication queue still owes a copy); {@code pending_known} is false when the node asked did
     * not coordinate the upload (then {@code replicas} lists the manifest's regions as they are);
     * {@code meta} is the version's metadata (the S3 gateway's ETag and content type) and, for an object
     * the S3 gateway stored away from its bucket's home, {@code migration} says where it was stored, the
     * regions it moves to, and whether every block is there yet.
     */
    static String stat(ClientPort.FileStat st) {
        Manifest m = st.manifest();
        StringBuilder s = new StringBuilder("{");
        s.append("\"name\":").append(str(m.name())).append(',')
                .append("\"size\":").append(m.size()).append(',')
                .append("\"blockSize\":").append(m.blockSize()).append(',')
                .append("\"policy\":").append(str(m.policy())).append(',')
                .append("\"uploadedAt\":").append(str(m.uploadedAt())).append(',')
                .append("\"createdMillis\":").append(m.createdMillis()).append(',')
                .append("\"version\":").append(version(m)).append(',')
                .append("\"pending_known\":").append(st.pendingKnown()).append(',')
                .append("\"meta\":").append(meta(m.meta())).append(',');
        // an object the S3 gateway stored away from its bucket's home (DataBridge) and moves there
        PendingMigration.of(m).ifPresent(p -> s.append("\"migration\":{\"stored_at\":").append(str(p.storedAt()))
                .append(",\"to\":").append(list(p.to())).append(",\"done\":").append(p.done()).append("},"));
        s.append("\"inline\":").append(m.isInline()).append(',');
        if (m.isInline()) {
            s.append("\"inline_crc32c\":\"").append(Checksums.hex(m.inline().crc())).append("\",");
        }
        s.append("\"blocks\":[");
        for (int i = 0; i < m.blocks().size(); i++) {
            Manifest.BlockRef b = m.blocks().get(i);
            s.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"length\":").append(b.length())
                    .append(",\"crc32c\":\"").append(Checksums.hex(b.crc())).append("\",\"codec\":\"")
                    .append(b.codec().label()).append("\",\"raw_length\":").append(b.rawLength())
                    .append(",\"raw_crc32c\":\"").append(Checksums.hex(b.rawCrc())).append("\",\"replicas\":").append(list(st.held(i)))
                    .append(",\"pending\":").append(list(st.pending(i))).append('}');
        }
        return s.append("]}").toString();
    }

    /** A version's metadata as a JSON object (keys ascending). */
    static String meta(Map<String, String> meta) {
        StringBuilder s = new StringBuilder("{");
        meta.forEach((k, v) -> s.append(s.length() > 1 ? "," : "").append(str(k)).append(':').append(str(v)));
        return s.append('}').toString();
    }

    /** The version a manifest is: id, clock (value, ms, counter, region), location epoch, delete or not. */
    static String version(Manifest m) {
        Version v = m.version();
        return "{\"id\":" + str(v.id()) + ",\"clock\":" + v.clock() + ",\"clock_ms\":" + v.millis()
                + ",\"clock_counter\":" + HybridClock.logical(v.clock()) + ",\"clock_region\":" + str(v.region())
                + ",\"location_epoch\":" + m.locEpoch() + ",\"deleted\":" + m.deleted() + "}";
    }

    /** {@code versions --json}: newest first; {@code current} marks the version reads serve (unless it is a delete). */
    static String versions(String name, List<VersionEntry> vs) {
        StringBuilder s = new StringBuilder("{\"name\":").append(str(name)).append(",\"versions\":[");
        for (int i = 0; i < vs.size(); i++) {
            VersionEntry v = vs.get(i);
            s.append(i == 0 ? "" : ",").append("{\"id\":").append(str(v.id())).append(",\"size\":").append(v.size())
                    .append(",\"uploadedAt\":").append(str(v.uploadedAt())).append(",\"createdMillis\":")
                    .append(v.createdMillis()).append(",\"clock\":").append(v.clock()).append(",\"clock_ms\":")
                    .append(HybridClock.physicalMillis(v.clock())).append(",\"clock_counter\":")
                    .append(HybridClock.logical(v.clock())).append(",\"clock_region\":").append(str(v.clockRegion()))
                    .append(",\"location_epoch\":").append(v.locEpoch()).append(",\"deleted\":").append(v.deleted())
                    .append(",\"current\":").append(i == 0).append('}');
        }
        return s.append("]}").toString();
    }

    private static String list(List<String> items) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            s.append(i == 0 ? "" : ",").append(str(items.get(i)));
        }
        return s.append(']').toString();
    }

    static String status(StatusReply st) {
        StringBuilder s = new StringBuilder("{");
        s.append("\"region\":").append(str(st.region())).append(",\"peers\":[");
        for (int i = 0; i < st.peers().size(); i++) {
            PeerRtt p = st.peers().get(i);
            s.append(i == 0 ? "" : ",").append("{\"region\":").append(str(p.region())).append(",\"up\":")
                    .append(p.rttMs() >= 0).append(",\"rtt_ms\":").append(p.rttMs() >= 0 ? String.valueOf(p.rttMs()) : "null")
                    .append('}');
        }
        Transfers t = st.transfers();
        s.append("],\"refused\":{\"malformed\":").append(st.malformed()).append(",\"unauthenticated\":")
                .append(st.unauthenticated()).append("},\"scrubber\":{\"scrubbed\":").append(st.scrubbed())
                .append(",\"repaired\":").append(st.repaired()).append(",\"unrepairable\":").append(st.unrepairable())
                .append("},\"transfers\":{\"ledbat\":{\"bytes_sent\":").append(t.ledbatSent())
                .append(",\"bytes_received\":").append(t.ledbatReceived()).append("},\"tcp\":{\"bytes_sent\":")
                .append(t.tcpSent()).append(",\"bytes_received\":").append(t.tcpReceived())
                .append("},\"foreground\":{\"bytes_sent\":").append(t.foregroundSent()).append(",\"bytes_received\":")
                .append(t.foregroundReceived()).append("},\"background\":{\"bytes_sent\":").append(t.backgroundSent())
                .append(",\"bytes_received\":").append(t.backgroundReceived()).append("}},");
        background(s, st.background());
        gc(s, st.gc());
        versions(s, st.versions());
        return s.append('}').toString();
    }

    /**
     * {@code "versions":{"build":"...","cluster_version":"0.2","finalize_note":"...","members":{"REGION":{"build":"0.3.0 (commit ...)",
     * "file_protocol":N|null}}}}, or {@code "versions":null} from a node of file protocol 4 or older (0.2.x), which
     * reports none. A member not connected to the node is left out; {@code file_protocol} is null for the node itself.
     */
    private static void versions(StringBuilder s, ClientOp.Versions v) {
        if (v == null) {
            s.append(",\"versions\":null");
            return;
        }
        s.append(",\"versions\":{\"build\":").append(str(v.build())).append(",\"cluster_version\":")
                .append(str(v.clusterVersion())).append(",\"finalize_note\":").append(str(v.finalizeNote()))
                .append(",\"members\":{");
        for (int i = 0; i < v.members().size(); i++) {
            ClientOp.MemberBuild m = v.members().get(i);
            s.append(i == 0 ? "" : ",").append(str(m.region())).append(":{\"build\":").append(str(m.build()))
                    .append(",\"file_protocol\":").append(m.fileProtocol() < 0 ? "null" : m.fileProtocol()).append('}');
        }
        s.append("}}");
    }

    /**
     * {@code "gc":{"collected_blocks":N,"collected_bytes":N,"passes":N,"running":B,"pass":{"checked":N,
     * "collected":N,"in_flight":N},"last_pass_end_ms":N|null,"settled_since_ms":N|null,"moves":N}}: the block
     * collector's lifetime totals, its sweeps, and the moves this node coordinates (kept in its engine).
     */
    private static void gc(StringBuilder s, ClientOp.Gc g) {
        s.append(",\"gc\":{\"collected_blocks\":").append(g.collectedBlocks()).append(",\"collected_bytes\":")
                .append(g.collectedBytes()).append(",\"passes\":").append(g.passes()).append(",\"running\":")
                .append(g.running()).append(",\"pass\":{\"checked\":").append(g.passChecked())
                .append(",\"collected\":").append(g.passCollected()).append(",\"in_flight\":").append(g.passInFlight())
                .append("},\"last_pass_end_ms\":").append(g.lastPassEndMillis() < 0 ? "null" : g.lastPassEndMillis())
                .append(",\"settled_since_ms\":").append(g.settledSinceMillis() < 0 ? "null" : g.settledSinceMillis())
                .append(",\"moves\":").append(g.moves()).append('}');
    }

    /**
     * {@code "background":{"queued_bytes":N,"queued_copies":N,"peers":{"REGION":{...}}}}: bytes of
     * background pushes not yet acknowledged, replica copies the replication queue owes, and per
     * peer region the LEDBAT flow all background streams to it share (delays in ms, null when not
     * measured yet).
     */
    private static void background(StringBuilder s, Background b) {
        s.append("\"background\":{\"queued_bytes\":").append(b.queuedBytes()).append(",\"queued_copies\":")
                .append(b.queuedCopies()).append(",\"peers\":{");
        for (int i = 0; i < b.peers().size(); i++) {
            LedbatPeer p = b.peers().get(i);
            s.append(i == 0 ? "" : ",").append(str(p.region())).append(":{\"active\":").append(p.active())
                    .append(",\"streams\":").append(p.streams()).append(",\"cwnd_bytes\":").append(p.cwndBytes())
                    .append(",\"queued_bytes\":").append(p.queuedBytes()).append(",\"in_flight_bytes\":")
                    .append(p.inFlightBytes()).append(",\"queuing_delay_ms\":").append(num(p.queuingDelayMs()))
                    .append(",\"base_delay_ms\":").append(num(p.baseDelayMs())).append(",\"rtt_ms\":")
                    .append(num(p.rttMs())).append(",\"retransmissions\":").append(p.retransmissions())
                    .append(",\"path_mtu_bytes\":").append(p.pathMtuBytes() > 0 ? String.valueOf(p.pathMtuBytes()) : "null")
                    .append(",\"stalled_for_ms\":").append(p.stalledForMs())
                    .append('}');
        }
        s.append("}}");
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.valueOf(v) : "null";
    }

    /** {@code policies --json}: the node's region and every policy's name, kind, copies and rules. */
    static String policies(ClientOp.PoliciesReply r) {
        StringBuilder s = new StringBuilder("{\"region\":").append(str(r.region())).append(",\"policies\":[");
        for (int i = 0; i < r.policies().size(); i++) {
            ClientOp.PolicyInfo p = r.policies().get(i);
            s.append(i == 0 ? "" : ",").append("{\"name\":").append(str(p.name())).append(",\"kind\":").append(str(p.kind()))
                    .append(",\"copies\":").append(p.copies()).append(",\"rules\":").append(str(p.rules())).append('}');
        }
        return s.append("]}").toString();
    }

    static String str(String v) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : v.toCharArray()) {
            switch (c) {
                case '"': s.append("\\\""); break;
                case '\\': s.append("\\\\"); break;
                default:
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
            }
        }
        return s.append('"').toString();
    }
}
