package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.net.Bytes;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The client family of the file protocol: what a client asks the node it talks to (its
 * coordinator) and what that node answers, besides the {@linkplain FileOp.Shared shared} replies
 * (Done, Failed, manifest parts). Each op is a {@link Request}, which the coordinator hands to the
 * part registered for its class and takes from anyone who proved the cluster secret, or a
 * {@link Reply}, which goes to the request waiting for it. Encoded by {@link ClientCodec}.
 */
public sealed interface ClientOp extends FileOp {
    /** A request from a client to its coordinator. */
    sealed interface Request extends ClientOp, FileOp.Handled {
        @Override
        default Kind kind() {
            return Kind.CLIENT_REQUEST;
        }
    }

    /** The coordinator's answer to a client request. */
    sealed interface Reply extends ClientOp {
        @Override
        default Kind kind() {
            return Kind.REPLY;
        }
    }

    /**
     * Start an upload of {@code size} bytes in blocks of {@code blockSize} with a placement policy;
     * {@code ack} is {@link #ACK_ALL} (done when every replica is durable) or {@link #ACK_LOCAL}
     * (done when the first copy is durable; the others follow from the coordinator's replication queue).
     * Without a {@code condition} the upload becomes the name's newest version (an overwrite); with
     * one (e.g. {@link WriteCondition#ABSENT}, {@code put --if-absent}) it becomes a version only if
     * the name's live version meets it, as decided by the name's owner region.
     */
    record PutBegin(long req, String name, long size, int blockSize, String policy, String ack, WriteCondition condition,
            Map<String, String> meta) implements Request {
        public PutBegin {
            Objects.requireNonNull(condition, "condition");
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy) {
            this(req, name, size, blockSize, policy, ACK_ALL, false);
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack) {
            this(req, name, size, blockSize, policy, ack, false);
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack, boolean ifAbsent) {
            this(req, name, size, blockSize, policy, ack, ifAbsent ? WriteCondition.ABSENT : WriteCondition.NONE,
                    Map.of());
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack, boolean ifAbsent,
                Map<String, String> meta) {
            this(req, name, size, blockSize, policy, ack, ifAbsent ? WriteCondition.ABSENT : WriteCondition.NONE, meta);
        }

        /** Exactly a create if absent. */
        public boolean ifAbsent() {
            return condition.absentOnly();
        }
    }

    String ACK_ALL = "all";

    String ACK_LOCAL = "local";

    /**
     * Stored bytes {@code offset..} of block {@code block}; the last chunk of a block carries the
     * stored bytes' CRC32C, the block's codec id ({@code BlockCodec}: 0 none, 1 gzip, 2 zstd) and
     * the original bytes' CRC32C (equal to {@code blockCrc} when uncompressed).
     */
    record PutData(long req, int block, int offset, int blockCrc, boolean last, byte[] data, int codec, int rawCrc)
            implements Request {
        /** A chunk of an uncompressed block. */
        public PutData(long req, int block, int offset, int blockCrc, boolean last, byte[] data) {
            this(req, block, offset, blockCrc, last, data, 0, blockCrc);
        }
    }

    /**
     * Download {@code name}: its newest version when {@code version} is empty, else that version's
     * id; blocks read as the node's {@code geoblocks.node.read} default says (first by RTT unless set).
     */
    record GetBegin(long req, String name, String version) implements Request {
        public GetBegin(long req, String name) {
            this(req, name, "");
        }
    }

    /** Flow control of a download: the client has consumed {@code consumed} bytes. */
    record GetAck(long req, long consumed) implements Request, Control {}

