package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NetBenchReceiverTest {
    @Test
    void evenlySpacedArrivals_haveNoJitter_whateverTheClockOffset() {
        NetBenchReceiver r = new NetBenchReceiver();
        for (int i = 0; i < 10; i++) {
            r.arrived(0, 1000, 5_000_000_000L + i * 1_000_000L, 77 + i * 1_000_000L);
        }
        assertEquals(0, r.jitterNanos());
        assertEquals(10, r.packets());
        assertEquals(10_000, r.bytes());
        assertEquals(9_000_000, r.spanNanos());
    }

    @Test
    void jitter_followsRfc3550_oneSixteenthOfEachDeviation() {
        NetBenchReceiver r = new NetBenchReceiver();
        r.arrived(0, 100, 0, 0);
        r.arrived(0, 100, 1_000_000, 1_160_000); // D = 160 us: J = 160/16 = 10 us
        assertEquals(10_000, r.jitterNanos());
        r.arrived(0, 100, 2_000_000, 2_160_000); // D = 0: J = 10 - 10/16 = 9.375 us
        assertEquals(9_375, r.jitterNanos());
    }

    @Test
    void streamBytes_areCumulativePerStream() {
        NetBenchReceiver r = new NetBenchReceiver();
        assertEquals(100, r.arrived(0, 100, 0, 0));
        assertEquals(50, r.arrived(1, 50, 0, 1));
        assertEquals(300, r.arrived(0, 200, 0, 2));
        assertEquals(0, new NetBenchReceiver().spanNanos());
    }

    @Test
    void pacer_followsTheRateLine_capsBurstsAndStopsAtTheDuration() {
        // 1200-byte datagrams at 9.6 Mbit/s = 1000 per second, for 1 s from t = 5 s
        UdpPacer p = new UdpPacer(9_600_000, 1200, 5_000_000_000L, 1_000_000_000L, 100);
        assertEquals(0, p.due(4_000_000_000L));
        assertEquals(10, p.due(5_010_000_000L));
        assertEquals(0, p.due(5_010_500_000L));
        assertEquals(100, p.due(5_500_000_000L)); // 490 due, burst cap 100
        assertEquals(100, p.due(5_500_000_001L));
        assertTrue(!p.finished(5_999_999_999L) && p.finished(6_000_000_000L));
        int rest = 0;
        for (long t = 6_000_000_000L; t < 7_000_000_000L; t += 1_000_000L) {
            rest += p.due(t);
        }
        assertEquals(1000, p.sent()); // never more than the duration's worth
        assertEquals(790, rest);
        assertThrows(IllegalArgumentException.class, () -> new UdpPacer(0, 1200, 0, 1, 1));
    }

    @Test
    void limits_nameWhatIsOutOfBounds() {
        assertNull(NetBenchLimits.problem("tcp", 4, 1 << 20, 0, 0, 0));
        assertNull(NetBenchLimits.problem("udp", 1, 0, 1_000_000, 1000, 1200));
        assertTrue(NetBenchLimits.problem("quic", 1, 1, 0, 0, 0).contains("'quic'"));
        assertTrue(NetBenchLimits.problem("tcp", 17, 1, 0, 0, 0).contains("was 17"));
        assertTrue(NetBenchLimits.problem("ledbat", 1, 0, 0, 0, 0).contains("was 0"));
        assertTrue(NetBenchLimits.problem("udp", 1, 0, 999, 1000, 1200).contains("999 bit/s"));
        assertTrue(NetBenchLimits.problem("udp", 1, 0, 1_000_000, 50, 1200).contains("was 50"));
        assertTrue(NetBenchLimits.problem("udp", 1, 0, 1_000_000, 1000, 1401).contains("was 1401"));
    }
}
