package geoblocks.blockstore.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Gets a download's bytes onto the disk while the rest of it arrives: after every {@link #EVERY}
 * bytes written to the file, a flush of the file's data ({@code fdatasync}) starts on a background
 * thread unless one is still running. The fsync that makes the finished file durable then finds
 * only the last few MiB dirty instead of the whole file (a 32 MiB download's final fsync took
 * 17-26 ms on our disk without it, 3-6 ms with it). The file is as durable as before when
 * {@link #finish} returns and the caller's fsync succeeds; nothing is skipped, the disk only
 * starts earlier. Not thread-safe: one download's thread calls it.
 */
final class FlushBehind {
    /** Bytes written between background flushes. */
    static final long EVERY = 4 << 20;

    /** One daemon thread for the flushes of every download of this JVM. */
    private static final ExecutorService SHARED = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "geoblocks-download-flush");
        t.setDaemon(true);
        return t;
    });

    private final FileChannel file;
    private final long every;
    private final Executor executor;
    private long unflushed;
    private CompletableFuture<Void> running;
    private int started;

    FlushBehind(FileChannel file) {
        this(file, EVERY, SHARED);
    }

    FlushBehind(FileChannel file, long every, Executor executor) {
        this.file = file;
        this.every = every;
        this.executor = executor;
    }

    /** {@code bytes} more were written to the file: starts a background flush when {@link #EVERY} have gathered. */
    void wrote(long bytes) {
        unflushed += bytes;
        if (unflushed < every || (running != null && !running.isDone())) {
            return;
        }
        unflushed = 0;
        started++;
        running = CompletableFuture.runAsync(() -> {
            try {
                file.force(false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, executor);
    }

    /** Background flushes started so far. */
    int started() {
        return started;
    }

    /** Waits for the background flush still running, if any; its failure is thrown here. */
    void finish() throws IOException {
        if (running == null) {
            return;
        }
        try {
            running.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the downloaded file was flushed", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            throw new IOException("flushing the downloaded file failed: " + cause.getMessage(), cause);
        } finally {
            running = null;
        }
    }
}