    /**
     * One page of the live files whose names start with {@code prefix} ("" for every file), after
     * {@code after} (exclusive; "" for the start of the prefix), in UTF-8 byte order: at most
     * {@code limit} entries, fewer when the node caps it ({@link FileCodec#MAX_LIST}) or the page
     * reaches {@link FileCodec#MAX_LIST_PART_BYTES}. Answered by one {@link ListPart}. With
     * {@code deleted}, names whose newest version is a tombstone are listed too (as entries of size 0
     * without metadata), read from the names' version records instead of the listing table.
     */
    record ListReq(long req, String prefix, String after, int limit, boolean deleted) implements Request {
        /** Live files only. */
        public ListReq(long req, String prefix, String after, int limit) {
            this(req, prefix, after, limit, false);
        }
    }

    /** The manifest of {@code name}: its newest version when {@code version} is empty, else that version's. */
    record StatReq(long req, String name, String version) implements Request {
        public StatReq(long req, String name) {
            this(req, name, "");
        }
    }

    /** Every version of {@code name} the node keeps, tombstones included. */
    record VersionsReq(long req, String name) implements Request {}

    /**
     * Purges version {@code version} ({@code clock@region}) of {@code name}: the version is taken out
     * of the name's history in every region (a stub replaces it, see Manifest#purgedAt) and its blocks
     * are left to the block collector. Answered Committed (the version) or Failed NOT_FOUND.
     */
    record PurgeReq(long req, String name, String version) implements Request {}

    /** Delete {@code name}: a tombstone version carrying {@code meta}, only if the live version meets {@code condition}. */
    record DeleteReq(long req, String name, WriteCondition condition, Map<String, String> meta) implements Request {
        public DeleteReq {
            Objects.requireNonNull(condition, "condition");
            meta = Map.copyOf(meta);
        }

        public DeleteReq(long req, String name) {
            this(req, name, WriteCondition.NONE, Map.of());
        }
    }

    record StatusReq(long req) implements Request, Control {}

    /** The node's placement policies ({@code client policies}); answered by {@link PoliciesReply}. */
    record PoliciesReq(long req) implements Request {}

    /**
     * The node still works on request {@code req}: it has waited {@code waitedMillis} in the admission
     * queue for transfer memory (an upload not yet admitted, or a running transfer whose next block
     * finds none). Sent every 2 s while it waits, so the client hears from its
     * node and does not take the wait for silence; the request goes on, or is refused, later.
     */
    record Waiting(long req, long waitedMillis) implements Reply, Control {}

    /** Blocks covering bytes {@code 0..durableBytes} are durable on every replica the policy wants (for a move: block bytes copied so far). */
    record PutProgress(long req, long durableBytes) implements Reply, Control {}

    /**
     * Stored bytes of a download at {@code offset} of its stored stream. {@code data} may be a pooled
     * buffer (a block the node read for this, or the frame it arrived in): the message owns it, and
     * whoever consumes the message releases it (see {@link geoblocks.net.Bytes}).
     */
    record GetData(long req, long offset, Bytes data) implements Reply {
        public GetData(long req, long offset, byte[] data) {
            this(req, offset, Bytes.wrap(data));
        }
    }

    /** One replica copy still owed: block {@code block} to region {@code region}. */
    record PendingCopy(int block, String region) {}

    /**
     * Sent before the manifest parts of a stat: the copies the node's replication queue still owes
     * for the file ({@code known}: this node coordinated the upload, so its queue is the authority;
     * otherwise the list is empty and says nothing). Long lists come in several messages. A control
     * message like the {@link ManifestPart}s that follow it: on the bulk lane the manifest overtook it
     * and the client finished the stat without the owed copies.
     */
    record StatPending(long req, boolean known, List<PendingCopy> copies) implements Reply, Control {}

