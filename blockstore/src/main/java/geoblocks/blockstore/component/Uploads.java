package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.UploadAssembly;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Uploads coordinated by this node. A client streams blocks in order; each complete block is
 * checked against the client's CRC32C, placed by the upload's policy (asked of the placement
 * component, {@link Node#place}) and sent to every replica.
 * The client hears {@link PutProgress} only for prefixes whose blocks are durable on every
 * replica, and {@link Committed} (with the new version's id) only after the manifest is durable
 * here and published to the peers that are up. Any replica failure fails the upload: success is never reported with fewer
 * durable copies than the policy promised. With {@code ack = local} only the first copy of each
 * block (this node's when the policy places one here, else the nearest chosen region's) is
 * written before progress is reported; the other copies are saved in the replication queue
 * before the manifest (which names every region the policy chose) is stored and the client told.
 *
 * <p>A finished upload becomes a new version of its name, stamped with this node's hybrid logical
 * clock ({@link Versions#commit}): an existing name gets a newer version (an overwrite; the older
 * one is kept until the retention drops it). With a write condition (create if absent, If-Match)
 * the name's owner region decides instead ({@link CreateIfAbsent}); the client is answered
 * {@link Committed} with the version.
 *
 * <p>An upload of at most {@code geoblocks.node.inline-max} bytes is stored inline: its blocks are
 * collected here (a compressed one decompressed and checked), no block file is written anywhere,
 * and the version's manifest holds the bytes ({@link Manifest#isInline}). The policy is still asked
 * where the object's copies go; the client hears {@link Committed} only once this node stored the
 * manifest and every region the policy chose (with {@code ack = local}, the first of them, as for
 * a block) confirmed it stored the publication, so an inline object never has fewer durable copies
 * at its acknowledgement than a block would. Publication to the other regions (and anti-entropy
 * for those that miss it) follows as for every version.
 */
final class Uploads {
    private final Node node;
    private final Replicator replicator;
    private final Map<Key, Upload> active = new HashMap<>();
    /** Uploads waiting in the admission queue to begin, with when they began to wait. */
    private final Map<Key, Long> queued = new HashMap<>();

    private record Key(NetAddress client, long req) {}

    /** How often the regions holding blocks of uploads in progress are told to keep them (a quarter of the GC grace). */
    private final long holdEveryNanos;
    private long lastHold;

    Uploads(Node node, Replicator replicator) {
        this(node, replicator, 150_000_000_000L); // a quarter of the default 10 min grace
    }

    Uploads(Node node, Replicator replicator, long holdEveryNanos) {
        this.node = node;
        this.replicator = replicator;
        this.holdEveryNanos = holdEveryNanos;
        this.lastHold = node.now();
    }

    /**
     * Every {@code holdEveryNanos}: tells each other region that is up and holds blocks of an upload in progress to
     * keep them ({@link geoblocks.blockstore.wire.PeerOp.HoldBlocks}). Until the version's manifest reaches it, a
     * region protects an upload's blocks only by the touch their arrival gave, which lasts one GC grace; an upload
     * that sends it no more blocks (its placement moved elsewhere) and runs longer than that would lose them.
     */
    void hold(long now) {
        if (now - lastHold < holdEveryNanos) {
            return;
        }
        lastHold = now;
        Map<String, List<String>> byRegion = new TreeMap<>();
        for (Upload u : active.values()) {
            if (u.failed || u.released || u.inline != null) {
                continue;
            }
            Set<String> regions = new TreeSet<>();
            for (Manifest.BlockRef r : u.refs) {
                if (r != null) {
                    regions.addAll(r.replicas());
                }
            }
            regions.remove(node.region());
            for (String g : regions) {
                if (node.rtt().isUp(g)) {
                    byRegion.computeIfAbsent(g, k -> new ArrayList<>()).add(u.fileId);
                }
            }
        }
        Holds.send(node, byRegion);
    }

    void onBegin(NetAddress client, PutBegin b) {
        Key key = new Key(client, b.req());
        long ticket = node.admission().ticket(); // its place in line, should it wait for memory
        try {
            String policy = PutBeginChecks.check(node, b);
            if (active.containsKey(key) || queued.containsKey(key)) {
                throw new IllegalArgumentException("request " + b.req() + " is already active");
            }
            long blocks = PutBeginChecks.blocks(node, b);
            long meta = 1024 + 16 * Math.max(1, blocks) + (node.settings().inlines(b.size()) ? b.size() : 0);
            long firstBlock = Math.min(b.size(), b.blockSize());
            // admitted with its metadata and its first block's buffer, in arrival order when memory is short
            queued.put(key, node.now());
            node.admission().admit(ticket, meta + firstBlock, node.now(), new AdmissionQueue.Waiter() {
                @Override
                public void admitted() {
                    queued.remove(key);
                    Upload u = new Upload(key, b, policy, ticket);
                    u.metaReserved = meta;
                    u.assembly.prepay(firstBlock);
                    active.put(key, u);
                    node.send(client, new PutProgress(b.req(), 0));
                }

                @Override
                public void refused(FailureCode code, String why) {
                    queued.remove(key);
                    node.send(client, new Failed(b.req(), code, why));
                }
            });
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(b.req(), FailureCode.of(e, FailureCode.INVALID), e.getMessage()));
        }
    }

    void onData(NetAddress client, PutData d) {
        Upload u = active.get(new Key(client, d.req()));
        if (u == null) {
            return; // upload already failed or finished; the client has been told
        }
        u.add(d);
    }

    /**
     * Tells the client of every upload waiting for memory (not yet admitted, or its next block's
     * buffer) that its node still works on it ({@link ClientOp.Waiting}), so the wait is not silence.
     */
    void remindWaiting(long now) {
        queued.forEach((k, since) -> node.send(k.client, new ClientOp.Waiting(k.req, (now - since) / 1_000_000)));
        for (Upload u : active.values()) {
            if (u.stash != null) {
                node.send(u.key.client, new ClientOp.Waiting(u.key.req, (now - u.waitingSince) / 1_000_000));
            }
        }
    }

    /** Fails uploads whose client has been silent for {@code idleNanos} (it went away). */
    void expire(long now, long idleNanos) {
        for (Upload u : active.values().toArray(new Upload[0])) {
            if (now - u.lastActivity > idleNanos) {
                u.fail(FailureCode.INVALID, "no data from the client for " + idleNanos / 1_000_000 + " ms");
            }
        }
    }

    /** One upload in progress: the assembly decides, this class does the I/O. */
    private final class Upload {
        final Key key;
        final String name;
        final long size;
        final int blockSize;
        final String policy;
        final boolean ackLocal;
        final WriteCondition condition;
        /** With ack local: per block, the chosen regions that get their copy from the replication queue. */
        final Map<Integer, List<String>> later = new TreeMap<>();
        final String fileId;
        /** Its place in the admission queue's line, should it wait for memory again. */
        final long ticket;
        /** Pieces that arrived while the upload waits for the memory of a block's buffer, else null. */
        ArrayDeque<PutData> stash;
        /** When the upload began to wait for its next block's buffer (while {@link #stash} is set). */
        long waitingSince;
        long stashedBytes;
        final Manifest.BlockRef[] refs;
        final UploadAssembly assembly;
        /** The whole content when the upload is stored inline (reserved with the metadata), else null. */
        final byte[] inline;
        boolean failed;
        boolean released;
        /** Bytes reserved for the upload's metadata (manifest, block list). */
        long metaReserved;
        long lastActivity = node.now();

        final Map<String, String> meta;

        Upload(Key key, PutBegin b, String policy, long ticket) {
            this.key = key;
            this.ticket = ticket;
            this.name = b.name();
            this.size = b.size();
            this.blockSize = b.blockSize();
            this.policy = policy;
            this.ackLocal = ClientOp.ACK_LOCAL.equals(b.ack());
            this.condition = b.condition();
            this.meta = b.meta();
            this.fileId = Long.toHexString(node.random().nextLong() | Long.MIN_VALUE)
                    + Long.toHexString(node.now() & 0xffffffffL);
            this.assembly = new UploadAssembly(size, blockSize, node.settings().putWindowBytes(), node.admission());
            this.refs = new Manifest.BlockRef[assembly.blocks()];
            this.inline = node.settings().inlines(size) ? new byte[(int) size] : null;
            node.inFlight().hold(fileId); // its blocks are not garbage until it is committed or fails
        }

        /** The upload is committed or failed: its blocks are referenced, or garbage after the grace. */
        void releaseFile() {
            if (!released) {
                released = true;
                node.inFlight().release(fileId, node.now());
            }
        }

        void add(PutData d) {
            lastActivity = node.now();
            if (stash != null) {
                stashedBytes += d.data().length;
                if (stashedBytes > node.settings().putWindowBytes() + blockSize) {
                    fail(FailureCode.INVALID, "client sent " + stashedBytes + " bytes while the upload waited for memory;"
                            + " the window is " + node.settings().putWindowBytes());
                    return;
                }
                stash.add(d);
                return;
            }
            long need = assembly.bufferNeeded();
            if (need > 0) {
                if (!node.admission().tryReserve(need)) {
                    waitForMemory(need, d);
                    return;
                }
                assembly.prepay(need);
            }
            UploadAssembly.Block block;
            try {
                block = assembly.add(d.block(), d.offset(), d.data(), d.last(), d.blockCrc(), d.codec(), d.rawCrc());
            } catch (IllegalArgumentException e) {
                fail(FailureCode.of(e, FailureCode.INVALID), e.getMessage());
                return;
            }
            if (block != null) {
                replicate(block);
            }
        }

        /**
         * The next block's buffer finds no memory: the upload waits in line (with its arrival ticket,
         * so before newer requests) and keeps the client's pieces until it is admitted (the client
         * sends at most the window ahead of what is durable).
         */
        void waitForMemory(long need, PutData first) {
            stash = new ArrayDeque<>();
            waitingSince = node.now();
            stash.add(first);
            stashedBytes = first.data().length;
            node.admission().admit(ticket, need, node.now(), new AdmissionQueue.Waiter() {
                @Override
                public void admitted() {
                    if (failed) {
                        node.admission().release(need);
                        return;
                    }
                    assembly.prepay(need);
                    ArrayDeque<PutData> pieces = stash;
                    stash = null;
                    while (!pieces.isEmpty() && !failed) {
                        add(pieces.poll());
                    }
                }

                @Override
                public void refused(FailureCode code, String why) {
                    fail(code, why);
                }
            });
        }

        void replicate(UploadAssembly.Block block) {
            if (inline != null) {
                keepInline(block);
                return;
            }
            node.placeOrFail(PlacementRequest.upload(policy, block.data().length), targets -> {
                if (!failed) {
                    replicateTo(block, targets);
                }
            }, this::fail);
        }

        void replicateTo(UploadAssembly.Block block, List<String> targets) {
            int index = block.index();
            byte[] data = block.data();
            int blockCrc = block.crc();
            refs[index] = block.ref(targets);
            List<String> now = targets;
            if (ackLocal) {
                now = List.of(node.rtt().readOrder(targets).get(0)); // this node first, then the nearest
                List<String> rest = new ArrayList<>(targets);
                rest.remove(now.get(0));
                later.put(index, rest);
            }
            assembly.expectCopies(index, now.size());
            BlockId id = BlockId.ofFileBlock(fileId, index);
            for (String region : now) {
                copyTo(index, id, data, blockCrc, region, true);
            }
        }

        /** One copy of block {@code index} to {@code region}: stored here, or sent (and moved once if that region goes silent). */
        void copyTo(int index, BlockId id, byte[] data, int blockCrc, String region, boolean mayMove) {
            if (region.equals(node.region())) {
                node.storeLocal(id, data, blockCrc, stored -> {
                    if (stored.ok()) {
                        acked(index);
                    } else {
                        fail(stored.failure().prefixed("storing block " + index + " at " + region + " failed: "));
                    }
                });
            } else {
                sendReplica(index, id, data, blockCrc, region, mayMove);
            }
        }

        /** An inline upload's block: its original bytes join the content; it needs no copy anywhere. */
        void keepInline(UploadAssembly.Block block) {
            int index = block.index();
            byte[] raw = block.data();
            if (block.codec() != BlockCodec.NONE) {
                try {
                    raw = block.codec().decompress(BlockId.ofFileBlock(fileId, index), raw, block.rawLength());
                } catch (CorruptBlockException e) {
                    fail(FailureCode.INVALID, "block " + index + " (" + block.codec().label() + ") does not decompress: " + e.getMessage());
                    return;
                }
                if (Checksums.crc32c(raw) != block.rawCrc()) {
                    fail(FailureCode.INVALID, "block " + index + " (" + block.codec().label() + ") decompressed with checksum "
                            + Checksums.hex(Checksums.crc32c(raw)) + ", the client said " + Checksums.hex(block.rawCrc()));
                    return;
                }
            }
            System.arraycopy(raw, 0, inline, index * blockSize, raw.length);
            assembly.expectCopies(index, 1);
            acked(index);
        }

        void sendReplica(int index, BlockId id, byte[] data, int blockCrc, String region, boolean mayMove) {
            String what = "replica of block " + index + " at " + region + ": ";
            ReplicaCopy.foreground(node, node.addressOf(region), id, data, blockCrc, failure -> {
                if (failure == null) {
                    acked(index);
                } else if (mayMove && failure.code() == FailureCode.UNAVAILABLE && !failed) {
                    moveCopy(index, id, data, blockCrc, region, failure.prefixed(what));
                } else {
                    fail(failure.prefixed(what));
                }
            });
        }

        /**
         * {@code gone} did not answer for block {@code index} (stopped, restarting, unreachable; a copy it may
         * have stored is unreferenced, and its GC takes it): the copy goes, once, to another region the policy
         * allows, as a replacement does, instead of failing the upload; {@code why} fails it when none can take it.
         */
        void moveCopy(int index, BlockId id, byte[] data, int blockCrc, String gone, Failure why) {
            List<String> replicas = refs[index].replicas();
            node.placeOrFail(PlacementRequest.replacement(policy, data.length, replicas), placed -> {
                if (failed) {
                    return;
                }
                String to = placed.get(0);
                List<String> now = new ArrayList<>(replicas);
                now.set(now.indexOf(gone), to);
                refs[index] = refs[index].withReplicas(now);
                copyTo(index, id, data, blockCrc, to, false);
            }, refused -> fail(why));
        }

        void acked(int index) {
            if (failed) {
                return;
            }
            long durableBytes = assembly.copyDurable(index);
            if (durableBytes < 0) {
                return;
            }
            lastActivity = node.now();
            node.send(key.client, new PutProgress(key.req, durableBytes));
            if (assembly.complete()) {
                finish();
            }
        }

        /** Every block is durable: the upload becomes a version (stamped here, or by the owner with a condition). */
        void finish() {
            active.remove(key);
            releaseAll();
            if (inline != null) {
                node.placeOrFail(PlacementRequest.upload(policy, Math.max(1, size)), this::commitInline, this::fail);
                return;
            }
            long wall = node.wallMillis();
            Manifest draft = new Manifest(name, fileId, size, blockSize, policy, node.region(), wall,
                    List.of(refs), Version.legacy(wall, node.region()), 0, false, meta);
            if (!condition.none()) {
                CreateIfAbsent.claim(node, draft, condition, m -> {
                    String queued = enqueueCopies(); // after the decision: a refused create owes no copies
                    publish(m, queued == null ? "" : "; " + queued);
                }, this::fail);
                return;
            }
            Manifest m;
            try {
                queueCopies(); // durable before the manifest: a crash in between leaves no acked gap
                m = node.versions().commit(draft);
            } catch (IOException e) {
                fail(Failure.ofStorage(e).prefixed("saving the manifest failed: "));
                return;
            }
            publish(m, "");
        }

        /**
         * Stores the inline version here (or has the owner decide it, with a condition) and publishes it;
         * {@code targets}, the regions the policy chose, must confirm it (with ack local, the first).
         */
        void commitInline(List<String> targets) {
            List<String> required = ackLocal ? List.of(node.rtt().readOrder(targets).get(0)) : List.copyOf(targets);
            long wall = node.wallMillis();
            Manifest draft = Manifest.inline(name, fileId, blockSize, policy, node.region(), wall,
                    Version.legacy(wall, node.region()), meta, inline);
            if (!condition.none()) {
                Set<String> holding = new TreeSet<>(List.of(node.region(), node.ownerOf(name))); // the owner stored it first
                CreateIfAbsent.claim(node, draft, condition, m -> publishInline(m, targets, required, holding), this::fail);
                return;
            }
            Manifest m;
            try {
                m = node.versions().commit(draft);
            } catch (IOException e) {
                fail(Failure.ofStorage(e).prefixed("saving the manifest failed: "));
                return;
            }
            publishInline(m, targets, required, Set.of(node.region()));
        }

        /**
         * Publishes a stored inline version ({@code targets}: the regions the policy chose); the client hears what
         * {@link UploadAcks#inline} decides, once a stand-in was sought for each required region that did not confirm.
         */
        void publishInline(Manifest m, List<String> targets, List<String> required, Set<String> holding) {
            releaseFile(); // committed (no blocks to protect): the in-flight hold ends, as for a put of blocks
            new ManifestPublisher(node, m, unreached -> settleInline(m, new ArrayList<>(targets), new ArrayList<>(required),
                    holding, unreached, new TreeMap<>())).start();
        }

        /**
         * A required region that did not confirm the inline version (down, refusing connections, silent or failed:
         * e.g. killed, before its peers call it down) is replaced, as a block's copy is ({@link #moveCopy}), by the
         * region placement offers in its place if that region confirmed it ({@link UploadAcks#standIn}); then the next.
         * When placement offers none that did, the client hears the failure {@link UploadAcks#inline} gives.
         */
        void settleInline(Manifest m, List<String> chosen, List<String> required, Set<String> holding,
                List<String> unreached, Map<String, String> moved) {
            List<String> missing = UploadAcks.missing(required, holding, unreached);
            if (missing.isEmpty()) {
                node.send(key.client, UploadAcks.inline(key.req, name, m, policy, required, holding, unreached, moved));
                return;
            }
            String gone = missing.get(0);
            Runnable answer = () -> node.send(key.client,
                    UploadAcks.inline(key.req, name, m, policy, required, holding, unreached, moved));
            node.placeOrFail(PlacementRequest.replacement(policy, Math.max(1, size), chosen), placed -> {
                String to = placed.isEmpty() ? null : placed.get(0);
                if (!UploadAcks.standIn(to, chosen, holding, node.peerRegions(), unreached)) {
                    answer.run();
                    return;
                }
                chosen.add(to);
                required.set(required.indexOf(gone), to);
                moved.put(gone, to);
                settleInline(m, chosen, required, holding, unreached, moved);
            }, refused -> answer.run());
        }

        /** With ack local: saves the copies the replication queue owes (per block and region) in it, durably. */
        void queueCopies() throws IOException {
            replicator.enqueueOwed(name, fileId, later);
        }

        /** Queues the owed copies of a created version; null, or why they could not be queued (scrubbers repair them then). */
        String enqueueCopies() {
            try {
                queueCopies();
                return null;
            } catch (IOException e) {
                Logs.warn(node.region() + ": queueing the copies of '" + name + "' failed: " + e.getMessage());
                return "queueing the background copies failed (" + e.getMessage() + "); the scrubbers of their regions will make them";
            }
        }

        /** Publishes a stored version of blocks; the client hears what {@link UploadAcks#blocks} decides (ack all: a second copy of the manifest). */
        void publish(Manifest m, String note) {
            releaseFile();
            replicator.pump();
            new ManifestPublisher(node, m, unreached -> node.send(key.client,
                    UploadAcks.blocks(key.req, name, m, node.region(), ackLocal, node.peerRegions(), unreached, note))).start();
        }

        /** Placement found no regions for a block (too few up for the policy): nothing was stored. */
        void fail(FailureCode code, String why) {
            fail(new Failure(code, why));
        }

        void fail(Failure why) {
            if (failed) {
                return;
            }
            failed = true;
            node.admission().cancel(ticket);
            stash = null;
            // a create the owner refused leaves its blocks as unreferenced copies, like any failed upload:
            // the block collector takes them after the grace
            active.remove(key);
            releaseAll();
            releaseFile();
            node.send(key.client, why.prefixed("upload of '" + name + "' failed: ").reply(key.req));
        }

        void releaseAll() {
            assembly.releaseAll();
            node.budget().release(metaReserved);
            metaReserved = 0;
        }
    }
}
