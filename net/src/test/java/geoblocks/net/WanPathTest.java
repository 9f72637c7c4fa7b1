package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WanPathTest {
    private static final long MS = 1_000_000;

    @Test
    void noLoss_delaysByHalfTheRtt_andDropsNothing() {
        WanPath p = new WanPath(252, 0, false, new Random(1));
        for (int i = 0; i < 1000; i++) {
            assertEquals(i * MS + 126 * MS, p.releaseNanos(i * MS, 1400));
        }
        assertEquals(0, p.dropped());
        assertFalse(p.transparent());
    }

    @Test
    void datagrams_atTwoPercent_loseAboutTwoPercent() {
        WanPath p = new WanPath(252, 0.02, false, new Random(7));
        int lost = 0;
        for (int i = 0; i < 100_000; i++) {
            if (p.releaseNanos(i, 1400) < 0) {
                lost++;
            }
        }
        assertEquals(lost, p.dropped());
        assertTrue(lost > 1800 && lost < 2200, "lost " + lost + " of 100000");
    }

    @Test
    void datagrams_sameSeed_sameDrops_otherSeed_otherDrops() {
        assertEquals(drops(3), drops(3));
        assertNotEquals(drops(3), drops(4));
    }

    private static List<Integer> drops(long seed) {
        WanPath p = new WanPath(122, 0.02, false, new Random(seed));
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            if (p.releaseNanos(i * MS, 1400) < 0) {
                out.add(i);
            }
        }
        return out;
    }

    @Test
    void tcp_withLoss_neverDrops_andCarriesBytesAtTheMathisRate() {
        WanPath p = new WanPath(252, 0.02, true, new Random(1));
        double rate = WanPath.tcpBytesPerSecond(252, 0.02);
        assertEquals(1448 / 0.252 * Math.sqrt(75), rate, 1e-6);
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = p.releaseNanos(0, 1 << 20); // ten 1 MiB messages handed in at once
        }
        assertEquals(0, p.dropped());
        assertEquals(10, p.delivered());
        double expectedS = 10.0 * (1 << 20) / rate + 0.126;
        assertEquals(expectedS, last / 1e9, 1e-6);
        // an idle path starts again from now, not from the last busy time
        long later = 1000L * 1_000_000_000L;
        assertEquals(later + Math.round(100 * 1e9 / rate) + 126 * MS, p.releaseNanos(later, 100), 2);
    }

    @Test
    void releases_neverGoBackwards() {
        WanPath p = new WanPath(160, 0.02, true, new Random(1));
        long prev = Long.MIN_VALUE;
        Random sizes = new Random(5);
        for (int i = 0; i < 1000; i++) {
            long r = p.releaseNanos(i * MS / 10, sizes.nextInt(100_000));
            assertTrue(r >= prev);
            prev = r;
        }
    }

    @Test
    void withinOneRegion_lossAndPacingDoNotApply() {
        WanPath udp = new WanPath(0, 0.5, false, new Random(1));
        WanPath tcp = new WanPath(0, 0.5, true, new Random(1));
        for (int i = 0; i < 100; i++) {
            assertEquals(i, udp.releaseNanos(i, 1400));
            assertEquals(i, tcp.releaseNanos(i, 1 << 20));
        }
        assertTrue(udp.transparent() && tcp.transparent());
    }

    @Test
    void badArguments_areRefusedWithTheValue() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WanPath(10, 1.0, false, new Random()))
                .getMessage().contains("was 1.0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WanPath(-1, 0, false, new Random()))
                .getMessage().contains("was -1.0"));
        assertThrows(IllegalArgumentException.class, () -> new WanPath(10, Double.NaN, false, new Random()));
        assertThrows(IllegalArgumentException.class, () -> new WanPath(10, 0, false, new Random()).releaseNanos(0, -1));
        assertThrows(IllegalArgumentException.class, () -> WanPath.tcpBytesPerSecond(0, 0.02));
    }
}
