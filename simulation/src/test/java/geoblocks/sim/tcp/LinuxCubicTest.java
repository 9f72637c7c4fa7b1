package geoblocks.sim.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Linux CUBIC's HyStart and growth rules, driven with explicit times (ns) and RTT samples. */
class LinuxCubicTest {
    private static final int MSS = 1448;
    private static final long MS = 1_000_000;

    /** Slow start from 10 to {@code segments} with ACKs 5 ms apart and a constant 100 ms RTT. */
    private static long grow(LinuxCubic c, long now, int segments) {
        long una = 0;
        while (c.cwnd() < (long) segments * MSS) {
            una += MSS;
            c.onRttSample(now, 100 * MS, una, una + c.cwnd());
            c.onAck(now, MSS, 100 * MS);
            now += 5 * MS;
        }
        return now;
    }

    @Test
    void hystartDelay_roundMinimumRttAboveMinPlusAnEighth_endsSlowStart() {
        LinuxCubic c = new LinuxCubic(MSS, 10);
        long now = grow(c, 0, 20);                 // delay_min 100 ms, rounds of spaced-out ACKs (no train)
        assertTrue(c.cwnd() < c.ssthresh());
        long una = 10L * MSS * 100;                // a new round: snd_una beyond the round's end
        for (int i = 0; i < 8; i++) {              // the first 8 samples of the round set its minimum
            c.onRttSample(now += 5 * MS, 113 * MS, una += MSS, una + c.cwnd());
        }
        assertTrue(c.cwnd() < c.ssthresh(), "113 ms < 100 + clamp(100 / 8, 4, 16) = 112.5? no: still below");
        c.onRttSample(now += 5 * MS, 113 * MS, una += MSS, una + c.cwnd());
        assertEquals("delay", c.hystartExit());
        assertEquals(c.cwnd(), c.ssthresh());
    }

    @Test
    void hystartAckTrain_acksNoMoreThan2msApartForHalfTheMinRtt_endsSlowStart() {
        LinuxCubic c = new LinuxCubic(MSS, 10);
        long now = grow(c, 0, 80);                 // 80 segments: a round's ACKs can span 80 ms
        long una = 10L * MSS * 100;
        long roundStart = now;
        int i = 0;
        for (; i <= 60 && c.hystartExit().isEmpty(); i++) {   // 1 ms apart, RTT unchanged
            c.onRttSample(roundStart + i * MS, 100 * MS, una += MSS, una + c.cwnd());
        }
        assertEquals("ack-train", c.hystartExit());
        assertEquals(52, i, "the train must span more than (100 + 1) / 2 ms");
        assertEquals(c.cwnd(), c.ssthresh());
    }

    @Test
    void beforeTheFirstLoss_growsAtLeastFivePercentPerRtt_andALossKeeps717Of1024() {
        LinuxCubic c = new LinuxCubic(MSS, 10);
        long now = grow(c, 0, 100);
        c.onFastRetransmit(now, c.cwnd());
        assertEquals(100L * 717 / 1024 * MSS, c.ssthresh(), "a loss keeps 717/1024 of the window");
        LinuxCubic d = new LinuxCubic(MSS, 10);
        long t = grow(d, 0, 100);
        // HyStart by delay (no loss yet): congestion avoidance with lastMaxCwnd = 0
        long una = 1_000_000;
        for (int i = 0; i < 9; i++) {
            d.onRttSample(t += MS, 130 * MS, una += MSS, una + d.cwnd());
        }
        assertEquals("delay", d.hystartExit());
        long before = d.cwnd();
        for (long acked = 0; acked < before; acked += MSS) {   // one RTT's worth of ACKs within 100 ms
            d.onAck(t += MS, MSS, 100 * MS);
        }
        assertTrue(d.cwnd() >= before * 1.05 - MSS, "5 % per RTT before the first loss: " + before + " -> " + d.cwnd());
    }
}
