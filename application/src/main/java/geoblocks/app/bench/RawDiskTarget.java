package geoblocks.app.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The raw disk under the same directory as a bench target, as fio's {@code psync} engine with
 * {@code fsync=1} sees it: one file per stream, slot {@code i} at offset {@code i * blockSize}; a
 * write is one positional write followed by {@code force(false)} (fdatasync), a read one
 * positional read. No checksums, no rename: the floor our block store's writes stand on.
 */
final class RawDiskTarget implements StorageTarget {
    private final FileChannel[] files;
    private final Path[] paths;
    private final int blockSize;
    private final ThreadLocal<ByteBuffer> buffers;

    RawDiskTarget(Path dir, int streams, int blockSize) throws IOException {
        Files.createDirectories(dir);
        this.files = new FileChannel[streams];
        this.paths = new Path[streams];
        this.blockSize = blockSize;
        this.buffers = ThreadLocal.withInitial(() -> ByteBuffer.allocate(blockSize));
        for (int i = 0; i < streams; i++) {
            paths[i] = dir.resolve("raw-" + i + ".dat");
            files[i] = FileChannel.open(paths[i], StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }
    }

    @Override
    public String name() {
        return "raw";
    }

    @Override
    public void write(int stream, long slot, byte[] data) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(data);
        long at = slot * blockSize;
        while (b.hasRemaining()) {
            files[stream].write(b, at + b.position());
        }
        files[stream].force(false);
    }

    @Override
    public int read(int stream, long slot) throws IOException {
        ByteBuffer b = buffers.get().clear();
        long at = slot * blockSize;
        while (b.hasRemaining()) {
            if (files[stream].read(b, at + b.position()) < 0) {
                throw new IOException("slot " + slot + " of stream " + stream + " was never written");
            }
        }
        return b.position();
    }

    @Override
    public void close() throws IOException {
        for (int i = 0; i < files.length; i++) {
            files[i].close();
            Files.deleteIfExists(paths[i]);
        }
    }
}
