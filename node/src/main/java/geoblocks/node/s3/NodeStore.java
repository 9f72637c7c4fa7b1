package geoblocks.node.s3;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.SharedManifestReads;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.node.host.Bridge;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import se.sics.kompics.KompicsEvent;

/**
 * The gateway's view of its own node: each call sends one request on the ClientPort of the client
 * component the node hosts for the gateway (through its {@link Bridge}) and returns a future that
 * completes, on a Kompics thread, with the value or with a {@link StoreException} carrying the node's
 * failure code and message. Never blocks.
 */
public final class NodeStore {
    private final CompletableFuture<Bridge> bridge;
    private final AtomicLong ops = new AtomicLong();
    private final SharedManifestReads local;
    private final String region;

    /** The node's answer when it refused or failed a request: its code (see {@link S3Error#forNode}) and message. */
    public static final class StoreException extends RuntimeException {
        private final FailureCode code;

        public StoreException(FailureCode code, String message) {
            super(message, null, false, false);
            this.code = Objects.requireNonNull(code, "code");
        }

        public FailureCode code() {
            return code;
        }

        /** No such file or version, or the version is a delete. */
        public boolean notFound() {
            return code == FailureCode.NOT_FOUND;
        }

        /** A create-if-absent found the name taken. */
        public boolean exists() {
            return code == FailureCode.EXISTS;
        }

        /**
         * The name's owner refused a conditional write: its live version does not meet the
         * condition (a create if absent found it taken, or a tag did not match).
         */
        public boolean preconditionFailed() {
            return code == FailureCode.PRECONDITION_FAILED || code == FailureCode.EXISTS;
        }
    }

    public NodeStore(CompletableFuture<Bridge> bridge) {
        this(bridge, null, null);
    }

    /**
     * As above; with {@code local} (the node's {@link SharedManifestReads}, in the same process) and
     * the node's {@code region}, a stat of the newest version of an inline object that the node holds
     * durably is answered from the store at once, on the caller's thread, with what the node would
     * answer; everything else goes to the node.
     */
    public NodeStore(CompletableFuture<Bridge> bridge, SharedManifestReads local, String region) {
        this.bridge = bridge;
        this.local = local;
        this.region = region;
    }

    /** The stat of an inline newest version of {@code name} from the local store, or null when the node must answer. */
    private ClientPort.FileStat localStat(String name) {
        if (local == null) {
            return null;
        }
        Manifest m = local.live(name).orElse(null);
        if (m == null || !m.isInline()) {
            return null;
        }
        // as the node's stat: an inline version has no blocks, so no copy of it is pending anywhere
        return new ClientPort.FileStat(m, m.uploadedAt().equals(region), Map.of());
    }

    private CompletableFuture<Object> call(LongFunction<KompicsEvent> request) {
        long op = ops.incrementAndGet();
        return bridge.thenCompose(b -> b.submit(op, request.apply(op), null)).thenApply(r -> {
            if (!r.ok()) {
                throw new StoreException(r.code(), r.error());
            }
            return r.value();
        });
    }

    /** Stores {@code file} (or {@code source}) as a new version of {@code name}. */
    public CompletableFuture<ClientPort.Written> put(String name, Path file, ByteSource source, String policy, int blockSize,
            String ack, boolean ifAbsent, Map<String, String> meta) {
        return put(name, file, source, policy, blockSize, ack, ifAbsent ? WriteCondition.ABSENT : WriteCondition.NONE, meta);
    }

    /** As above, stored only if the name's live version meets {@code condition} (decided by its owner region). */
    public CompletableFuture<ClientPort.Written> put(String name, Path file, ByteSource source, String policy, int blockSize,
            String ack, WriteCondition condition, Map<String, String> meta) {
        return call(op -> new ClientPort.Put(op, file, source, name, policy, blockSize, ack, condition, meta,
                Compression.NONE)).thenApply(v -> (ClientPort.Written) v);
    }

    /** Streams version {@code version} (empty: newest) of {@code name} into {@code sink}. */
    public CompletableFuture<Manifest> get(String name, String version, ByteSink sink) {
        return get(name, version, sink, null);
    }

