package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SlidingMinimumTest {
    @Test
    void minOver_matchesABruteForceMinimum_onRandomSeries() {
        Random r = new Random(7);
        SlidingMinimum m = new SlidingMinimum();
        long keep = 50;
        long[] t = new long[2000];
        long[] v = new long[2000];
        long now = 0;
        for (int i = 0; i < t.length; i++) {
            now += r.nextInt(3);
            t[i] = now;
            v[i] = r.nextInt(100);
            m.add(now, v[i], keep);
            long window = r.nextInt((int) keep + 1);
            long expected = Long.MAX_VALUE;
            for (int j = i; j >= 0 && now - t[j] <= window; j--) {
                expected = Math.min(expected, v[j]);
            }
            assertEquals(expected, m.minOver(now, window), "sample " + i + ", window " + window);
        }
    }
}
