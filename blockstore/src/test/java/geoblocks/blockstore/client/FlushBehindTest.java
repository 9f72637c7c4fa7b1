package geoblocks.blockstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a download's background flushes start, that they never overlap, and that a failed one fails the download. */
class FlushBehindTest {
    private static final long EVERY = 1000;

    @TempDir
    Path dir;

    /** Runs nothing until the test says so: a flush "still running" is one left in the queue. */
    private static final class Manual implements Executor {
        final Queue<Runnable> queued = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            queued.add(r);
        }

        void runAll() {
            while (!queued.isEmpty()) {
                queued.poll().run();
            }
        }
    }

    private FileChannel open() throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve("out.part"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        ch.write(ByteBuffer.wrap(new byte[4096]));
        return ch;
    }

    @Test
    void aFlushStartsOnceEveryThresholdOfBytes_andNotBefore() throws IOException {
        Manual exec = new Manual();
        try (FileChannel ch = open()) {
            FlushBehind f = new FlushBehind(ch, EVERY, exec);
            f.wrote(600);
            assertEquals(0, f.started(), "600 of 1000 bytes: no flush yet");
            f.wrote(400);
            assertEquals(1, f.started(), "1000 bytes: one flush");
            exec.runAll();
            f.wrote(999);
            assertEquals(1, f.started(), "the count restarts after a flush");
            f.wrote(1);
            assertEquals(2, f.started());
            exec.runAll();
            f.finish();
        }
    }

    @Test
    void aFlushStillRunning_isNotJoinedByASecond_theBytesWaitForTheNext() throws IOException {
        Manual exec = new Manual();
        try (FileChannel ch = open()) {
            FlushBehind f = new FlushBehind(ch, EVERY, exec);
            f.wrote(1000);
            f.wrote(5000);
            assertEquals(1, f.started(), "one flush at a time");
            assertEquals(1, exec.queued.size());
            exec.runAll();
            f.wrote(1);
            assertEquals(2, f.started(), "the bytes written during the first flush are flushed next");
            exec.runAll();
            f.finish();
        }
    }

    @Test
    void finish_withNoFlushStarted_returnsAtOnce() throws IOException {
        try (FileChannel ch = open()) {
            FlushBehind f = new FlushBehind(ch, EVERY, r -> {
                throw new AssertionError("no flush expected");
            });
            f.wrote(999);
            f.finish();
            assertEquals(0, f.started());
        }
    }

    @Test
    void aFailedFlush_failsFinishNamingTheCause() throws IOException {
        Manual exec = new Manual();
        FileChannel ch = open();
        FlushBehind f = new FlushBehind(ch, EVERY, exec);
        f.wrote(EVERY);
        ch.close(); // the flush then fails as a disk would: force throws
        exec.runAll();
        IOException e = assertThrows(IOException.class, f::finish);
        assertTrue(e.getMessage().startsWith("flushing the downloaded file failed"), e.getMessage());
        f.finish(); // reported once: a second finish has nothing running
    }

    @Test
    void theSharedThread_flushesARealFile() throws IOException {
        try (FileChannel ch = open()) {
            FlushBehind f = new FlushBehind(ch);
            f.wrote(FlushBehind.EVERY);
            assertEquals(1, f.started());
            f.finish(); // waits for the flush on the shared thread; it succeeds on a real file
        }
    }
}
