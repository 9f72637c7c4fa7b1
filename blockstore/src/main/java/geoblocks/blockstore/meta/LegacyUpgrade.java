package geoblocks.blockstore.meta;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.FileReplicationQueueStore;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.ReplicationQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Converts a data directory written before the metadata engine: {@code manifests/} (one block file
 * per name, id {@code m-<hex of the name>}, holding the name's encoded history) and the
 * {@code replication-queue} file. Histories are merged into the {@link ManifestStore} in durable
 * batches (a merge is idempotent, so a conversion cut short by a crash is simply done again on the
 * next start); the queue is merged with the engine's. Only when everything is in the engine are the
 * old files removed. A manifest file that cannot be read (the old store skipped those too) is moved
 * to {@code manifests.unreadable/} rather than deleted.
 */
public final class LegacyUpgrade {
    private static final int BATCH = 1_000;

    /** What a conversion did: histories converted, files unreadable, queued copies carried over. */
    public record Result(int converted, int unreadable, int queued) {
        public static final Result NOTHING = new Result(0, 0, 0);
    }

    private LegacyUpgrade() {}

    /** Converts what {@code dataDir} holds in the old layout, if anything; a no-op on a converted directory. */
    public static Result run(Path dataDir, ManifestStore store, MetaReplicationQueueStore queue) throws IOException {
        Path manifests = dataDir.resolve("manifests");
        Path queueFile = dataDir.resolve("replication-queue");
        if (!Files.isDirectory(manifests) && !Files.exists(queueFile)) {
            return Result.NOTHING;
        }
        int converted = 0;
        int unreadable = 0;
        if (Files.isDirectory(manifests)) {
            FileBlockStorage old = FileBlockStorage.inspect(manifests);
            List<ManifestHistory> batch = new ArrayList<>();
            List<Path> bad = new ArrayList<>();
            for (BlockId id : old.list()) {
                if (!id.value().startsWith("m-")) {
                    continue;
                }
                try {
                    ManifestHistory h = ManifestCodec.decodeAny(old.get(id).data());
                    String expected = "m-" + HexFormat.of().formatHex(h.name().getBytes(StandardCharsets.UTF_8));
                    if (!expected.equals(id.value())) {
                        throw new IOException("history of '" + h.name() + "' stored under " + id);
                    }
                    batch.add(h);
                } catch (IOException | RuntimeException e) {
                    bad.add(old.pathOf(id));
                    unreadable++;
                    continue;
                }
                if (batch.size() == BATCH) {
                    store.mergeAll(batch);
                    converted += batch.size();
                    batch.clear();
                }
            }
            store.mergeAll(batch);
            converted += batch.size();
            if (!bad.isEmpty()) {
                Path keep = Files.createDirectories(dataDir.resolve("manifests.unreadable"));
                for (Path p : bad) {
                    Files.move(p, keep.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        int queued = 0;
        if (Files.exists(queueFile)) {
            List<ReplicationQueue.Copy> owed = new ArrayList<>(queue.load());
            for (ReplicationQueue.Copy c : new FileReplicationQueueStore(queueFile).load()) {
                if (!owed.contains(c)) {
                    owed.add(c);
                    queued++;
                }
            }
            queue.save(owed);
        }
        // everything is durable in the engine: the old files may go
        if (Files.isDirectory(manifests)) {
            deleteTree(manifests);
        }
        Files.deleteIfExists(queueFile);
        Files.deleteIfExists(queueFile.resolveSibling(queueFile.getFileName() + ".tmp"));
        return new Result(converted, unreadable, queued);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
