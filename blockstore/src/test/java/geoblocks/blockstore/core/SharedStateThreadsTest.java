package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import geoblocks.blockstore.core.liveness.HeardReports;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The node state two components share besides the manifests, hammered from two threads: the transfer
 * memory ({@link MemoryBudget}), the files in flight ({@link InFlightFiles}), the transfer counters
 * ({@link TransferCounters}) and the decisions of which peer signals to send ({@link HeardReports},
 * {@link ForegroundHold}). Each thread's
 * work has one outcome whatever the interleaving, which the shared object must add up to exactly.
 */
class SharedStateThreadsTest {
    private static final int ROUNDS = 200_000;
    /** The budget's rounds are short: more of them, so that the two threads overlap for long. */
    private static final int BUDGET_ROUNDS = 5_000_000;

    private interface Work {
        void run(int thread);
    }

    /** Runs {@code work} on two threads started together; returns what either threw. */
    private static List<Throwable> onTwoThreads(Work work) throws InterruptedException {
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                try {
                    go.await();
                    work.run(thread);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        return failures;
    }

    @Test
    void budget_twoThreadsReservingAndReleasing_neverLoseAByte() throws InterruptedException {
        MemoryBudget budget = new MemoryBudget(2 * 4096);
        AtomicInteger refused = new AtomicInteger();
        List<Throwable> failures = onTwoThreads(t -> {
            for (int i = 0; i < BUDGET_ROUNDS; i++) {
                if (budget.tryReserve(4096)) { // two threads, one reservation each at most: it always fits
                    budget.release(4096);
                } else {
                    refused.incrementAndGet();
                }
                budget.reserveHeld(1);
                budget.release(1);
            }
        });
        assertEquals(List.of(), failures);
        assertEquals(0, refused.get());
        assertEquals(0, budget.used());
    }

    @Test
    void inFlight_twoThreadsHoldingAndReleasingOneFile_endReleased_andTouched() throws InterruptedException {
        long window = 1_000;
        InFlightFiles files = new InFlightFiles(window);
        List<Throwable> failures = onTwoThreads(t -> {
            for (int i = 0; i < ROUNDS; i++) {
                files.hold("shared");
                files.hold("own-" + t);
                files.touch("touched-" + t + "-" + (i % 64), i);
                files.release("own-" + t, i);
                files.release("shared", i);
            }
        });
        assertEquals(List.of(), failures);
        assertEquals(0, files.held());
        long last = ROUNDS - 1;
        assertTrue(files.inFlight("shared", last + window - 1));
        assertFalse(files.inFlight("shared", last + window));
        assertTrue(files.inFlight("own-1", last));
    }

    @Test
    void counters_twoThreadsCounting_addUpToEveryByte() throws InterruptedException {
        TransferCounters counters = new TransferCounters();
        List<Throwable> failures = onTwoThreads(t -> {
            for (int i = 0; i < ROUNDS; i++) {
                counters.tcpSent(3, i % 2 == 0);
                counters.tcpReceived(5, false);
                counters.ledbatSent(7);
            }
        });
        assertEquals(List.of(), failures);
        assertEquals(2L * 3 * ROUNDS, counters.tcpSent());
        assertEquals(2L * 3 * (ROUNDS / 2), counters.tcpBackgroundSent());
        assertEquals(2L * 5 * ROUNDS, counters.tcpReceived());
        assertEquals(2L * 7 * ROUNDS, counters.ledbatSent());
    }

    /** Both threads hear every peer at the same instant: one of them, not both, reports each peer. */
    @Test
    void heardReports_twoThreadsHearingTheSamePeers_reportEachPeerOnce() throws InterruptedException {
        HeardReports reports = new HeardReports(HeardReports.DEFAULT_SPACING_NANOS);
        AtomicInteger reported = new AtomicInteger();
        List<Throwable> failures = onTwoThreads(t -> {
            for (int i = 0; i < ROUNDS; i++) {
                if (reports.shouldReport("peer-" + i, 0)) {
                    reported.incrementAndGet();
                }
            }
        });
        assertEquals(List.of(), failures);
        assertEquals(ROUNDS, reported.get());
    }

    /** Both threads move foreground data with every peer at one instant: the hold is told once per peer. */
    @Test
    void foregroundHold_twoThreadsWithTheSamePeers_tellEachHoldOnce() throws InterruptedException {
        ForegroundHold hold = new ForegroundHold(ForegroundHold.DEFAULT_HOLD_NANOS);
        AtomicInteger told = new AtomicInteger();
        List<Throwable> failures = onTwoThreads(t -> {
            for (int i = 0; i < ROUNDS; i++) {
                if (hold.onForeground("peer-" + i, 0, 1000) >= 0) {
                    told.incrementAndGet();
                }
            }
        });
        assertEquals(List.of(), failures);
        assertEquals(ROUNDS, told.get());
    }
}
