package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The node state two components would share besides the manifests, hammered from two threads: the
 * transfer memory ({@link MemoryBudget}) and the files in flight ({@link InFlightFiles}). Each thread's
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
}