    /**
     * One version as {@code versions} lists it: size, where and when it was uploaded, and its
     * clock (hybrid logical clock value and the region whose clock stamped it), location epoch,
     * whether it is a tombstone (a delete), and its metadata (at most Manifest.MAX_META_BYTES).
     */
    record VersionEntry(long clock, String clockRegion, long size, String uploadedAt, long createdMillis,
            long locEpoch, boolean deleted, Map<String, String> meta) {
        public VersionEntry {
            meta = Map.copyOf(meta);
        }

        /** Without metadata. */
        public VersionEntry(long clock, String clockRegion, long size, String uploadedAt, long createdMillis,
                long locEpoch, boolean deleted) {
            this(clock, clockRegion, size, uploadedAt, createdMillis, locEpoch, deleted, Map.of());
        }

        /** The version's id, as {@code get --version} takes it (see core.Version). */
        public String id() {
            return String.format("%016x@%s", clock, clockRegion);
        }
    }

    /** Versions of a name, newest first; long lists come in several messages, the last with {@code more} false. */
    record VersionList(long req, List<VersionEntry> versions, boolean more) implements Reply {}

    /** A put or delete that made version {@code version} (its id); {@code info} says what else happened. */
    record Committed(long req, String version, String info) implements Reply {
        public Committed {
            info = FileOp.clip(info);
        }
    }

    record ListEntry(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis,
            Map<String, String> meta) {
        public ListEntry(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis) {
            this(name, size, blockSize, policy, uploadedAt, createdMillis, Map.of());
        }
    }

    /**
     * A page of a listing, names ascending; {@code more}: the node may hold more names under the
     * prefix after the last entry (ask again with it as {@code after}). An empty page with
     * {@code more} never comes: a page holds at least one entry when more follow.
     */
    record ListPart(long req, List<ListEntry> entries, boolean more) implements Reply {}

    /** One peer as the coordinator sees it: RTT in ms, or negative when down. */
    record PeerRtt(String region, double rttMs) {}

    /**
     * The node's region, its view of each peer, how much network input it refused, what its
     * scrubber found (blocks verified, replicas repaired, replicas it could not repair), block bytes
     * per transport, and its background (LEDBAT) sending state.
     */
    record StatusReply(long req, String region, List<PeerRtt> peers, long malformed, long unauthenticated,
            long scrubbed, long repaired, long unrepairable, Transfers transfers, Background background, Gc gc,
            Versions versions) implements Reply {
        /** Without what the members run (null: a node of file protocol 4 or older sends none). */
        public StatusReply(long req, String region, List<PeerRtt> peers, long malformed, long unauthenticated,
                long scrubbed, long repaired, long unrepairable, Transfers transfers, Background background, Gc gc) {
            this(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable, transfers, background,
                    gc, null);
        }

        /** The same reply without what the members run (as written to a peer of file protocol 4 or older). */
        public StatusReply withoutVersions() {
            return new StatusReply(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable,
                    transfers, background, gc, null);
        }

        /** A reply without block collection figures ({@link Gc#NONE}). */
        public StatusReply(long req, String region, List<PeerRtt> peers, long malformed, long unauthenticated,
                long scrubbed, long repaired, long unrepairable, Transfers transfers, Background background) {
            this(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable, transfers, background,
                    Gc.NONE);
        }
    }

    /**
     * What the members of the answering node's cluster run (file protocol 5 on): its own {@code build}
     * ("0.3.0 (commit 1a2b3c4d5e6f)"), the cluster's version ("0.2"), whether {@code cluster finalize} could
     * raise it now ({@code finalizeNote}: "every member runs 0.3 or later: ..." or what holds it back; empty when
     * there is nothing to raise), and each member's build as its handshake named it, with the file protocol
     * version agreed with it (members not connected now are left out).
     */
    record Versions(String build, String clusterVersion, String finalizeNote, List<MemberBuild> members) {
        public Versions {
            build = FileOp.clip(build);
            clusterVersion = FileOp.clip(clusterVersion);
            finalizeNote = FileOp.clip(finalizeNote);
            members = List.copyOf(members);
        }
    }

    /** One member's build ("0.2.x" for one that named none) and the file protocol version agreed with it (-1: none). */
    record MemberBuild(String region, String build, int fileProtocol) {}

