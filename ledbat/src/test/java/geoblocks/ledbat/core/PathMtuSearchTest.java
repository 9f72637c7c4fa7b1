package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PathMtuSearchTest {
    /** UDP payload of LEDBAT's largest datagram (a 1,499-byte IPv4 packet). */
    static final int MAX = 1471;
    static final long MS = 1_000_000L;
    static final long TIMEOUT = 200 * MS;

    /**
     * A path that passes datagrams up to {@code pathMtu} bytes of UDP payload; above it the kernel
     * refuses them when {@code refuses} (the local interface is the narrow hop), else they are lost.
     */
    static final class Path {
        int pathMtu;
        final boolean refuses;
        long now;
        int probes;

        Path(int pathMtu, boolean refuses) {
            this.pathMtu = pathMtu;
            this.refuses = refuses;
        }

        /** Runs the search's probes over this path until it has nothing to probe (at most {@code most} probes). */
        void run(PathMtuSearch s, int most) {
            for (int n = 0; n < most; n++) {
                now += MS;
                int size = s.nextProbe(now);
                if (size == 0) {
                    return;
                }
                probes++;
                if (size <= pathMtu) {
                    now += MS;   // one round trip
                    s.probeAcked(size, now);
                } else if (refuses) {
                    s.refused(size, now);
                } else {
                    now += TIMEOUT;
                    s.expire(now, TIMEOUT);
                }
            }
            throw new AssertionError("search did not end within " + most + " probes: " + s);
        }
    }

    @Test
    void newSearch_startsAtBase_andProbesTheLargestSizeFirst() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        assertEquals(1200, s.confirmed());
        assertFalse(s.complete());
        assertEquals(MAX, s.nextProbe(0));
        assertEquals(0, s.nextProbe(1), "one probe outstanding at a time");
        s.probeAcked(MAX, 2 * MS);
        assertEquals(MAX, s.confirmed());
        assertTrue(s.complete());
        assertEquals(0, s.nextProbe(PathMtuSearch.RAISE_NANOS * 2), "at the largest size nothing is probed again");
    }

    @Test
    void search_on1500Path_convergesWithOneProbe() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1472, false);
        p.run(s, 50);
        assertEquals(MAX, s.confirmed());
        assertEquals(1, p.probes);
    }

    @Test
    void search_on1420Path_whereTheKernelRefuses_convergesTo1392() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1420 - 28, true);
        p.run(s, 50);
        assertEquals(1392, s.confirmed());
        assertTrue(s.complete());
        assertEquals(0, s.probesLost());
    }

    @Test
    void search_on1280Path_whereProbesAreLost_convergesTo1252() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1280 - 28, false);
        p.run(s, 100);
        assertEquals(1252, s.confirmed());
        assertTrue(s.complete());
        assertEquals(0, s.probesLost() % PathMtuSearch.MAX_PROBES, "each size failed after MAX_PROBES losses");
    }

    @Test
    void search_onIpv6MinimumPath_convergesTo1232_andOnBasePath_staysAtBase() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        new Path(1280 - 48, true).run(s, 50);
        assertEquals(1232, s.confirmed());
        PathMtuSearch t = new PathMtuSearch(MAX);
        new Path(1200, false).run(t, 100);
        assertEquals(1200, t.confirmed());
        assertTrue(t.complete());
    }

    @Test
    void lostProbe_isRetriedAtTheSameSize_andOnlyMaxProbesLossesFailIt() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        long now = 0;
        for (int i = 0; i < PathMtuSearch.MAX_PROBES - 1; i++) {
            assertEquals(MAX, s.nextProbe(now));
            s.expire(now + TIMEOUT - 1, TIMEOUT);
            assertEquals(MAX, s.probing(), "not lost before its timeout");
            now += TIMEOUT;
            s.expire(now, TIMEOUT);
            assertEquals(0, s.probing());
        }
        assertEquals(MAX, s.nextProbe(now), "two losses: the same size again");
        s.probeAcked(MAX, now + MS);   // the third passes: a lossy path, not a small MTU
        assertEquals(MAX, s.confirmed());
    }

    @Test
    void lateAck_ofAProbeDeclaredLost_stillConfirmsItsSize() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        int size = s.nextProbe(0);
        s.expire(TIMEOUT, TIMEOUT);
        s.probeAcked(size, TIMEOUT + MS);
        assertEquals(MAX, s.confirmed());
    }

    @Test
    void refusedProbe_failsItsSizeAtOnce_andTheNextProbeIsSmaller() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        assertEquals(MAX, s.nextProbe(0));
        s.refused(MAX, MS);
        assertEquals(1200, s.confirmed());
        int next = s.nextProbe(2 * MS);
        assertEquals(1200 + (MAX - 1 - 1200 + 1) / 2, next, "halfway between the base and below the refused size");
        assertEquals(1, s.refusals());
    }

    @Test
    void refusedData_atTheConfirmedSize_dropsToBase_andSearchesBelowIt() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        new Path(1472, false).run(s, 10);
        assertEquals(MAX, s.confirmed());
        // the interface's MTU went down to 1420 (a WireGuard tunnel took the route): data is refused
        s.refused(MAX, 10 * MS);
        assertEquals(1200, s.confirmed(), "back to the base at once");
        Path narrow = new Path(1392, true);
        narrow.now = 10 * MS;
        narrow.run(s, 50);
        assertEquals(1392, s.confirmed());
    }

    @Test
    void refusal_atOrBelowBase_changesNothing() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        s.refused(1100, 0);
        assertEquals(1200, s.confirmed());
        assertEquals(MAX, s.nextProbe(MS), "the search goes on");
    }

    @Test
    void mtuDroppingMidTransfer_largeLossesWhileTheBaseProbePasses_fallsBackAndSearchesAgain() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1472, false);
        p.run(s, 10);
        assertEquals(MAX, s.confirmed());
        // a route change: the path now takes 1,380 bytes and drops larger packets silently
        s.dataOutcome(2, false);
        assertTrue(s.complete(), "two losses are congestion as far as the search knows");
        s.dataOutcome(1, false);
        assertFalse(s.complete());
        long now = p.now;
        for (int i = 0; i < PathMtuSearch.MAX_PROBES; i++) {
            assertEquals(MAX, s.nextProbe(now), "first the confirmed size is probed again");
            now += TIMEOUT;
            s.expire(now, TIMEOUT);
        }
        assertEquals(MAX, s.confirmed(), "lost probes alone prove nothing");
        assertEquals(1200, s.nextProbe(now), "then a base-size probe checks for a black hole");
        s.probeAcked(1200, now + MS);
        assertEquals(1200, s.confirmed(), "the base passes, the confirmed size does not: back to the base");
        p.now = now + MS;
        assertEquals(1, s.blackHoles());
        p.pathMtu = 1380;
        p.now += 2 * MS;
        p.run(s, 100);
        assertEquals(1380, s.confirmed());
    }

    @Test
    void largeLosses_whenTheBaseProbeIsLostToo_areNoBlackHole() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1472, false);
        p.run(s, 10);
        s.dataOutcome(5, false);   // an outage: everything is lost
        long now = p.now;
        for (int i = 0; i < PathMtuSearch.MAX_PROBES; i++) {
            assertEquals(MAX, s.nextProbe(now));
            now += TIMEOUT;
            s.expire(now, TIMEOUT);
        }
        assertEquals(1200, s.nextProbe(now));
        s.expire(now + TIMEOUT, TIMEOUT);
        assertEquals(MAX, s.confirmed());
        assertTrue(s.complete());
        assertEquals(0, s.blackHoles());
    }

    @Test
    void windowLostToATimeout_whileTheConfirmedSizeStillPasses_isNoBlackHole() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1472, false);
        p.run(s, 10);
        s.dataOutcome(40, false);   // a retransmission timeout: the whole window counts as lost at once
        assertEquals(MAX, s.nextProbe(p.now), "the confirmed size is probed");
        s.probeAcked(MAX, p.now + MS);
        assertTrue(s.complete());
        assertEquals(MAX, s.confirmed());
        assertEquals(0, s.nextProbe(p.now + 2 * MS), "nothing more to check");
        assertEquals(0, s.blackHoles());
    }

    @Test
    void largeAck_betweenLosses_resetsTheCount_andEndsASuspicion() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1472, false);
        p.run(s, 10);
        s.dataOutcome(2, false);
        s.dataOutcome(0, true);
        s.dataOutcome(2, false);
        assertTrue(s.complete(), "never three in a row");
        s.dataOutcome(1, false);
        assertFalse(s.complete());
        int check = s.nextProbe(p.now);
        s.dataOutcome(0, true);   // a full-size packet passed while the check was out
        s.probeAcked(check, p.now + MS);
        assertEquals(MAX, s.confirmed());
        assertEquals(0, s.blackHoles());
    }

    @Test
    void raiseTimer_searchesUpwardsAgain_afterTenMinutesBelowTheLargestSize() {
        PathMtuSearch s = new PathMtuSearch(MAX);
        Path p = new Path(1392, true);
        p.run(s, 50);
        assertEquals(1392, s.confirmed());
        long ended = p.now;
        assertEquals(0, s.nextProbe(ended + PathMtuSearch.RAISE_NANOS - 10 * MS), "not before the raise timer");
        // the overlay is gone: the path takes 1,500-byte packets again
        p.pathMtu = 1472;
        p.now = ended + PathMtuSearch.RAISE_NANOS;
        p.run(s, 50);
        assertEquals(MAX, s.confirmed());
    }

    @Test
    void maxBelowBase_searchesNothing() {
        PathMtuSearch s = new PathMtuSearch(1100);
        assertEquals(1100, s.confirmed());
        assertTrue(s.complete());
        assertEquals(0, s.nextProbe(0));
    }

    @Test
    void badArguments_areRefusedWithTheirValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PathMtuSearch(1300, 1200, 1));
        assertTrue(e.getMessage().contains("1300"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PathMtuSearch(1200, 1400, 0));
    }
}
