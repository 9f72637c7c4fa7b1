package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.DownloadWindow;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.read.RangePlan;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.core.read.ReplicaFailures;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.ClientOp.GetAck;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.ClientOp.GetRange;
import geoblocks.blockstore.wire.ClientOp.GetRead;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Downloads served by this node: finds the manifest (locally or from a peer), sends it to the
 * client, then fetches blocks in parallel, each from the up replica with the lowest RTT (this node
 * first), falling back to the next replica on error, timeout or checksum mismatch, and streams them
 * to the client in order within a window the client acknowledges. A download begun with
 * {@link GetRead} fetches each block by its read strategy and replica rank instead ({@link PlannedFetch}),
 * and so does one that names neither when the node's {@code geoblocks.node.read} default is other
 * than {@code first}/{@code rtt} ({@link ReadOptions#resolve}). A block whose every replica
 * failed is tried once more at the homes this node's copy of the same version names now, if it
 * moved meanwhile ({@code client move} deletes old copies only after the moved manifest, the same
 * version at a higher location epoch, is published). A download begun with {@link GetRange} fetches
 * and sends only the blocks that cover its byte range ({@link RangePlan}). An inline version
 * ({@link Manifest#isInline}) is answered with its manifest alone, which carries the bytes (checked
 * against their CRC32C here before they go): no block is fetched.
 */
final class Downloads {
    private final Node node;
    private final Map<Key, Download> active = new HashMap<>();

    private record Key(NetAddress client, long req) {}

    Downloads(Node node) {
        this.node = node;
    }

    /** A download that names no read strategy or rank: read as this node's {@code geoblocks.node.read} says. */
    void onBegin(NetAddress client, GetBegin g) {
        begin(client, g, ReadOptions.resolve("", "", node.settings().readDefault()), RangePlan::whole);
    }

    /** A download of a byte range: only the blocks covering it (read as {@link #onRead}). */
    void onRange(NetAddress client, GetRange g) {
        begin(client, g.read(), g.rank(), new GetBegin(g.req(), g.name(), g.version()),
                m -> RangePlan.of(m, g.first(), g.last()));
    }

    /**
     * A download with a read strategy and replica rank: its blocks are fetched by {@link PlannedFetch}
     * (either one empty: the node's default for it, see {@link ReadOptions#resolve}).
     */
    void onRead(NetAddress client, GetRead g) {
        begin(client, g.read(), g.rank(), new GetBegin(g.req(), g.name(), g.version()), RangePlan::whole);
    }

    /** Begins with the request's read strategy and rank over this node's default, or answers why they are not valid. */
    private void begin(NetAddress client, String read, String rank, GetBegin g, Function<Manifest, RangePlan> range) {
        ReadOptions options;
        try {
            options = ReadOptions.resolve(read, rank, node.settings().readDefault());
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(g.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        begin(client, g, options, range);
    }

    /**
     * {@code options} null: blocks fetched nearest first, as before read strategies ({@link #fetch});
     * {@code range}: the blocks of the version found to send (it throws IllegalArgumentException
     * for a range the version does not have).
     */
    private void begin(NetAddress client, GetBegin g, ReadOptions options, Function<Manifest, RangePlan> range) {
        Key key = new Key(client, g.req());
        long ticket = node.admission().ticket(); // its place in line, should it wait for memory
        if (active.containsKey(key)) {
            node.send(client, new Failed(g.req(), FailureCode.INVALID, "request " + g.req() + " is already active"));
            return;
        }
        Version version;
        try {
            version = parseVersion(g.version());
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(g.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        ManifestLookup.find(node, g.name(), version, found -> {
            String missing = missing(g.name(), version, found);
            if (missing != null) {
                node.send(client, new Failed(g.req(), FailureCode.NOT_FOUND, missing));
                return;
            }
            RangePlan plan;
            try {
                plan = range.apply(found.get());
            } catch (IllegalArgumentException e) {
                node.send(client, new Failed(g.req(), FailureCode.INVALID, e.getMessage()));
                return;
            }
            if (found.get().isInline()) {
                try {
                    found.get().inline().verified();
                } catch (IOException e) {
                    // the bytes kept in the manifest fail their checksum: the file's content is corrupt here
                    node.send(client, new Failed(g.req(), FailureCode.BLOCK_CORRUPT,
                            "'" + g.name() + "' at " + node.region() + ": " + e.getMessage()));
                    return;
                }
                sendManifest(node, client, g.req(), found.get()); // the bytes travel in it: nothing to fetch
                return;
            }
            sendManifest(node, client, g.req(), found.get());
            Download d = new Download(key, found.get(), options, plan, ticket);
            active.put(key, d);
            d.pump();
        });
    }

    void onAck(NetAddress client, GetAck a) {
        Download d = active.get(new Key(client, a.req()));
        if (d != null && d.window.acknowledge(a.consumed() - d.plan.storedStart())) {
            d.lastActivity = node.now();
            d.pump();
        }
    }

    /** Tells the client of every download waiting for memory that its node still works on it ({@link ClientOp.Waiting}). */
    void remindWaiting(long now) {
        for (Download d : active.values()) {
            if (d.waiting) {
                node.send(d.key.client, new ClientOp.Waiting(d.key.req,
                        (now - d.waitingSince) / 1_000_000));
            }
        }
    }

    /**
     * Fails downloads whose client has acknowledged nothing for {@code idleNanos} while bytes it was
     * sent wait for its acknowledgement (it went away). A download whose client has acknowledged
     * everything sent is waiting for this node (a block fetch, bounded by its own timeouts, or
     * memory, bounded by the admission wait): it is not the client's silence. One with neither, that
     * nothing moved for four times as long, is stuck and fails.
     */
    void expire(long now, long idleNanos) {
        for (Download d : active.values().toArray(new Download[0])) {
            long idle = now - d.lastActivity;
            long unacked = d.window.unacknowledged();
            if (unacked > 0 && idle > idleNanos) {
                d.fail(FailureCode.INVALID, "the client acknowledged nothing for " + idleNanos / 1_000_000 + " ms ("
                        + unacked + " bytes sent and not acknowledged)");
            } else if (idle > 4 * idleNanos && d.window.fetching() == 0 && !d.waiting) {
                d.fail(FailureCode.INTERNAL, "no progress for " + 4 * idleNanos / 1_000_000
                        + " ms, with no block being fetched and no wait for memory");
            }
        }
    }

    /** A client's version id: null for the newest; a bad id fails with a message that says why. */
    static Version parseVersion(String id) {
        return id == null || id.isEmpty() ? null : Version.parse(id);
    }

    /** Why a lookup of {@code name} (at {@code version}, null = newest) found nothing to read, or null when it did. */
    static String missing(String name, Version version, Optional<Manifest> found) {
        if (found.isEmpty()) {
            return version == null ? "no such file '" + name + "'"
                    : "no version " + version.id() + " of '" + name + "' (versions lists the ones kept)";
        }
        if (found.get().purged()) {
            return "version " + version.id() + " of '" + name + "' was purged (deleted for good)";
        }
        if (found.get().deleted()) {
            return "version " + version.id() + " of '" + name + "' is a delete (tombstone): it has no content";
        }
        return null;
    }

    static void sendManifest(Node node, NetAddress client, long req, Manifest m) {
        byte[] bytes = ManifestCodec.encode(m);
        Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                node.send(client, new ManifestPart(req, false, off, bytes.length, part)));
    }

    /** Fetches block {@code index} of {@code m}, trying replicas nearest first; calls back with bytes or an error. */
    static void fetch(Node node, Manifest m, int index, Consumer<byte[]> ok, Consumer<Failure> failed) {
        Manifest.BlockRef ref = m.blocks().get(index);
        fetchFrom(node, m.blockId(index), ref, node.rtt().readOrder(ref.replicas()), ok, failed);
    }

    /** Fetches block {@code id} (length and checksum per {@code ref}) from {@code order}'s regions in turn. */
    static void fetchFrom(Node node, BlockId id, Manifest.BlockRef ref, List<String> order, Consumer<byte[]> ok,
            Consumer<Failure> failed) {
        new BlockFetch(node, id, ref, order, null, b -> ok.accept(b.toArray()), failed).next(new ReplicaFailures());
    }

    /**
     * As {@link #fetch}, a copy in this node's store read into bytes from {@code into} (a pooled
     * buffer the network sends as it is): {@code ok} owns the bytes it gets and releases them.
     */
    static void fetchBytes(Node node, Manifest m, int index, Bytes.Allocator into, Consumer<Bytes> ok,
            Consumer<Failure> failed) {
        Manifest.BlockRef ref = m.blocks().get(index);
        new BlockFetch(node, m.blockId(index), ref, node.rtt().readOrder(ref.replicas()), into, ok, failed)
                .next(new ReplicaFailures());
    }

    /**
     * One block fetch walking its replica list. Each replica's time to first byte, and its fetch time
     * once complete (or its failure), feed the node's {@code ServiceLatency} as {@link PlannedFetch}'s
     * do, so load-aware ranking and hedge delays also learn from plain reads.
     */
    private record BlockFetch(Node node, BlockId id, Manifest.BlockRef ref, List<String> order,
            Bytes.Allocator into, Consumer<Bytes> ok, Consumer<Failure> failed) {

        void next(ReplicaFailures errors) {
            if (errors.size() == order.size()) {
                failed.accept(errors.all(id));
                return;
            }
            String region = order.get(errors.size());
            long started = node.now();
            Consumer<Failure> retry = why -> {
                node.serviceLatency().failed(region, node.now() - started, node.now());
                errors.add(region, why);
                next(errors);
            };
            if (region.equals(node.region())) {
                Consumer<BlockRead> local = read -> {
                    if (read.failure() != null) {
                        retry.accept(read.failure());
                    } else {
                        node.serviceLatency().firstByte(region, node.now() - started, node.now());
                        // the store verified the bytes against the CRC32C it returns (BlockStorage's contract)
                        if (read.bytes() != null) {
                            check(region, started, read.bytes().data(), read.bytes().crc(), retry);
                        } else {
                            check(region, started, Bytes.wrap(read.block().data()), read.block().crc(), retry);
                        }
                    }
                };
                if (into == null) {
                    node.readLocal(id, local);
                } else {
                    node.readLocal(id, into, local);
                }
                return;
            }
            NetAddress peer = node.addressOf(region);
            Assembly[] parts = new Assembly[1];
            long req = node.expect(peer, Pending.Waiter.of(op -> {
                if (op instanceof BlockData b) {
                    if (parts[0] == null) {
                        node.serviceLatency().firstByte(region, node.now() - started, node.now());
                        if (b.total() != ref.length()) {
                            retry.accept(new Failure(FailureCode.BLOCK_CORRUPT, "sent " + b.total() + " bytes, manifest says "
                                    + ref.length()));
                            return true;
                        }
                        parts[0] = new Assembly(b.total(), b.total());
                    }
                    if (!parts[0].add(b.offset(), b.data())) {
                        return false;
                    }
                    byte[] data = parts[0].bytes();
                    check(region, started, Bytes.wrap(data), Checksums.crc32c(data), retry);
                    return true;
                }
                if (op instanceof Failed f) {
                    retry.accept(Failure.of(f));
                    return true;
                }
                return false;
            }, retry));
            node.send(peer, new FetchBlock(req, id.value()));
        }

        /** {@code crc}: the CRC32C of {@code data}, computed here or verified by this node's store. */
        void check(String region, long started, Bytes data, int crc, Consumer<Failure> retry) {
            if (data.length() != ref.length() || crc != ref.crc()) {
                data.release();
                retry.accept(new Failure(FailureCode.BLOCK_CORRUPT, "checksum " + Checksums.hex(crc) + " != manifest "
                        + Checksums.hex(ref.crc())));
            } else {
                long now = node.now();
                node.serviceLatency().completed(region, data.length(), now - started, now);
                ok.accept(data);
            }
        }
    }

    /** One download in progress: the window decides, this class does the I/O. */
    private final class Download {
        final Key key;
        final Manifest m;
        final DownloadWindow window;
        final ReadOptions options;
        /** The blocks to send: window index {@code i} is block {@code plan.firstBlock() + i}. */
        final RangePlan plan;
        /** Its place in the admission queue's line. */
        final long ticket;
        long lastActivity = node.now();
        boolean failed;
        /** Waiting in the admission queue for the memory of its next block. */
        boolean waiting;
        /** Since when, while {@link #waiting}. */
        long waitingSince;

        Download(Key key, Manifest m, ReadOptions options, RangePlan plan, long ticket) {
            this.key = key;
            this.ticket = ticket;
            this.m = m;
            this.options = options;
            this.plan = plan;
            this.window = new DownloadWindow(m.blocks().subList(plan.firstBlock(), plan.endBlock()).stream()
                    .map(Manifest.BlockRef::length).toList(), m.blockSize(), node.settings().getWindowBytes(), node.settings().fetchParallelism(), node.admission());
        }

        void pump() {
            if (failed || waiting) {
                return;
            }
            for (long base = window.sendOffset(); ; base = window.sendOffset()) {
                boolean allAcked = window.unacknowledged() == 0;
                Bytes data = window.nextToSend();
                if (data == null) {
                    break;
                }
                if (allAcked) {
                    lastActivity = node.now(); // the client's turn to acknowledge starts now
                }
                long offset = plan.storedStart() + base;
                int chunk = node.settings().chunkBytes();
                if (data.length() <= chunk) {
                    node.send(key.client, new GetData(key.req, offset, data)); // the message owns the bytes now
                } else {
                    for (int off = 0; off < data.length(); off += chunk) {
                        node.send(key.client, new GetData(key.req, offset + off,
                                data.slice(off, Math.min(chunk, data.length() - off))));
                    }
                    data.release(); // each slice holds its own share
                }
            }
            if (window.allSent()) {
                if (window.finished()) {
                    active.remove(key); // the client's final acknowledgement returned the last bytes
                }
                return;
            }
            int index = DownloadWindow.NONE;
            while (!failed && (index = window.nextFetch()) >= 0) {
                int slot = index;
                int block = plan.firstBlock() + slot;
                Consumer<Bytes> ok = data -> {
                    if (!failed) {
                        window.fetched(slot, data);
                        pump();
                    } else {
                        data.release();
                    }
                };
                fetch(m, block, ok, why -> {
                    // the same version as this node keeps it now: a move or re-replication raised its epoch
                    Manifest now = node.manifests().history(m.name()).flatMap(h -> h.find(m.version())).orElse(null);
                    if (now != null && !now.deleted() && now.fileId().equals(m.fileId()) // not purged meanwhile
                            && !now.blocks().get(block).replicas().equals(m.blocks().get(block).replicas())) {
                        fetch(now, block, ok, this::unreadable); // the file moved while being read: its new homes
                    } else {
                        unreadable(why);
                    }
                });
            }
            if (!failed && index == DownloadWindow.STARVED) {
                waitForMemory(window.nextFetchLength());
            }
        }

        /**
         * The download holds no memory and its next block finds none: it waits in line (with its
         * arrival ticket, so a new download waits behind older ones and a running one before newer
         * ones) and goes on once admitted; it fails as busy when the wait ends without memory.
         */
        void waitForMemory(long bytes) {
            waiting = true;
            waitingSince = node.now();
            node.admission().admit(ticket, bytes, node.now(), new AdmissionQueue.Waiter() {
                @Override
                public void admitted() {
                    waiting = false;
                    if (failed) {
                        node.admission().release(bytes);
                        return;
                    }
                    window.prepay(bytes);
                    lastActivity = node.now();
                    pump();
                }

                @Override
                public void refused(FailureCode code, String why) {
                    waiting = false;
                    fail(code, why);
                }
            });
        }

        void fetch(Manifest of, int block, Consumer<Bytes> ok, Consumer<Failure> failed) {
            if (options == null) {
                Downloads.fetchBytes(node, of, block, node.sendBuffers(key.client), ok, failed);
            } else {
                PlannedFetch.fetch(node, of, block, options, data -> ok.accept(Bytes.wrap(data)), failed);
            }
        }

        /**
         * No replica of a block could be read: the download cannot go on. Its code says why
         * ({@link ReplicaFailures}): UNAVAILABLE when a replica was down, busy or silent, else the block is
         * missing, corrupt or unreadable at every replica.
         */
        void unreadable(Failure why) {
            fail(why.code(), why.text());
        }

        void fail(FailureCode code, String why) {
            if (failed) {
                return;
            }
            failed = true;
            node.admission().cancel(ticket);
            active.remove(key);
            window.releaseAll();
            node.send(key.client, new Failed(key.req, code, "download of '" + m.name() + "' failed: " + why));
        }
    }
}