    /**
     * The block collector of a node: blocks and data bytes it collected over its life (kept in its
     * metadata engine), sweep passes finished since it started, whether one is running, and for the
     * running pass (else the last) the blocks older than the grace it checked, collected, and kept
     * because their file is in flight; when the last pass ended (epoch ms, -1: none yet); since when
     * every peer has been up ({@code settledSinceMillis}, epoch ms; -1: a peer is down, nothing is
     * collected); and the moves this node coordinates (kept in its engine until they end).
     */
    record Gc(long collectedBlocks, long collectedBytes, long passes, boolean running, long passChecked,
            long passCollected, long passInFlight, long lastPassEndMillis, long settledSinceMillis, int moves) {
        public static final Gc NONE = new Gc(0, 0, 0, false, 0, 0, 0, -1, -1, 0);
    }

    /** One placement policy of a node: name, kind (seed, built-in, declarative, custom), copies and rules. */
    record PolicyInfo(String name, String kind, int copies, String rules) {
        public PolicyInfo {
            rules = FileOp.clip(rules);
        }
    }

    /** Every placement policy the node knows, in the order it lists them. */
    record PoliciesReply(long req, String region, List<PolicyInfo> policies) implements Reply {}

    /** Node-to-node block bytes sent and received per transport (see {@code TransferCounters}). */
    record Transfers(long tcpSent, long tcpReceived, long ledbatSent, long ledbatReceived, long tcpBackgroundSent,
            long tcpBackgroundReceived) {
        /** Background block bytes sent: every LEDBAT byte plus background copies forced over TCP. */
        public long backgroundSent() {
            return ledbatSent + tcpBackgroundSent;
        }

        public long backgroundReceived() {
            return ledbatReceived + tcpBackgroundReceived;
        }

        /** Foreground block bytes sent: TCP block data a client waits for (reads, --ack all replicas). */
        public long foregroundSent() {
            return tcpSent - tcpBackgroundSent;
        }

        public long foregroundReceived() {
            return tcpReceived - tcpBackgroundReceived;
        }
    }

    /**
     * Background sending: {@code queuedBytes} of background blocks this node still has to get
     * acknowledged (pushes offered, opening or on their LEDBAT stream, minus what the peer
     * acknowledged), {@code queuedCopies} replica copies its replication queue still owes (waiting or
     * under way), and the LEDBAT flow to each peer region it sent to recently.
     */
    record Background(long queuedBytes, int queuedCopies, List<LedbatPeer> peers) {}

    /**
     * The LEDBAT flow to one peer region: all background streams to it share this one flow and its
     * controller. {@code active}: a flow is running now (else the figures of delay are the last
     * flow's); sizes in bytes; delays in ms, NaN when not measured yet; the base delay is the
     * one-way delay as measured (it contains the two hosts' clock offset, so it can even be
     * negative); retransmissions are packets sent again, in total; {@code pathMtuBytes} is the path MTU
     * LEDBAT's search confirmed to the peer, in UDP payload bytes (0: not known, e.g. from an older node);
     * {@code stalledForMs}: how long the flow has had bytes waiting and next to none acknowledged (0: it is
     * not stalled, or an older node that does not watch; see FlowStallWatch).
     */
    record LedbatPeer(String region, boolean active, int streams, long cwndBytes, long queuedBytes,
            long inFlightBytes, double queuingDelayMs, double baseDelayMs, double rttMs, long retransmissions,
            int pathMtuBytes, long stalledForMs) {
        /** Without a path MTU (0: not known). */
        public LedbatPeer(String region, boolean active, int streams, long cwndBytes, long queuedBytes,
                long inFlightBytes, double queuingDelayMs, double baseDelayMs, double rttMs, long retransmissions) {
            this(region, active, streams, cwndBytes, queuedBytes, inFlightBytes, queuingDelayMs, baseDelayMs, rttMs,
                    retransmissions, 0);
        }

        /** Not stalled. */
        public LedbatPeer(String region, boolean active, int streams, long cwndBytes, long queuedBytes,
                long inFlightBytes, double queuingDelayMs, double baseDelayMs, double rttMs, long retransmissions,
                int pathMtuBytes) {
            this(region, active, streams, cwndBytes, queuedBytes, inFlightBytes, queuingDelayMs, baseDelayMs, rttMs,
                    retransmissions, pathMtuBytes, 0);
        }

        /** The same figures with {@code pathMtuBytes}. */
        public LedbatPeer withPathMtu(int pathMtuBytes) {
            return new LedbatPeer(region, active, streams, cwndBytes, queuedBytes, inFlightBytes, queuingDelayMs,
                    baseDelayMs, rttMs, retransmissions, pathMtuBytes, stalledForMs);
        }

        /** The same figures, stalled for {@code ms} (0: not stalled). */
        public LedbatPeer stalledFor(long ms) {
            return new LedbatPeer(region, active, streams, cwndBytes, queuedBytes, inFlightBytes, queuingDelayMs,
                    baseDelayMs, rttMs, retransmissions, pathMtuBytes, ms);
        }
    }

