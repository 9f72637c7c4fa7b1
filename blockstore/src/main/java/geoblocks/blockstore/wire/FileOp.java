package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.WriteCondition;
import java.util.List;

/**
 * The operations of the file protocol, between clients and the node they talk to (the
 * coordinator) and between nodes. Records, immutable; {@code req} ties replies to requests and is
 * allocated by whoever sent the request. Data-carrying ops carry at most {@code chunk-bytes} of
 * data, which fits the network's frame (see {@link FileCodec#MAX_DATA}). Encoded by
 * {@link FileCodec}, whose table gives each op its tag; a node hands each request to the part
 * registered for its class ({@code component.OpHandlers}).
 */
public sealed interface FileOp {
    long req();

    /**
     * Control ops (manifest publication, claims, acknowledgements, flow credit, anti-entropy digests,
     * probes of a peer's state): the network sends them before the blocks it has queued to the same
     * peer ({@code NetMsg#isControl}). None of them relies on arriving after blocks sent before it:
     * a manifest is published only after the copies it names were acknowledged (or, with ack local,
     * before the queued copies are sent at all), and the others answer or steer the opposite
     * direction. Replies that end a transfer (Done, Failed, Committed) are not control: they must
     * follow the data they conclude.
     */
    sealed interface Control extends FileOp {}

