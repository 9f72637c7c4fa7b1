package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.PeerOp.Claimed;
import geoblocks.blockstore.wire.PeerOp.CreateClaim;
import geoblocks.blockstore.wire.PeerOp.DeleteFile;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.blockstore.wire.PeerOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Serves other nodes: stores replicas they send (acknowledged only once durable), answers manifest
 * lookups with the name's history, merges published versions and histories, and decides the
 * create-if-absent claims of the names this node owns. (Their block reads are the peer service's:
 * {@link BlockFetches}, {@link PacedFetches}.)
 */
final class ReplicaServer {
    /** Largest manifest accepted from the network (max-blocks-per-file blocks fit well below it). */
    static final int MAX_MANIFEST = 32 << 20;

    private final Node node;
    private final Map<Key, Incoming> incoming = new HashMap<>();

    private record Key(NetAddress peer, long req) {}

    /** A block or manifest arriving in parts; its size is reserved in the memory budget. */
    private static final class Incoming {
        final Assembly parts;
        final long reserved;
        long lastActivity;

        Incoming(Assembly parts, long reserved, long now) {
            this.parts = parts;
            this.reserved = reserved;
            this.lastActivity = now;
        }
    }

    /**
     * Starts or continues an incoming transfer; returns the bytes once complete, else null. A
     * transfer that arrives whole in one message is taken even when the memory budget is spent (its
     * bytes are in memory already: refusing it would free nothing, only fail the client's upload
     * that sent it); one in parts reserves its size first and is refused as busy when it does not fit.
     */
    private byte[] receive(Key key, int total, int max, int offset, byte[] part) {
        Incoming in = incoming.get(key);
        if (in == null) {
            if (total < 0 || total > max) {
                throw new IllegalArgumentException("announced size " + total + " outside 0.." + max);
            }
            if (offset == 0 && part.length == total) {
                node.budget().reserveHeld(total); // released when stored, as a reserved one is
                return part;
            }
            if (!node.budget().tryReserve(total)) {
                throw node.budget().refusal(total);
            }
            in = new Incoming(new Assembly(total, max), total, node.now());
            incoming.put(key, in);
        }
        in.lastActivity = node.now();
        if (!in.parts.add(offset, part)) {
            return null;
        }
        incoming.remove(key);
        return in.parts.bytes();
    }

    /** Drops a failed or abandoned transfer, if any, and returns its memory. */
    private void drop(Key key) {
        Incoming in = incoming.remove(key);
        if (in != null) {
            node.budget().release(in.reserved);
        }
    }

    /** Drops transfers whose sender has been silent for {@code idleNanos}. */
    void expire(long now, long idleNanos) {
        for (Map.Entry<Key, Incoming> e : new ArrayList<>(incoming.entrySet())) {
            if (now - e.getValue().lastActivity > idleNanos) {
                drop(e.getKey());
            }
        }
    }

    ReplicaServer(Node node) {
        this.node = node;
    }

    void onReplicaData(NetAddress peer, ReplicaData d) {
        Key key = new Key(peer, d.req());
        BlockId id;
        byte[] data;
        try {
            id = BlockId.of(d.blockId());
            data = receive(key, d.total(), node.settings().maxBlockSize(), d.offset(), d.data());
        } catch (IllegalArgumentException e) {
            drop(key);
            node.send(peer, new Failed(d.req(), FailureCode.of(e, FailureCode.INVALID), node.region() + ": " + e.getMessage()));
            return;
        }
        if (data == null) {
            return;
        }
        node.storeLocal(id, data, d.crc(), stored -> {
            node.budget().release(data.length);
            node.send(peer, stored.ok()
                    ? new ReplicaStored(d.req(), d.blockId())
                    : stored.failure().prefixed(node.region() + " could not store " + d.blockId() + ": ").reply(d.req()));
        });
    }

    /** Answers with every version of the name this node keeps (the asker merges them). */
    void onLookup(NetAddress peer, LookupManifest l) {
        Optional<ManifestHistory> h = node.manifests().history(l.name());
        if (h.isEmpty()) {
            node.send(peer, new Failed(l.req(), FailureCode.NOT_FOUND, "no such file '" + l.name() + "' at " + node.region()));
            return;
        }
        byte[] bytes = ManifestCodec.encodeHistory(h.get());
        Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                node.send(peer, new ManifestPart(l.req(), false, off, bytes.length, part)));
    }

    /**
     * A published version or history (a new upload, a delete, a re-replication, anti-entropy), or a
     * batch of them: merged here.
     */
    void onPublish(NetAddress peer, ManifestPart p) {
        Key key = new Key(peer, p.req());
        try {
            byte[] bytes = receive(key, p.total(), MAX_MANIFEST, p.offset(), p.data());
            if (bytes == null) {
                return;
            }
            node.budget().release(bytes.length);
            if (ManifestCodec.isBatch(bytes)) { // several publications at once (Publications): one durable write
                node.versions().mergeAll(ManifestCodec.decodeBatch(bytes));
            } else {
                node.versions().merge(ManifestCodec.decodeAny(bytes));
            }
            node.send(peer, new Done(p.req(), "manifest stored at " + node.region()));
        } catch (IOException | IllegalArgumentException e) {
            drop(key);
            node.send(peer, new Failed(p.req(), FailureCode.of(e, FailureCode.INVALID),
                    node.region() + " rejected the manifest: " + e.getMessage()));
        }
    }

    /** The owner's decision on a create-if-absent: stamped and stored when the name has no live version here. */
    void onClaim(NetAddress peer, CreateClaim c) {
        Key key = new Key(peer, c.req());
        try {
            byte[] bytes = receive(key, c.total(), MAX_MANIFEST, c.offset(), c.data());
            if (bytes == null) {
                return;
            }
            node.budget().release(bytes.length);
            Manifest draft = ManifestCodec.decode(bytes);
            String owner = node.ownerOf(draft.name());
            if (draft.deleted() && c.condition().none()) {
                throw new IllegalArgumentException("an unconditional delete cannot be claimed");
            }
            if (!owner.equals(node.region())) {
                // the coordinator acts on another layout version (or another static region list)
                throw new FailureException(FailureCode.UNAVAILABLE, node.region() + " does not own '" + draft.name()
                        + "' (" + owner + " does in its cluster layout version " + node.layoutVersion()
                        + "): the nodes do not run the same layout yet; retry shortly");
            }
            String notReady = node.notReadyToDecide(draft.name());
            if (notReady != null) {
                throw new FailureException(FailureCode.UNAVAILABLE, notReady);
            }
            Versions.Claim m = node.versions().claim(draft, c.condition());
            node.send(peer, m.stored() != null
                    ? new Claimed(c.req(), m.stored().version().clock(), m.stored().version().region())
                    : CreateIfAbsent.refusal(draft.name(), owner, c.condition(), m.outcome()).reply(c.req()));
        } catch (IOException | IllegalArgumentException e) {
            drop(key);
            FailureCode code = e instanceof IOException ? FailureCode.INTERNAL : FailureCode.of(e, FailureCode.INVALID);
            node.send(peer, new Failed(c.req(), code, node.region() + " refused the create: " + e.getMessage()));
        }
    }

    /** Retired (see DeleteFile): deletes are tombstone versions now. */
    void onDelete(NetAddress peer, DeleteFile d) {
        node.send(peer, new Failed(d.req(), FailureCode.INVALID, node.region() + " no longer takes DeleteFile: deletes are versions"
                + " (tombstones) now; run the same geoblocks build on every node"));
    }
}
