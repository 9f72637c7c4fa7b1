package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.Bytes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class DownloadWindowTest {
    private final MemoryBudget budget = new MemoryBudget(1 << 20);

    private static List<Integer> lengths(int blocks, int blockSize, int last) {
        List<Integer> l = new ArrayList<>(Collections.nCopies(blocks - 1, blockSize));
        l.add(last);
        return l;
    }

    private static List<Integer> drainFetches(DownloadWindow w) {
        List<Integer> out = new ArrayList<>();
        for (int i = w.nextFetch(); i >= 0; i = w.nextFetch()) {
            out.add(i);
        }
        return out;
    }

    @Test
    void fetches_areLimitedByParallelism_andReservedInTheBudget() {
        DownloadWindow w = new DownloadWindow(lengths(10, 1000, 1000), 1000, 1000, 3, budget);
        assertEquals(List.of(0, 1, 2), drainFetches(w));
        assertEquals(3000, budget.used());
        w.fetched(1, Bytes.wrap(new byte[1000]));
        assertEquals(List.of(3), drainFetches(w));
    }

    @Test
    void smallBlocks_fetchEnoughInParallelToCoverHalfTheWindow() {
        DownloadWindow w = new DownloadWindow(lengths(1000, 100, 100), 100, 20_000, 2, budget);
        assertEquals(100, drainFetches(w).size()); // 20 000 / 2 / 100
    }

    @Test
    void send_isInOrderAndWithinTheWindow_acksReleaseMemory() {
        DownloadWindow w = new DownloadWindow(lengths(4, 1000, 500), 1000, 2000, 4, budget);
        assertEquals(List.of(0, 1, 2, 3), drainFetches(w));
        Bytes b0 = Bytes.wrap(new byte[1000]), b1 = Bytes.wrap(new byte[1000]), b2 = Bytes.wrap(new byte[1000]),
                b3 = Bytes.wrap(new byte[500]);
        w.fetched(1, b1);
        assertNull(w.nextToSend()); // block 0 first
        w.fetched(0, b0);
        w.fetched(2, b2);
        w.fetched(3, b3);
        assertEquals(0, w.sendOffset());
        assertSame(b0, w.nextToSend());
        assertEquals(1000, w.sendOffset());
        assertSame(b1, w.nextToSend());
        assertNull(w.nextToSend()); // 2000 bytes unacknowledged: the window is full
        assertTrue(w.acknowledge(1000));
        assertEquals(2500, budget.used());
        assertSame(b2, w.nextToSend());
        assertNull(w.nextToSend()); // again 2000 bytes unacknowledged
        assertFalse(w.acknowledge(1000)); // nothing new
        assertTrue(w.acknowledge(3000));
        assertSame(b3, w.nextToSend());
        assertTrue(w.allSent());
        assertFalse(w.finished());
        assertTrue(w.acknowledge(99_999)); // never more than was sent
        assertTrue(w.finished());
        assertEquals(0, budget.used());
    }

    @Test
    void fetchesStayWithinAWindowPlusParallelBlocksAheadOfTheClient() {
        DownloadWindow w = new DownloadWindow(lengths(50, 1000, 1000), 1000, 2000, 2, budget);
        int fetched = 0;
        for (int round = 0; round < 10; round++) {
            for (int i : drainFetches(w)) {
                w.fetched(i, Bytes.wrap(new byte[1000]));
                fetched++;
            }
        }
        assertEquals(4, fetched); // ahead (2 blocks) + parallel (2), with nothing sent
    }

    @Test
    void noMemoryAndNothingHeld_isStarved_butWithBlocksHeldItWaits() {
        MemoryBudget small = new MemoryBudget(1500);
        DownloadWindow w = new DownloadWindow(lengths(3, 1000, 1000), 1000, 4000, 3, small);
        assertEquals(0, w.nextFetch());
        assertEquals(DownloadWindow.NONE, w.nextFetch()); // block 0 in flight will free memory
        w.fetched(0, Bytes.wrap(new byte[1000]));
        assertEquals(DownloadWindow.NONE, w.nextFetch()); // block 0 held until the client has it
        small.tryReserve(500);
        DownloadWindow starved = new DownloadWindow(lengths(3, 1000, 1000), 1000, 4000, 3, small);
        assertEquals(DownloadWindow.STARVED, starved.nextFetch());
        assertEquals(1000, starved.nextFetchLength());
        w.releaseAll();
        assertEquals(500, small.used());
    }

    @Test
    void releaseAll_releasesTheBytesOfBlocksFetchedButNotSent_notThoseHandedOut() {
        DownloadWindow w = new DownloadWindow(lengths(3, 1000, 1000), 1000, 1000, 3, budget);
        assertEquals(List.of(0, 1, 2), drainFetches(w));
        TrackedBytes b0 = new TrackedBytes(1000), b1 = new TrackedBytes(1000), b2 = new TrackedBytes(1000);
        w.fetched(0, b0);
        w.fetched(2, b2);
        assertSame(b0, w.nextToSend()); // handed out: the caller owns it now
        w.fetched(1, b1);
        assertNull(w.nextToSend()); // the window (1000 bytes) is full until the client acknowledges
        w.releaseAll();
        assertEquals(0, b0.releases, "the block handed out is the caller's to release");
        assertEquals(1, b1.releases);
        assertEquals(1, b2.releases);
        assertEquals(0, budget.used());
    }

    /** Heap bytes that count their releases. */
    static final class TrackedBytes extends Bytes {
        final Bytes inner;
        int releases;

        TrackedBytes(int length) {
            inner = Bytes.wrap(new byte[length]);
        }

        @Override public int length() { return inner.length(); }
        @Override public ByteBuffer nio() { return inner.nio(); }
        @Override public Bytes slice(int offset, int length) { return inner.slice(offset, length); }
        @Override public void release() { releases++; }
    }
}
