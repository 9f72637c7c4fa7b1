package geoblocks.network.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.net.NetAddress;
import org.junit.jupiter.api.Test;

class ConnectFailuresTest {
    private static final long S = 1_000_000_000L;
    private static final NetAddress DUBLIN = NetAddress.of("10.0.0.2", 47100);
    private static final NetAddress MUMBAI = NetAddress.of("10.0.0.4", 47100);

    /** A peer down for two minutes, dialled every second: one warning, a summary a minute, one line when it is back. */
    @Test
    void aPeerThatStaysDown_isWarnedOnce_summedUpPerInterval_andEndsWithOneLine() {
        ConnectFailures f = new ConnectFailures(60 * S);
        int logged = 0;
        for (int t = 0; t <= 120; t++) {
            String line = f.failed(DUBLIN, "cannot connect to 10.0.0.2:47100: Connection refused", t % 2, t * S);
            if (line != null) {
                logged++;
                if (t == 0) {
                    assertEquals("cannot connect to 10.0.0.2:47100: Connection refused; 0 queued message(s) dropped", line);
                } else {
                    assertEquals("still cannot connect to 10.0.0.2:47100: 60 more attempt(s) failed in the last 60 s, "
                            + (t + 1) + " since " + t + " s ago (last: cannot connect to 10.0.0.2:47100: Connection refused; "
                            + (t % 2) + " queued message(s) dropped)", line);
                }
            }
        }
        assertEquals(3, logged, "the first failure, and a summary at 60 s and at 120 s, of 121 failures");
        assertEquals("connected to 10.0.0.2:47100 again after 121 failed attempt(s) over 125 s", f.connected(DUBLIN, 125 * S));
        assertNull(f.connected(DUBLIN, 126 * S), "a connection with no failure before says nothing");
        assertEquals("cannot connect to 10.0.0.2:47100: x; 2 queued message(s) dropped", f.failed(DUBLIN, "cannot connect to"
                + " 10.0.0.2:47100: x", 2, 127 * S), "a new episode starts whole");
    }

    @Test
    void peersAreCountedApart() {
        ConnectFailures f = new ConnectFailures(60 * S);
        assertEquals("a; 1 queued message(s) dropped", f.failed(DUBLIN, "a", 1, 0));
        assertEquals("b; 0 queued message(s) dropped", f.failed(MUMBAI, "b", 0, S));
        assertNull(f.failed(DUBLIN, "a", 0, 2 * S));
        assertEquals("connected to 10.0.0.4:47100 again after 1 failed attempt(s) over 2 s", f.connected(MUMBAI, 3 * S));
        assertNull(f.failed(DUBLIN, "a", 0, 4 * S));
    }

    @Test
    void aSummaryIntervalMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new ConnectFailures(0));
    }
}