    // ---- client -> coordinator
    /**
     * Start an upload of {@code size} bytes in blocks of {@code blockSize} with a placement policy;
     * {@code ack} is {@link #ACK_ALL} (done when every replica is durable) or {@link #ACK_LOCAL}
     * (done when the first copy is durable; the others follow from the coordinator's replication queue).
     * Without a {@code condition} the upload becomes the name's newest version (an overwrite); with
     * one (e.g. {@link WriteCondition#ABSENT}, {@code put --if-absent}) it becomes a version only if
     * the name's live version meets it, as decided by the name's owner region.
     */
    record PutBegin(long req, String name, long size, int blockSize, String policy, String ack, WriteCondition condition,
            java.util.Map<String, String> meta) implements FileOp {
        public PutBegin {
            java.util.Objects.requireNonNull(condition, "condition");
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy) {
            this(req, name, size, blockSize, policy, ACK_ALL, false);
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack) {
            this(req, name, size, blockSize, policy, ack, false);
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack, boolean ifAbsent) {
            this(req, name, size, blockSize, policy, ack, ifAbsent ? WriteCondition.ABSENT : WriteCondition.NONE,
                    java.util.Map.of());
        }

        public PutBegin(long req, String name, long size, int blockSize, String policy, String ack, boolean ifAbsent,
                java.util.Map<String, String> meta) {
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
            implements FileOp {
        /** A chunk of an uncompressed block. */
        public PutData(long req, int block, int offset, int blockCrc, boolean last, byte[] data) {
            this(req, block, offset, blockCrc, last, data, 0, blockCrc);
        }
    }

    /**
     * Download {@code name}: its newest version when {@code version} is empty, else that version's
     * id; blocks read as the node's {@code geoblocks.node.read} default says (first by RTT unless set).
     */
    record GetBegin(long req, String name, String version) implements FileOp {
        public GetBegin(long req, String name) {
            this(req, name, "");
        }
    }

    /** Flow control of a download: the client has consumed {@code consumed} bytes. */
    record GetAck(long req, long consumed) implements Control {}

    /**
     * One page of the live files whose names start with {@code prefix} ("" for every file), after
     * {@code after} (exclusive; "" for the start of the prefix), in UTF-8 byte order: at most
     * {@code limit} entries, fewer when the node caps it ({@link FileCodec#MAX_LIST}) or the page
     * reaches {@link FileCodec#MAX_LIST_PART_BYTES}. Answered by one {@link ListPart}. With
     * {@code deleted}, names whose newest version is a tombstone are listed too (as entries of size 0
     * without metadata), read from the names' version records instead of the listing table.
     */
    record ListReq(long req, String prefix, String after, int limit, boolean deleted) implements FileOp {
        /** Live files only. */
        public ListReq(long req, String prefix, String after, int limit) {
            this(req, prefix, after, limit, false);
        }
    }

    /** The manifest of {@code name}: its newest version when {@code version} is empty, else that version's. */
    record StatReq(long req, String name, String version) implements FileOp {
        public StatReq(long req, String name) {
            this(req, name, "");
        }
    }

    /** Every version of {@code name} the node keeps, tombstones included. */
    record VersionsReq(long req, String name) implements FileOp {}

    /** Delete {@code name}: a tombstone version carrying {@code meta}, only if the live version meets {@code condition}. */
    record DeleteReq(long req, String name, WriteCondition condition, java.util.Map<String, String> meta) implements FileOp {
        public DeleteReq {
            java.util.Objects.requireNonNull(condition, "condition");
            meta = java.util.Map.copyOf(meta);
        }

        public DeleteReq(long req, String name) {
            this(req, name, WriteCondition.NONE, java.util.Map.of());
        }
    }

    record StatusReq(long req) implements Control {}

    /** The node's placement policies ({@code client policies}); answered by {@link PoliciesReply}. */
    record PoliciesReq(long req) implements FileOp {}

    // ---- coordinator -> client
    /** Blocks covering bytes {@code 0..durableBytes} are durable on every replica the policy wants (for a move: block bytes copied so far). */
    record PutProgress(long req, long durableBytes) implements Control {}

    record GetData(long req, long offset, byte[] data) implements FileOp {}

    /** One replica copy still owed: block {@code block} to region {@code region}. */
    record PendingCopy(int block, String region) {}

    /**
     * Sent before the manifest parts of a stat: the copies the node's replication queue still owes
     * for the file ({@code known}: this node coordinated the upload, so its queue is the authority;
     * otherwise the list is empty and says nothing). Long lists come in several messages. A control
     * message like the {@link ManifestPart}s that follow it: on the bulk lane the manifest overtook it
     * and the client finished the stat without the owed copies.
     */
    record StatPending(long req, boolean known, List<PendingCopy> copies) implements Control {}

    /**
     * One version as {@code versions} lists it: size, where and when it was uploaded, and its
     * clock (hybrid logical clock value and the region whose clock stamped it), location epoch,
     * whether it is a tombstone (a delete), and its metadata (at most Manifest.MAX_META_BYTES).
     */
    record VersionEntry(long clock, String clockRegion, long size, String uploadedAt, long createdMillis,
            long locEpoch, boolean deleted, java.util.Map<String, String> meta) {
        public VersionEntry {
            meta = java.util.Map.copyOf(meta);
        }

        /** Without metadata. */
        public VersionEntry(long clock, String clockRegion, long size, String uploadedAt, long createdMillis,
                long locEpoch, boolean deleted) {
            this(clock, clockRegion, size, uploadedAt, createdMillis, locEpoch, deleted, java.util.Map.of());
        }

        /** The version's id, as {@code get --version} takes it (see core.Version). */
        public String id() {
            return String.format("%016x@%s", clock, clockRegion);
        }
    }

    /** Versions of a name, newest first; long lists come in several messages, the last with {@code more} false. */
    record VersionList(long req, List<VersionEntry> versions, boolean more) implements FileOp {}

    /** A put or delete that made version {@code version} (its id); {@code info} says what else happened. */
    record Committed(long req, String version, String info) implements FileOp {
        public Committed {
            info = clip(info);
        }
    }

    record ListEntry(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis,
            java.util.Map<String, String> meta) {
        public ListEntry(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis) {
            this(name, size, blockSize, policy, uploadedAt, createdMillis, java.util.Map.of());
        }
    }

    /**
     * A page of a listing, names ascending; {@code more}: the node may hold more names under the
     * prefix after the last entry (ask again with it as {@code after}). An empty page with
     * {@code more} never comes: a page holds at least one entry when more follow.
     */
    record ListPart(long req, List<ListEntry> entries, boolean more) implements FileOp {}

    /** One peer as the coordinator sees it: RTT in ms, or negative when down. */
    record PeerRtt(String region, double rttMs) {}

    /**
     * The node's region, its view of each peer, how much network input it refused, what its
     * scrubber found (blocks verified, replicas repaired, replicas it could not repair), block bytes
     * per transport, and its background (LEDBAT) sending state.
     */
    record StatusReply(long req, String region, List<PeerRtt> peers, long malformed, long unauthenticated,
            long scrubbed, long repaired, long unrepairable, Transfers transfers, Background background, Gc gc)
            implements FileOp {
        /** A reply without block collection figures ({@link Gc#NONE}). */
        public StatusReply(long req, String region, List<PeerRtt> peers, long malformed, long unauthenticated,
                long scrubbed, long repaired, long unrepairable, Transfers transfers, Background background) {
            this(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable, transfers, background,
                    Gc.NONE);
        }
    }

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
            rules = clip(rules);
        }
    }

