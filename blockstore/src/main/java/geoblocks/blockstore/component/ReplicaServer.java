package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp.BlockData;
import geoblocks.blockstore.wire.FileOp.DeleteFile;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.FetchBlock;
import geoblocks.blockstore.wire.FileOp.LookupManifest;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.FileOp.ReplicaData;
import geoblocks.blockstore.wire.FileOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Serves other nodes: stores replicas they send (acknowledged only once durable), reads blocks
 * for their downloads, answers manifest lookups, stores published manifests and deletes files.
 */
final class ReplicaServer {
    /** Largest manifest accepted from the network (max-blocks-per-file blocks fit well below it). */
    static final int MAX_MANIFEST = 32 << 20;

    private final Node node;
    private final Consumer<DeleteBlocks> deleteLocal;
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

    /** Starts or continues an incoming transfer; returns the bytes once complete, else null. */
    private byte[] receive(Key key, int total, int max, int offset, byte[] part) {
        Incoming in = incoming.get(key);
        if (in == null) {
            if (total < 0 || total > max) {
                throw new IllegalArgumentException("announced size " + total + " outside 0.." + max);
            }
            if (!node.budget().tryReserve(total)) {
                throw new IllegalArgumentException(node.budget().busy(total));
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

    ReplicaServer(Node node, Consumer<DeleteBlocks> deleteLocal) {
        this.node = node;
        this.deleteLocal = deleteLocal;
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
            node.send(peer, new Failed(d.req(), node.region() + ": " + e.getMessage()));
            return;
        }
        if (data == null) {
            return;
        }
        node.storeLocal(id, data, d.crc(), stored -> {
            node.budget().release(data.length);
            node.send(peer, stored.error() == null
                    ? new ReplicaStored(d.req(), d.blockId())
                    : new Failed(d.req(), node.region() + " could not store " + d.blockId() + ": " + stored.error()));
        });
    }

    void onFetch(NetAddress peer, FetchBlock f) {
        BlockId id;
        try {
            id = BlockId.of(f.blockId());
        } catch (IllegalArgumentException e) {
            node.send(peer, new Failed(f.req(), e.getMessage()));
            return;
        }
        node.readLocal(id, read -> {
            if (read.block() == null) {
                node.send(peer, new Failed(f.req(), node.region() + ": " + read.error()));
                return;
            }
            byte[] data = read.block().data();
            Assembly.split(data, node.settings().chunkBytes(), (off, part) ->
                    node.send(peer, new BlockData(f.req(), off, data.length, read.block().crc(), part)));
        });
    }

    void onLookup(NetAddress peer, LookupManifest l) {
        Optional<Manifest> m = node.manifests().find(l.name());
        if (m.isEmpty()) {
            node.send(peer, new Failed(l.req(), "no such file '" + l.name() + "' at " + node.region()));
            return;
        }
        Downloads.sendManifest(node, peer, l.req(), m.get());
    }

    void onPublish(NetAddress peer, ManifestPart p) {
        Key key = new Key(peer, p.req());
        try {
            byte[] bytes = receive(key, p.total(), MAX_MANIFEST, p.offset(), p.data());
            if (bytes == null) {
                return;
            }
            node.budget().release(bytes.length);
            node.manifests().save(ManifestCodec.decode(bytes));
            node.send(peer, new Done(p.req(), "manifest stored at " + node.region()));
        } catch (IOException | IllegalArgumentException e) {
            drop(key);
            node.send(peer, new Failed(p.req(), node.region() + " rejected the manifest: " + e.getMessage()));
        }
    }

    void onDelete(NetAddress peer, DeleteFile d) {
        node.send(peer, new Done(d.req(), deleteHere(d.name())));
    }

    /** Deletes the manifest and this node's replicas of a file; returns what happened. */
    String deleteHere(String name) {
        Optional<Manifest> m = node.manifests().find(name);
        if (m.isEmpty()) {
            return "not at " + node.region();
        }
        List<BlockId> mine = new ArrayList<>();
        for (int i = 0; i < m.get().blocks().size(); i++) {
            if (m.get().blocks().get(i).replicas().contains(node.region())) {
                mine.add(m.get().blockId(i));
            }
        }
        deleteLocal.accept(new DeleteBlocks(mine));
        try {
            node.manifests().remove(name);
        } catch (IOException e) {
            return "manifest removal failed at " + node.region() + ": " + e.getMessage();
        }
        return "deleted " + mine.size() + " blocks at " + node.region();
    }
}
