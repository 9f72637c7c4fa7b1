package geoblocks.blockstore.client;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.BenchOp;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.core.read.ReadOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * What a client can ask of the node it talks to. Every request carries an {@code op} id chosen by
 * the caller; exactly one {@link Result} answers it, after any number of {@link Progress} events.
 */
public final class ClientPort extends PortType {
    {
        request(Put.class);
        request(Get.class);
        request(ListFiles.class);
        request(ListPage.class);
        request(Stat.class);
        request(Delete.class);
        request(Purge.class);
        request(Status.class);
        request(Move.class);
        request(Policies.class);
        request(Cluster.class);
        request(NetBench.class);
        request(Versions.class);
        indication(Progress.class);
        indication(Result.class);
    }

    /** A request to the node: its operation id, and the same request under another id (a retry is a new operation). */
    public sealed interface Request extends KompicsEvent {
        long op();

        Request withOp(long op);
    }

    /**
     * Upload {@code file} (or, when {@code source} is set, its bytes) as {@code name}: a new version
     * of it, or with a {@code condition} only if the name's live version meets it (decided by its
     * owner region: {@link WriteCondition#ABSENT} is {@code put --if-absent}), with {@code meta} attached to the version (see Manifest); the result's value is a
     * {@link Written}. Each block is stored as {@code compress} decides ({@link Compression});
     * downloads decompress it.
     */
    public record Put(long op, Path file, ByteSource source, String name, String policy, int blockSize, String ack,
            WriteCondition condition, Map<String, String> meta, Compression compress) implements Request {
        public Put {
            Objects.requireNonNull(condition, "condition");
            Objects.requireNonNull(meta, "meta");
            Objects.requireNonNull(compress, "compress");
        }

        /** With {@code ifAbsent}: {@link WriteCondition#ABSENT}, else unconditional. */
        public Put(long op, Path file, ByteSource source, String name, String policy, int blockSize, String ack,
                boolean ifAbsent, Map<String, String> meta, Compression compress) {
            this(op, file, source, name, policy, blockSize, ack, ifAbsent ? WriteCondition.ABSENT : WriteCondition.NONE,
                    meta, compress);
        }

        /** Exactly a create if absent. */
        public boolean ifAbsent() {
            return condition.absentOnly();
        }

        /** Without metadata. */
        public Put(long op, Path file, ByteSource source, String name, String policy, int blockSize, String ack,
                boolean ifAbsent, Compression compress) {
            this(op, file, source, name, policy, blockSize, ack, ifAbsent, Map.of(), compress);
        }

        /** Uncompressed. */
        public Put(long op, Path file, ByteSource source, String name, String policy, int blockSize, String ack,
                boolean ifAbsent, Map<String, String> meta) {
            this(op, file, source, name, policy, blockSize, ack, ifAbsent, meta, Compression.NONE);
        }

        /** Uncompressed, without metadata. */
        public Put(long op, Path file, ByteSource source, String name, String policy, int blockSize, String ack,
                boolean ifAbsent) {
            this(op, file, source, name, policy, blockSize, ack, ifAbsent, Map.of(), Compression.NONE);
        }

        public Put(long op, Path file, String name, String policy, int blockSize) {
            this(op, file, null, name, policy, blockSize, "all", false);
        }

        public Put(long op, Path file, ByteSource source, String name, String policy, int blockSize) {
            this(op, file, source, name, policy, blockSize, "all", false);
        }

        @Override
        public Put withOp(long op) {
            return new Put(op, file, source, name, policy, blockSize, ack, condition, meta, compress);
        }
    }