    /**
     * Streams the bytes {@code range} names (null: all) of version {@code version} of {@code name}
     * into {@code sink}, at their offsets in the object: the node fetches only the blocks that cover them.
     */
    public CompletableFuture<Manifest> get(String name, String version, ByteSink sink, ClientPort.Range range) {
        return call(op -> new ClientPort.Get(op, name, null, sink, version, null, range)).thenApply(v -> (Manifest) v);
    }

    /** Downloads version {@code version} of {@code name} into the file {@code out} (written whole, then renamed). */
    public CompletableFuture<Manifest> getFile(String name, String version, Path out) {
        return call(op -> new ClientPort.Get(op, name, out, null, version)).thenApply(v -> (Manifest) v);
    }

    public CompletableFuture<ClientPort.FileStat> stat(String name) {
        return stat(name, "");
    }

    /**
     * One page of the files whose names start with {@code prefix}, after {@code after} (exclusive; ""
     * for the start), in UTF-8 byte order: one seek at the node, at most {@code limit} entries (fewer
     * when the node's page bound, 1,000 entries or one frame of bytes, cuts it).
     */
    public CompletableFuture<ClientPort.Listing> listPage(String prefix, String after, int limit) {
        return listPage(prefix, after, limit, false);
    }

    /** As above; with {@code deleted} also the names whose newest version is a tombstone. */
    public CompletableFuture<ClientPort.Listing> listPage(String prefix, String after, int limit, boolean deleted) {
        return call(op -> new ClientPort.ListPage(op, prefix, after, limit, deleted)).thenApply(v -> (ClientPort.Listing) v);
    }

    public CompletableFuture<ClientPort.Written> delete(String name) {
        return delete(name, WriteCondition.NONE);
    }

    /** Deletes {@code name} only if its live version meets {@code condition} (decided by its owner region). */
    public CompletableFuture<ClientPort.Written> delete(String name, WriteCondition condition) {
        return delete(name, condition, Map.of());
    }

    /** As above, the tombstone carrying {@code meta}. */
    public CompletableFuture<ClientPort.Written> delete(String name, WriteCondition condition, Map<String, String> meta) {
        return call(op -> new ClientPort.Delete(op, name, condition, meta)).thenApply(v -> (ClientPort.Written) v);
    }

    /** Purges version {@code version} ({@code clock@region}) of {@code name} in every region (ClientPort.Purge). */
    public CompletableFuture<ClientPort.Written> purge(String name, String version) {
        return call(op -> new ClientPort.Purge(op, name, version)).thenApply(v -> (ClientPort.Written) v);
    }

    /** Every version kept of {@code name}, newest first (tombstones included). */
    @SuppressWarnings("unchecked")
    public CompletableFuture<List<ClientOp.VersionEntry>> versions(String name) {
        return call(op -> new ClientPort.Versions(op, name))
                .thenApply(v -> (List<ClientOp.VersionEntry>) v);
    }

    /** The stat of version {@code version} of {@code name} (empty: the newest). */
    public CompletableFuture<ClientPort.FileStat> stat(String name, String version) {
        ClientPort.FileStat here = version == null || version.isEmpty() ? localStat(name) : null;
        if (here != null) {
            return CompletableFuture.completedFuture(here);
        }
        return call(op -> new ClientPort.Stat(op, name, version)).thenApply(v -> (ClientPort.FileStat) v);
    }

    /** Moves the replicas of {@code name} to {@code regions} (a migration). */
    public CompletableFuture<String> move(String name, List<String> regions) {
        return call(op -> new ClientPort.Move(op, name, regions)).thenApply(v -> (String) v);
    }

    /**
     * A {@code cluster} request at this node: {@code show}, or a layout change (an admin operation: the node
     * takes it from this client only, see {@code FileOps.isAdmin}).
     */
    public CompletableFuture<ClientOp.ClusterReply> cluster(String action, String region,
            String address, String zone, long capacityBytes, boolean force, String key) {
        return call(op -> new ClientPort.Cluster(op, action, region, address, zone, capacityBytes, force, key))
                .thenApply(v -> (ClientOp.ClusterReply) v);
    }

    /** The cause a future failed with, unwrapped. */
    public static Throwable cause(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
