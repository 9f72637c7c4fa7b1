package geoblocks.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Files that survive a power cut once written: a replacement is written to a temporary file, fsynced,
 * renamed over the target and the directory fsynced, so after a crash the file holds the old bytes
 * or the new ones, never an empty or torn file (a rename alone is ordered before the data reaches
 * the disk on common file systems; LazyFS's power cuts showed an empty node key without the fsyncs).
 */
public final class DurableFile {
    private DurableFile() {}

    /** Replaces {@code file}'s content with {@code bytes} durably (see above); creates its directory. */
    public static void replace(Path file, byte[] bytes) throws IOException {
        replace(file, bytes, null);
    }

    /** As {@link #replace(Path, byte[])}, the temporary file given {@code prepare} (e.g. owner-only permissions) first. */
    static void replace(Path file, byte[] bytes, IoConsumer<Path> prepare) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            if (prepare != null) {
                prepare.accept(tmp);
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Makes {@code file}'s written bytes durable (fsync), e.g. a spooled part before it is acknowledged. */
    public static void sync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Makes the entries of {@code dir} (a file created or renamed into it) durable: fsync of the directory. */
    public static void syncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /** An action on a path that may fail with an IOException. */
    @FunctionalInterface
    interface IoConsumer<T> {
        void accept(T t) throws IOException;
    }
}