    /**
     * Download {@code name} (its newest version, or {@code version} when not empty) into {@code out}
     * (written to a temp file, renamed when verified) or, when {@code sink} is set, into the sink as
     * it streams; value: the Manifest. With {@code read} set, the node fetches the blocks with that
     * read strategy and replica rank ({@code GetRead}); null: nearest replica first ({@code GetBegin}).
     * With {@code range} set, only its bytes are read ({@code GetRange}): the node fetches and sends
     * just the blocks that cover them, the client checks each block whole and keeps the range's
     * bytes; {@code out} then holds only the range, and the sink gets only the range's bytes, at
     * their offsets in the file.
     */
    public record Get(long op, String name, Path out, ByteSink sink, String version, ReadOptions read, Range range)
            implements Request {
        public Get(long op, String name, Path out, ByteSink sink, String version, ReadOptions read) {
            this(op, name, out, sink, version, read, null);
        }

        public Get(long op, String name, Path out) {
            this(op, name, out, null, "");
        }

        public Get(long op, String name, Path out, ByteSink sink) {
            this(op, name, out, sink, "");
        }

        public Get(long op, String name, Path out, ByteSink sink, String version) {
            this(op, name, out, sink, version, null);
        }

        @Override
        public Get withOp(long op) {
            return new Get(op, name, out, sink, version, read, range);
        }
    }

