package geoblocks.blockstore.core;

import java.io.IOException;
import java.util.List;

/**
 * Where a coordinator keeps its replication queue across restarts: {@link #save} replaces the
 * whole queue durably before it returns, {@link #load} returns the last saved one (empty when none).
 */
public interface ReplicationQueueStore {
    List<ReplicationQueue.Copy> load() throws IOException;

    void save(List<ReplicationQueue.Copy> copies) throws IOException;

    /** A store in memory (simulator, tests): survives nothing. */
    static ReplicationQueueStore inMemory() {
        return new ReplicationQueueStore() {
            private List<ReplicationQueue.Copy> saved = List.of();

            @Override
            public List<ReplicationQueue.Copy> load() {
                return saved;
            }

            @Override
            public void save(List<ReplicationQueue.Copy> copies) {
                saved = List.copyOf(copies);
            }
        };
    }
}