    /** Every placement policy the node knows, in the order it lists them. */
    record PoliciesReply(long req, String region, List<PolicyInfo> policies) implements FileOp {}

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
     * negative); retransmissions are packets sent again, in total.
     */
    record LedbatPeer(String region, boolean active, int streams, long cwndBytes, long queuedBytes,
            long inFlightBytes, double queuingDelayMs, double baseDelayMs, double rttMs, long retransmissions) {}

    // ---- both directions
    /** Part of an encoded manifest: a reply (to stat, get or lookup) or a publication to store. */
    record ManifestPart(long req, boolean publish, int offset, int total, byte[] data) implements Control {}

    /** Success, with a human-readable note (clipped like {@link Failed#error}). */
    record Done(long req, String info) implements FileOp {
        public Done {
            info = clip(info);
        }
    }

    /**
     * Failure: its {@link FailureCode}, which callers act on, and a message for a person, which they
     * only show. Messages quote client input (names), so they are clipped to
     * {@value #MAX_TEXT_BYTES} UTF-8 bytes: every reply stays decodable.
     */
    record Failed(long req, FailureCode code, String error) implements FileOp {
        public Failed {
            java.util.Objects.requireNonNull(code, "code");
            error = clip(error);
        }
    }

    /** Longest {@link Failed}/{@link Done} text; well below the codec's string limit. */
    int MAX_TEXT_BYTES = 1024;

    /** {@code s} cut to at most {@link #MAX_TEXT_BYTES} UTF-8 bytes (at a character boundary), marked with "...". */
    static String clip(String s) {
        if (s == null) {
            return "";
        }
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (b.length <= MAX_TEXT_BYTES) {
            return s;
        }
        int end = MAX_TEXT_BYTES - 3;
        while (end > 0 && (b[end] & 0xC0) == 0x80) {
            end--; // do not split a multi-byte character
        }
        return new String(b, 0, end, java.nio.charset.StandardCharsets.UTF_8) + "...";
    }

    /**
     * The cluster layout (client {@code cluster}): {@code action} "show", or "add" (with {@code address},
     * {@code zone}, empty for the region id, and {@code capacityBytes}), "drain" or "remove" of
     * {@code region}, {@code force} to override the waits ({@code LayoutChanges}). Answered with
     * {@link ClusterReply} or Failed.
     */
    record ClusterReq(long req, String action, String region, String address, String zone, long capacityBytes,
            boolean force) implements FileOp {}

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
    record ClusterReply(long req, byte[] layout, List<RegionReport> regions, List<String> warnings) implements FileOp {}

    /** Move a file's replicas to {@code regions} (client move); answered with progress, then Done or Failed. */
    record MoveReq(long req, String name, List<String> regions) implements FileOp {}

    // ---- node -> node
    /** Bring block {@code blockId} here (a move): fetch it from any of {@code holders}, store it, answer Done. */
    record MoveCopy(long req, String blockId, int length, int crc, List<String> holders) implements FileOp {}

    /**
     * Delete these local copies of blocks of file {@code name} (it moved away), except any the
     * receiver's own manifest of the file still homes there; the manifest stays. Answered with Done.
     */
    record DropBlocks(long req, String name, List<String> blockIds) implements FileOp {}

    /**
     * Keep the blocks of these files (a move's coordinator to its targets, every quarter of its
     * block-collection grace while the move runs): their copies here are in flight, not garbage,
     * although no manifest names them here yet. No answer.
     */
    record HoldBlocks(long req, List<String> fileIds) implements Control {}

    /** Part of a block to store as a replica; the receiver verifies {@code crc} over the whole block. */
    record ReplicaData(long req, String blockId, int offset, int total, int crc, boolean background, byte[] data)
            implements FileOp {}

    record ReplicaStored(long req, String blockId) implements Control {}

    record FetchBlock(long req, String blockId) implements FileOp {}

    /**
     * Download {@code name} as {@link GetBegin} does, reading blocks with strategy {@code read}
     * (first, parallel, hedged) over replicas ranked by {@code rank} (rtt, load); see
     * {@code core.read.ReadOptions}; an empty one: the node's default for it. Its fetches are
     * cancellable ({@link FetchPaced}).
     */
    record GetRead(long req, String name, String version, String read, String rank) implements FileOp {}

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
            implements FileOp {}

    /**
     * A cancellable fetch of block {@code blockId}: the replica answers with {@link BlockData} chunks
     * as {@link FetchBlock} does, but sends them through its serve queue (core.read.ServeQueue), within
     * a window the fetching node moves with {@link FetchMore}; {@link FetchCancel} stops it.
     */
    record FetchPaced(long req, String blockId) implements FileOp {}

    /** Flow control of a {@link FetchPaced}: the fetching node has received {@code received} bytes of the block. */
    record FetchMore(long req, long received) implements Control {}

    /** The fetching node no longer wants the block of {@link FetchPaced} {@code req}: send nothing more of it. */
    record FetchCancel(long req) implements Control {}

    record BlockData(long req, int offset, int total, int crc, byte[] data) implements FileOp {}

    record LookupManifest(long req, String name) implements Control {}

    /**
     * Retired: deletes were immediate per node before versions existed; a node now answers it with
     * {@link Failed} (deletes travel as tombstone versions). Kept so an old node's request gets a
     * clear answer instead of being read as another op.
     */
    record DeleteFile(long req, String name) implements FileOp {}

    /**
     * Part of an encoded manifest (no version yet; a tombstone for a conditional delete) that the
     * coordinator of a conditional write ({@code put --if-absent}, S3's If-Match / If-None-Match)
     * asks the name's owner to create: the owner stamps and stores it if the name's live version
     * meets {@code condition} ({@link Claimed}), else refuses ({@link Failed}). Every part carries the condition.
     */
    record CreateClaim(long req, int offset, int total, byte[] data, WriteCondition condition) implements Control {
        public CreateClaim {
            java.util.Objects.requireNonNull(condition, "condition");
        }

        /** A claim of a create if absent. */
        public CreateClaim(long req, int offset, int total, byte[] data) {
            this(req, offset, total, data, WriteCondition.ABSENT);
        }
    }

    /** The owner created the claimed manifest as version ({@code clock}, {@code region}). */
    record Claimed(long req, long clock, String region) implements Control {}

    /**
     * Anti-entropy, first step: the asker's digest of every bucket of names (ManifestStore.BUCKETS
     * of them). Answered by {@link SyncLeaves}.
     */
    record SyncDigest(long req, List<Long> buckets) implements Control {}

    /**
     * node -> node: the sender's cluster layout version and digest, with the whole layout
     * ({@code LayoutCodec} bytes) when the receiver is known to be behind, else empty (see
     * {@code LayoutGossip}). Sent when an anti-entropy exchange starts and after an applied change.
     */
    record LayoutSync(long req, long version, long digest, byte[] layout) implements Control {}

    /** One bucket's leaf digests: ManifestStore.LEAVES of them, leaf 0 first. */
    record BucketLeaves(int bucket, List<Long> leaves) {}

    /**
     * Anti-entropy answer to {@link SyncDigest}: for every bucket whose digest differs from the
     * asker's, the answerer's digest of each of its leaves; over several messages (paged by bytes),
     * the last with {@code more} false. No buckets at all: the two nodes hold the same names.
     */
    record SyncLeaves(long req, List<BucketLeaves> buckets, boolean more) implements Control {}

    /**
     * Anti-entropy, second step: asks for the answerer's name digests in {@code leaves} (each
     * bucket * ManifestStore.LEAVES + leaf-in-bucket, the leaves whose digests differ). Answered
     * by {@link SyncNames}.
     */
    record SyncNamesReq(long req, List<Integer> leaves) implements Control {}

    /** One name's history digest. */
    record NameDigest(String name, long digest) {}

    /**
     * Anti-entropy answer to {@link SyncNamesReq}: every name the answerer keeps in the asked
     * leaves with its digest, in name order, over several messages (paged by bytes: names run to
     * 1,088 bytes), the last with {@code more} false.
     */
    record SyncNames(long req, List<NameDigest> names, boolean more) implements Control {}

    // ---- node -> node, background transfers over LEDBAT
    /**
     * Asks the receiver of the request to push block {@code blockId} ({@code length} bytes, CRC32C
     * {@code crc}) to the asker on a background (LEDBAT) stream. Answered by {@link Failed} if it
     * cannot; success is the block arriving (then the asker confirms with {@link BackgroundStored}).
     */
    record BackgroundFetch(long req, String blockId, int length, int crc) implements FileOp {}

    /** Announces a background push of {@code blockId}: the receiver expects it and answers {@link Done}. */
    record BackgroundOffer(long req, String blockId, int length, int crc) implements FileOp {}

    /**
     * The receiver of a background stream stored its block durably ({@code ok}) or refused it
     * ({@code error}); {@code req} is the one in the stream's header.
     */
    record BackgroundStored(long req, String blockId, boolean ok, String error) implements Control {
        public BackgroundStored {
            error = clip(error);
        }
    }

    // ---- bench net: client -> node, node -> node (docs/benchmarks.md)
    /**
     * Client to node: measure the network from this node to region {@code to}, iperf3-style, in
     * {@code mode} tcp (send {@code bytes} over {@code streams} windowed message streams on the
     * node-to-node connection), udp (offer {@code rateBps} per stream of {@code payload}-byte
     * datagrams for {@code durationMs}) or ledbat ({@code bytes} over {@code streams} LEDBAT
     * streams). Answered by {@link NetBenchResult} or {@link Failed}.
     */
    record NetBenchReq(long req, String to, String mode, int streams, long bytes, long rateBps, int durationMs,
            int payload) implements FileOp {}

    /** Node to peer: a bench test {@code test} in {@code mode} starts; the peer counts it and answers {@link Done}. */
    record NetBenchOpen(long req, long test, String mode) implements FileOp {}

    /** Node to peer, over TCP or UDP: bench bytes of stream {@code stream}, sent at the sender's {@code sentNanos}. */
    record NetBenchData(long req, long test, int stream, long seq, long sentNanos, byte[] data) implements FileOp {}

    /** Peer to node: {@code bytes} of the TCP bench stream {@code stream} have arrived (cumulative). */
    record NetBenchAck(long req, long test, int stream, long bytes) implements Control {}

    /** Node to peer: the test ended; answered by {@link NetBenchReport}. */
    record NetBenchEnd(long req, long test) implements FileOp {}

    /**
     * Peer to node: what arrived of a test: datagrams/messages, bytes, RFC 3550 interarrival
     * jitter (nanoseconds) and the span from the first to the last arrival.
     */
    record NetBenchReport(long req, long packets, long bytes, long jitterNanos, long spanNanos) implements FileOp {}

    /**
     * Node to client: one test's figures: what was sent (bytes, packets) and received, over
     * {@code nanos} (tcp and ledbat: from the start to the last byte acknowledged; udp: the
     * sending time), and the receiver's jitter.
     */
    record NetBenchResult(long req, String mode, int streams, long offeredBps, long sentBytes, long sentPackets,
            long receivedBytes, long receivedPackets, long nanos, long jitterNanos) implements FileOp {}
}
