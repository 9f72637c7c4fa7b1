package geoblocks.blockstore.meta;

import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.core.ReplicationQueueCodec;
import geoblocks.blockstore.core.ReplicationQueueStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The replication queue in the metadata engine, under key {@code "q"}, in {@link ReplicationQueueCodec}
 * format: a save is one durable engine write (group-committed with the node's other writes). A
 * damaged value is refused with the codec's {@code CorruptQueueException}, as the file store did.
 */
public final class MetaReplicationQueueStore implements ReplicationQueueStore {
    static final byte[] KEY = "q".getBytes(StandardCharsets.US_ASCII);
    private final MetaEngine engine;

    public MetaReplicationQueueStore(MetaEngine engine) {
        this.engine = engine;
    }

    @Override
    public List<ReplicationQueue.Copy> load() throws IOException {
        byte[] v = engine.get(KEY);
        return v == null ? List.of() : ReplicationQueueCodec.decode(v, "the metadata engine's replication queue");
    }

    @Override
    public void save(List<ReplicationQueue.Copy> copies) throws IOException {
        MetaBatch b = new MetaBatch();
        if (copies.isEmpty()) {
            b.delete(KEY);
        } else {
            b.put(KEY, ReplicationQueueCodec.encode(copies));
        }
        engine.write(b);
    }
}
