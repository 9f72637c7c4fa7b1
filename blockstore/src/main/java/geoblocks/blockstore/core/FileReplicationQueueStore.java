package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The replication queue in one file ({@link ReplicationQueueCodec} format). A save writes
 * {@code file.tmp}, fsyncs it, renames it atomically over {@code file} and fsyncs the directory,
 * so after a crash the file holds either the old or the new queue, whole. A damaged file is
 * refused with {@link CorruptQueueException} (the node does not start rather than forget copies).
 */
public final class FileReplicationQueueStore implements ReplicationQueueStore {
    private final Path file;
    private final Path tmp;

    public FileReplicationQueueStore(Path file) {
        this.file = file.toAbsolutePath();
        this.tmp = this.file.resolveSibling(this.file.getFileName() + ".tmp");
    }

    @Override
    public List<ReplicationQueue.Copy> load() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return ReplicationQueueCodec.decode(bytes, file.toString());
    }

    @Override
    public void save(List<ReplicationQueue.Copy> copies) throws IOException {
        byte[] bytes = ReplicationQueueCodec.encode(copies);
        Files.createDirectories(file.getParent());
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel d = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