    /**
     * The cluster layout (client {@code cluster}): {@code action} "show", or "add" (with {@code address},
     * {@code zone}, empty for the region id, and {@code capacityBytes}), "set" (of {@code region}: its
     * {@code zone}, empty to keep it, and {@code capacityBytes}, negative to keep it), "drain" or "remove" of
     * {@code region}, {@code force} to override the waits ({@code LayoutChanges}). Answered with
     * {@link ClusterReply} or Failed. "add" may name the new node's public {@code key} (empty: none); on the
     * wire the key is a trailing field, present only when not empty, so a request without one encodes as
     * before it existed.
     */
    record ClusterReq(long req, String action, String region, String address, String zone, long capacityBytes,
            boolean force, String key) implements Request {
        public ClusterReq(long req, String action, String region, String address, String zone, long capacityBytes,
                boolean force) {
            this(req, action, region, address, zone, capacityBytes, force, "");
        }
    }

    /**
     * What a node reported about one region: the layout version it last reported, its live replicas and
     * bytes; while it drains, the kept versions with a copy there (-1: not draining, or not counted yet);
     * the bytes it is short of its share of spread copies (0: none; see RebalancePlan).
     */
    record RegionReport(String region, long reportedVersion, long replicas, long bytes, long pendingVersions,
            long shortBytes) {}

    /**
     * The node's layout after the request ({@code LayoutCodec} bytes), what it knows of each region,
     * and the warnings of a forced change.
     */
    record ClusterReply(long req, byte[] layout, List<RegionReport> regions, List<String> warnings) implements Reply {}

    /** Move a file's replicas to {@code regions} (client move); answered with progress, then Done or Failed. */
    record MoveReq(long req, String name, List<String> regions) implements Request {}

    /**
     * Download {@code name} as {@link GetBegin} does, reading blocks with strategy {@code read}
     * (first, parallel, hedged) over replicas ranked by {@code rank} (rtt, load); see
     * {@code core.read.ReadOptions}; an empty one: the node's default for it. Its fetches are
     * cancellable ({@link PeerOp.FetchPaced}).
     */
    record GetRead(long req, String name, String version, String read, String rank) implements Request {}

    /**
     * Download original bytes {@code first..last} (inclusive; {@code last} beyond the end means to
     * the end) of {@code name} as {@link GetBegin} does, but only the blocks that cover them: the
     * node sends the manifest, then those blocks whole, as stored, with {@link GetData} offsets in
     * the whole file's stored stream (the first one at the first needed block's stored offset, see
     * {@code core.read.RangePlan}); {@link GetAck}s count in the same stream. {@code read} and
     * {@code rank} as in {@link GetRead}; both empty: the node's default, as {@link GetBegin}.
     * A range that starts beyond the last byte is answered by {@link Failed}.
     */
    record GetRange(long req, String name, String version, String read, String rank, long first, long last)
            implements Request {}
}