    /** Original bytes {@code first..last} of a file, inclusive; a {@code last} beyond the end means to the end. */
    public record Range(long first, long last) {
        public Range {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("byte range " + first + "-" + last + " needs 0 <= first <= last");
            }
        }
    }

    /** What a put or delete made: the version's id and the node's note. */
    public record Written(String version, String info) {}

    /** Every version kept of {@code name}, newest first; value: a List of ClientOp.VersionEntry. */
    public record Versions(long op, String name) implements Request {
        @Override
        public Versions withOp(long op) {
            return new Versions(op, name);
        }
    }

    /**
     * One page of the files whose names start with {@code prefix} ("" for all), after {@code after}
     * (exclusive; "" for the start), in UTF-8 byte order, served by one seek at the node: at most
     * {@code limit} entries (the node may send fewer: it caps a page at 1,000 entries and at a size
     * that fits one network frame). With {@code deleted}, names whose newest version is a tombstone
     * are listed too (size 0, no metadata). Value: a {@link Listing}.
     */
    public record ListPage(long op, String prefix, String after, int limit, boolean deleted) implements Request {
        public ListPage {
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(after, "after");
        }

        /** Live files only. */
        public ListPage(long op, String prefix, String after, int limit) {
            this(op, prefix, after, limit, false);
        }

        @Override
        public ListPage withOp(long op) {
            return new ListPage(op, prefix, after, limit, deleted);
        }
    }

    /**
     * A page of a listing: entries (ClientOp.ListEntry) ascending by name, and whether the node holds
     * more names under the prefix after the last one (then the page is not empty: ask again with
     * its last name as {@code after}).
     */
    public record Listing(List<ClientOp.ListEntry> entries, boolean more) {
        public Listing {
            entries = List.copyOf(entries);
        }

        /** The last entry's name, or null when the page is empty. */
        public String last() {
            return entries.isEmpty() ? null : entries.get(entries.size() - 1).name();
        }
    }

    /** List every file (page after page); value: a List of ClientOp.ListEntry. */
    public record ListFiles(long op) implements Request {
        @Override
        public ListFiles withOp(long op) {
            return new ListFiles(op);
        }
    }

    /** Value: the {@link FileStat} of the file's newest version, or of {@code version} when not empty. */
    public record Stat(long op, String name, String version) implements Request {
        public Stat(long op, String name) {
            this(op, name, "");
        }

        @Override
        public Stat withOp(long op) {
            return new Stat(op, name, version);
        }
    }

    /**
     * A file's manifest and, when {@code pendingKnown} (the node that was asked coordinated its upload), the
     * regions per block index that its replication queue has still to copy the block to.
     */
    public record FileStat(Manifest manifest, boolean pendingKnown,
            Map<Integer, List<String>> pending) {

        /** Regions still owed a copy of block {@code i} (empty when none, or not known here). */
        public List<String> pending(int i) {
            return pending.getOrDefault(i, List.of());
        }

        /** Regions with a durable copy of block {@code i}: the manifest's regions minus the pending ones. */
        public List<String> held(int i) {
            List<String> held = new ArrayList<>(manifest.blocks().get(i).replicas());
            held.removeAll(pending(i));
            return held;
        }
    }

    /**
     * Deletes the name (a tombstone version); value: a {@link Written}. With a {@code condition} the
     * name's owner region decides whether its live version meets it (a compare-and-swap delete).
     * The tombstone carries {@code meta} (at most Manifest.MAX_META_BYTES). A name without a live
     * version is NOT_FOUND, unless {@code meta} marks the tombstone kept (Manifest.META_KEEP): then it
     * is stored all the same, and kept as the name's only version until purged.
     */
    public record Delete(long op, String name, WriteCondition condition, Map<String, String> meta)
            implements Request {
        public Delete {
            Objects.requireNonNull(condition, "condition");
            Objects.requireNonNull(meta, "meta");
        }

        public Delete(long op, String name) {
            this(op, name, WriteCondition.NONE, Map.of());
        }

        public Delete(long op, String name, WriteCondition condition) {
            this(op, name, condition, Map.of());
        }

        @Override
        public Delete withOp(long op) {
            return new Delete(op, name, condition, meta);
        }
    }

    /**
     * Purges version {@code version} ({@code clock@region}) of {@code name} in every region: it is no
     * longer listed or served, and when it was the newest the version below it serves again; its
     * blocks go to the block collector. Value: a {@link Written} naming the version; NOT_FOUND when
     * the name has no such version.
     */
    public record Purge(long op, String name, String version) implements Request {
        public Purge {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
        }

        @Override
        public Purge withOp(long op) {
            return new Purge(op, name, version);
        }
    }

    /**
     * Move the file's replicas to {@code regions}; progress reports the block bytes copied so far
     * ({@code total} -1: the node does not announce it). Value: what the node did.
     */
    public record Move(long op, String name, List<String> regions) implements Request {
        @Override
        public Move withOp(long op) {
            return new Move(op, name, regions);
        }
    }

    /** Value: the node's ClientOp.StatusReply (its region and RTT to each peer). */
    public record Status(long op) implements Request {
        @Override
        public Status withOp(long op) {
            return new Status(op);
        }
    }

    /**
     * The cluster layout: {@code action} "show", or "add" ({@code address}, {@code zone}: empty for the
     * region id, {@code capacityBytes}), "drain" or "remove" of {@code region}; {@code force} overrides
     * the waits. Value: the node's ClientOp.ClusterReply.
     */
    public record Cluster(long op, String action, String region, String address, String zone, long capacityBytes,
            boolean force, String key) implements Request {
        /** Without a node key (see ClientOp.ClusterReq). */
        public Cluster(long op, String action, String region, String address, String zone, long capacityBytes,
                boolean force) {
            this(op, action, region, address, zone, capacityBytes, force, "");
        }

        @Override
        public Cluster withOp(long op) {
            return new Cluster(op, action, region, address, zone, capacityBytes, force, key);
        }
    }

    /** Value: the node's ClientOp.PoliciesReply (every placement policy it knows, with its rules). */
    public record Policies(long op) implements Request {
        @Override
        public Policies withOp(long op) {
            return new Policies(op);
        }
    }

    /**
     * Ask the node to measure its network to region {@code to} (bench net; the fields as in
     * BenchOp.NetBenchReq); value: the node's BenchOp.NetBenchResult.
     */
    public record NetBench(long op, String to, String mode, int streams, long bytes, long rateBps, int durationMs,
            int payload) implements Request {
        @Override
        public NetBench withOp(long op) {
            return new NetBench(op, to, mode, streams, bytes, rateBps, durationMs, payload);
        }
    }

    public record Progress(long op, long bytes, long total) implements KompicsEvent {}

    /**
     * {@code failure} is null on success; then {@code value} holds the answer described per request.
     * Callers act on {@link #code()}; {@link #error()} is the text for people.
     */
    public record Result(long op, Failure failure, Object value) implements KompicsEvent {
        public boolean ok() {
            return failure == null;
        }

        /** What failed, for people; null on success. */
        public String error() {
            return failure == null ? null : failure.text();
        }

        /** The kind of failure; null on success. */
        public FailureCode code() {
            return failure == null ? null : failure.code();
        }
    }
}
