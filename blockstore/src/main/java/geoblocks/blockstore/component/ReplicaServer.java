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
    private final Node node;
    private final Consumer<DeleteBlocks> deleteLocal;
    private final Map<Key, Assembly> incoming = new HashMap<>();

    private record Key(NetAddress peer, long req) {}

    ReplicaServer(Node node, Consumer<DeleteBlocks> deleteLocal) {
        this.node = node;
        this.deleteLocal = deleteLocal;
    }

    void onReplicaData(NetAddress peer, ReplicaData d) {
        Key key = new Key(peer, d.req());
        BlockId id;
        try {
            id = BlockId.of(d.blockId());
            Assembly a = incoming.get(key);
            if (a == null) {
                a = new Assembly(d.total(), node.settings().maxBlockSize());
                incoming.put(key, a);
            }
            if (!a.add(d.offset(), d.data())) {
                return;
            }
        } catch (IllegalArgumentException e) {
            incoming.remove(key);
            node.send(peer, new Failed(d.req(), e.getMessage()));
            return;
        }
        byte[] data = incoming.remove(key).bytes();
        node.storeLocal(id, data, d.crc(), stored -> node.send(peer, stored.error() == null
                ? new ReplicaStored(d.req(), d.blockId())
                : new Failed(d.req(), node.region() + " could not store " + d.blockId() + ": " + stored.error())));
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
            Assembly a = incoming.computeIfAbsent(key, k -> new Assembly(p.total(), 64 << 20));
            if (!a.add(p.offset(), p.data())) {
                return;
            }
            node.manifests().save(ManifestCodec.decode(incoming.remove(key).bytes()));
            node.send(peer, new Done(p.req(), "manifest stored at " + node.region()));
        } catch (IOException | IllegalArgumentException e) {
            incoming.remove(key);
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
