package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.WriteCondition;
import java.util.List;
import java.util.Objects;

/**
 * The node-to-node family of the file protocol: replicas and fetches of blocks, manifest lookups
 * and claims, moves, anti-entropy and layout gossip, and background (LEDBAT) transfers, besides
 * the {@linkplain FileOp.Shared shared} replies. A {@link Request} is taken only from a cluster
 * member (anyone else is answered Failed INVALID); a {@link Reply} goes to the request waiting for
 * it. Encoded by {@link PeerCodec}.
 */
public sealed interface PeerOp extends FileOp {
    /** A request only a cluster member may send. */
    sealed interface Request extends PeerOp, FileOp.Handled {
        @Override
        default Kind kind() {
            return Kind.PEER_REQUEST;
        }
    }

    /** A node's answer to a peer's request. */
    sealed interface Reply extends PeerOp {
        @Override
        default Kind kind() {
            return Kind.REPLY;
        }
    }

    /** Bring block {@code blockId} here (a move): fetch it from any of {@code holders}, store it, answer Done. */
    record MoveCopy(long req, String blockId, int length, int crc, List<String> holders) implements Request {}

    /**
     * Delete these local copies of blocks of file {@code name} (it moved away), except any the
     * receiver's own manifest of the file still homes there; the manifest stays. Answered with Done.
     */
    record DropBlocks(long req, String name, List<String> blockIds) implements Request {}

    /**
     * Keep the blocks of these files (a move's coordinator to its targets, every quarter of its
     * block-collection grace while the move runs): their copies here are in flight, not garbage,
     * although no manifest names them here yet. No answer.
     */
    record HoldBlocks(long req, List<String> fileIds) implements Request, Control {}

    /** Part of a block to store as a replica; the receiver verifies {@code crc} over the whole block. */
    record ReplicaData(long req, String blockId, int offset, int total, int crc, boolean background, byte[] data)
            implements Request {}

    record ReplicaStored(long req, String blockId) implements Reply, Control {}

    record FetchBlock(long req, String blockId) implements Request {}

    /**
     * A cancellable fetch of block {@code blockId}: the replica answers with {@link BlockData} chunks
     * as {@link FetchBlock} does, but sends them through its serve queue (core.read.ServeQueue), within
     * a window the fetching node moves with {@link FetchMore}; {@link FetchCancel} stops it.
     */
    record FetchPaced(long req, String blockId) implements Request {}

    /** Flow control of a {@link FetchPaced}: the fetching node has received {@code received} bytes of the block. */
    record FetchMore(long req, long received) implements Request, Control {}

    /** The fetching node no longer wants the block of {@link FetchPaced} {@code req}: send nothing more of it. */
    record FetchCancel(long req) implements Request, Control {}

    record BlockData(long req, int offset, int total, int crc, byte[] data) implements Reply {}

    record LookupManifest(long req, String name) implements Request, Control {}

    /**
     * Retired: deletes were immediate per node before versions existed; a node now answers it with
     * {@link Failed} (deletes travel as tombstone versions). Kept so an old node's request gets a
     * clear answer instead of being read as another op.
     */
    record DeleteFile(long req, String name) implements Request {}

    /**
     * Part of an encoded manifest (no version yet; a tombstone for a conditional delete) that the
     * coordinator of a conditional write ({@code put --if-absent}, S3's If-Match / If-None-Match)
     * asks the name's owner to create: the owner stamps and stores it if the name's live version
     * meets {@code condition} ({@link Claimed}), else refuses ({@link Failed}). Every part carries the condition.
     */
    record CreateClaim(long req, int offset, int total, byte[] data, WriteCondition condition) implements Request, Control {
        public CreateClaim {
            Objects.requireNonNull(condition, "condition");
        }

        /** A claim of a create if absent. */
        public CreateClaim(long req, int offset, int total, byte[] data) {
            this(req, offset, total, data, WriteCondition.ABSENT);
        }
    }

    /** The owner created the claimed manifest as version ({@code clock}, {@code region}). */
    record Claimed(long req, long clock, String region) implements Reply, Control {}

    /**
     * Anti-entropy, first step: the asker's digest of every bucket of names (ManifestStore.BUCKETS
     * of them). Answered by {@link SyncLeaves}.
     */
    record SyncDigest(long req, List<Long> buckets) implements Request, Control {}

    /**
     * node -> node: the sender's cluster layout version and digest, with the whole layout
     * ({@code LayoutCodec} bytes) when the receiver is known to be behind, else empty (see
     * {@code LayoutGossip}). Sent when an anti-entropy exchange starts and after an applied change.
     */
    record LayoutSync(long req, long version, long digest, byte[] layout) implements Request, Control {}

    /** One bucket's leaf digests: ManifestStore.LEAVES of them, leaf 0 first. */
    record BucketLeaves(int bucket, List<Long> leaves) {}

    /**
     * Anti-entropy answer to {@link SyncDigest}: for every bucket whose digest differs from the
     * asker's, the answerer's digest of each of its leaves; over several messages (paged by bytes),
     * the last with {@code more} false. No buckets at all: the two nodes hold the same names.
     */
    record SyncLeaves(long req, List<BucketLeaves> buckets, boolean more) implements Reply, Control {}

    /**
     * Anti-entropy, second step: asks for the answerer's name digests in {@code leaves} (each
     * bucket * ManifestStore.LEAVES + leaf-in-bucket, the leaves whose digests differ). Answered
     * by {@link SyncNames}.
     */
    record SyncNamesReq(long req, List<Integer> leaves) implements Request, Control {}

    /** One name's history digest. */
    record NameDigest(String name, long digest) {}

    /**
     * Anti-entropy answer to {@link SyncNamesReq}: every name the answerer keeps in the asked
     * leaves with its digest, in name order, over several messages (paged by bytes: names run to
     * 1,088 bytes), the last with {@code more} false.
     */
    record SyncNames(long req, List<NameDigest> names, boolean more) implements Reply, Control {}

    /**
     * Asks the receiver of the request to push block {@code blockId} ({@code length} bytes, CRC32C
     * {@code crc}) to the asker on a background (LEDBAT) stream. Answered by {@link Failed} if it
     * cannot; success is the block arriving (then the asker confirms with {@link BackgroundStored}).
     */
    record BackgroundFetch(long req, String blockId, int length, int crc) implements Request {}

    /** Announces a background push of {@code blockId}: the receiver expects it and answers {@link Done}. */
    record BackgroundOffer(long req, String blockId, int length, int crc) implements Request {}

    /**
     * The receiver of a background stream stored its block durably ({@code ok}) or refused it
     * ({@code error}); {@code req} is the one in the stream's header.
     */
    record BackgroundStored(long req, String blockId, boolean ok, String error) implements Reply, Control {
        public BackgroundStored {
            error = FileOp.clip(error);
        }
    }
}
