package geoblocks.node.admin;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.body.SmallRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The admin API's backend over the node's own S3 gateway client ({@link NodeStore}). */
public final class NodeAdminBackend implements AdminBackend {
    private final NodeStore store;

    public NodeAdminBackend(NodeStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<ClusterReply> cluster(String action, String region, String address, String zone,
            long capacityBytes, boolean force, String key) {
        return store.cluster(action, region, address, zone, capacityBytes, force, key);
    }

    @Override
    public CompletableFuture<String> move(String name, List<String> regions) {
        return store.move(name, regions);
    }

    @Override
    public CompletableFuture<String> purge(String name, String version) {
        return store.purge(name, version).thenApply(ClientPort.Written::version);
    }

    @Override
    public CompletableFuture<byte[]> read(String name, int max) {
        SmallRecord sink = new SmallRecord(max, "record " + name);
        return store.get(name, "", sink).handle((m, t) -> {
            if (t == null) {
                return sink.bytes();
            }
            if (NodeStore.cause(t) instanceof NodeStore.StoreException s && s.notFound()) {
                return null;
            }
            throw new CompletionException(NodeStore.cause(t));
        });
    }

    @Override
    public CompletableFuture<Void> write(String name, byte[] bytes, boolean create) {
        // tworandom with ack all: a small record is inline in its manifest, which every region receives
        return store.put(name, null, ByteSource.of(bytes), "tworandom", 4096, "all", create, Map.of()).thenApply(w -> null);
    }

    @Override
    public CompletableFuture<List<String>> list(String prefix) {
        return page(prefix, "", new ArrayList<>());
    }

    private CompletableFuture<List<String>> page(String prefix, String after, List<String> out) {
        return store.listPage(prefix, after, 1000).thenCompose(p -> {
            for (ListEntry e : p.entries()) {
                out.add(e.name());
            }
            return p.more() && !p.entries().isEmpty() ? page(prefix, p.entries().get(p.entries().size() - 1).name(), out)
                    : CompletableFuture.completedFuture(out);
        });
    }
}
