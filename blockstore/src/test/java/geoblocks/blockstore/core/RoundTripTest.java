package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** NTP's delay from a pong's times, what stamps' errors may do to it, and which echoes measure nothing. */
class RoundTripTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    @Test
    void nanos_isTheWholeRoundTripLessTheHold() {
        assertEquals(50 * US, RoundTrip.nanos(1 * US, 71 * US, 20 * US));
        assertEquals(70 * US, RoundTrip.nanos(1 * US, 71 * US, -1), "no hold told: taken whole");
        assertEquals(251 * MS, RoundTrip.nanos(0, 251 * MS, -1));
    }

    /**
     * Loopback between a restarted (cold) node and a warm one: the pinger's send stamp is its stamp plus the
     * sealing it expects (the shortest of its last four, 0.30 ms) but this sealing took 0.12 ms, so the stamp is
     * 0.18 ms after the ping left; the answering node's hold is 0.05 ms long the same way; the path took 0.1 ms.
     */
    @Test
    void nanos_belowZeroByTheStampsErrors_isZero_notNothing() {
        long left = 0;
        long sentStamp = left + 180 * US;
        long holdTold = 60 * US + 50 * US; // held 60 us, its stamp 50 us late
        long arrived = left + 100 * US + 60 * US;
        assertEquals(0, RoundTrip.nanos(sentStamp, arrived, holdTold));
        assertEquals(0, RoundTrip.nanos(sentStamp, sentStamp - 20 * US, -1), "read 'before' it was sent: 0");
    }

    @Test
    void nanos_echoOfAStalePing_orTimesNotOurs_measuresNothing() {
        assertEquals(RoundTrip.NONE, RoundTrip.nanos(0, RoundTrip.MAX_NANOS + 1, -1), "a ping older than a minute");
        assertEquals(RoundTrip.MAX_NANOS, RoundTrip.nanos(0, RoundTrip.MAX_NANOS, -1));
        assertEquals(RoundTrip.NONE, RoundTrip.nanos(10 * MS, 0, -1), "sent 10 ms after its answer came: not our stamp");
        assertEquals(RoundTrip.NONE, RoundTrip.nanos(0, 2 * MS, 9 * MS), "a hold 7 ms longer than the round trip");
        assertEquals(0, RoundTrip.nanos(0, 2 * MS, 2 * MS + RoundTrip.MAX_STAMP_ERROR_NANOS));
    }

    /** A peer whose every answer comes out below zero is still measured: up after three, as any other. */
    @Test
    void everyAnswerBelowZero_stillMakesThePeerUp() {
        RttEstimator e = new RttEstimator(10, 5_000 * MS, RttSpikeFilter.defaults());
        for (int i = 0; i < 3; i++) {
            long at = i * 1_000 * MS;
            long rtt = RoundTrip.nanos(at + 180 * US, at + 160 * US, 110 * US);
            assertEquals(0, rtt);
            e.onSample(rtt / 1e6, at + 160 * US);
        }
        assertTrue(e.isUp(2_000 * MS));
        assertEquals(0, e.estimateMs());
    }
}
