package geoblocks.network.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ReplayWindowTest {

    /** check then update, as a receiver does after authenticating. */
    private static boolean accept(ReplayWindow w, long seq) {
        if (!w.check(seq)) {
            return false;
        }
        w.update(seq);
        return true;
    }

    @Test
    void check_seqZeroOnFreshWindow_isAccepted() {
        ReplayWindow w = new ReplayWindow();
        assertEquals(-1, w.highest());
        assertTrue(accept(w, 0));
        assertFalse(w.check(0));
        assertEquals(0, w.highest());
    }

    @Test
    void check_inOrder_allAccepted() {
        ReplayWindow w = new ReplayWindow(4096);
        for (long s = 0; s < 20_000; s++) {
            assertTrue(accept(w, s), "seq " + s);
        }
    }

    @Test
    void check_duplicate_isRejected() {
        ReplayWindow w = new ReplayWindow(4096);
        for (long s = 0; s < 10_000; s++) {
            assertTrue(accept(w, s));
            assertFalse(w.check(s), "duplicate " + s);
            if (s > 0) {
                assertFalse(w.check(s - 1), "duplicate " + (s - 1));
            }
        }
    }

    @Test
    void check_doesNotChangeState() {
        ReplayWindow w = new ReplayWindow(64);
        assertTrue(w.check(5));
        assertTrue(w.check(5));
        assertEquals(-1, w.highest());
    }

    @Test
    void check_outOfOrderWithinWindow_acceptedOnce() {
        ReplayWindow w = new ReplayWindow(4096);
        assertTrue(accept(w, 5000));
        assertTrue(accept(w, 4000));
        assertTrue(accept(w, 905)); // 5000 - 905 = 4095 < 4096: inside
        assertTrue(accept(w, 4999));
        assertFalse(w.check(4000));
        assertFalse(w.check(905));
        assertEquals(5000, w.highest());
    }

    @Test
    void check_shuffledWithinWindow_eachAcceptedExactlyOnce() {
        ReplayWindow w = new ReplayWindow(1024);
        long[] seqs = new long[1024];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = i;
        }
        Random rnd = new Random(42);
        for (int i = seqs.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long t = seqs[i];
            seqs[i] = seqs[j];
            seqs[j] = t;
        }
        for (long s : seqs) {
            assertTrue(accept(w, s), "seq " + s);
        }
        for (long s : seqs) {
            assertFalse(w.check(s), "replayed seq " + s);
        }
    }

    @Test
    void check_tooOld_isRejected() {
        ReplayWindow w = new ReplayWindow(4096);
        assertTrue(accept(w, 10_000));
        assertTrue(w.check(10_000 - 4095), "oldest inside the window");
        assertFalse(w.check(10_000 - 4096), "just outside the window");
        assertFalse(w.check(0));
        assertThrows(IllegalArgumentException.class, () -> w.update(10_000 - 4096));
    }

    @Test
    void check_bigJumpForward_clearsOldBitsAndRejectsOld() {
        ReplayWindow w = new ReplayWindow(4096);
        for (long s = 0; s <= 100; s++) {
            accept(w, s);
        }
        assertTrue(accept(w, 1_000_000));
        assertFalse(w.check(100), "far behind the jump");
        assertFalse(w.check(1_000_000));
        // Every slot inside the new window is fresh, even those that alias old bits in the ring.
        for (long s = 1_000_000 - 4095; s < 1_000_000; s++) {
            assertTrue(w.check(s), "seq " + s);
        }
        assertTrue(accept(w, 999_999));
        assertFalse(w.check(999_999));
    }

    @Test
    void check_jumpOfOneBlockAtATime_keepsBitsInsideWindow() {
        ReplayWindow w = new ReplayWindow(128);
        assertTrue(accept(w, 63));
        assertTrue(accept(w, 130)); // 130 - 63 = 67 < 128: 63 still tracked
        assertFalse(w.check(63));
        assertTrue(w.check(64));
        assertTrue(accept(w, 191)); // 191 - 63 = 128: 63 now outside
        assertFalse(w.check(63));
        assertFalse(w.check(130));
        assertTrue(w.check(64));
    }

    @Test
    void check_negativeSeq_isRejected() {
        ReplayWindow w = new ReplayWindow();
        assertFalse(w.check(-1));
        assertFalse(w.check(Long.MIN_VALUE));
        assertThrows(IllegalArgumentException.class, () -> w.update(-1));
    }

    @Test
    void check_nearLongMax_works() {
        ReplayWindow w = new ReplayWindow();
        assertTrue(accept(w, Long.MAX_VALUE - 1));
        assertTrue(accept(w, Long.MAX_VALUE));
        assertFalse(w.check(Long.MAX_VALUE - 1));
        assertTrue(w.check(Long.MAX_VALUE - 2));
    }

    @Test
    void constructor_invalidWidth_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ReplayWindow(100));
        assertTrue(e.getMessage().contains("100"));
        assertThrows(IllegalArgumentException.class, () -> new ReplayWindow(32));
        assertThrows(IllegalArgumentException.class, () -> new ReplayWindow(0));
        assertThrows(IllegalArgumentException.class, () -> new ReplayWindow(-4096));
    }
}
