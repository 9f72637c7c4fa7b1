package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.RttTable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServiceLatencyTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1000 * MS;
    /** From dublin: mumbai 122 ms, saopaulo 184 ms. */
    private static final RttTable RTT = new RttTable("dublin", Map.of("mumbai", 122.0, "saopaulo", 184.0), Set.of("seoul"));
    private static final List<String> REPLICAS = List.of("saopaulo", "mumbai", "dublin");

    @Test
    void noSamples_ranksByRtt_thisNodeFirst() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 10 * S);
        assertEquals(List.of("dublin", "mumbai", "saopaulo"), s.rank(REPLICAS, RTT, 0));
    }

    @Test
    void overloadedNearReplica_dropsBehindAFartherIdleOne() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 10 * S);
        long now = 0;
        for (int i = 0; i < 10; i++) {
            now += 100 * MS;
            s.firstByte("mumbai", 900 * MS, now); // queued behind other readers
            s.firstByte("dublin", 2 * MS, now);
        }
        assertEquals(900.0, s.scoreMs("mumbai", RTT, now), 1e-9);
        assertEquals(List.of("dublin", "saopaulo", "mumbai"), s.rank(REPLICAS, RTT, now));
    }

    @Test
    void ewma_weighsNewSamples_andForgetsMoreAfterAPause() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 5 * S);
        s.firstByte("mumbai", 200 * MS, 0);
        s.firstByte("mumbai", 600 * MS, 1);
        assertEquals(300.0, s.scoreMs("mumbai", RTT, 1), 1e-6); // 0.25 * 600 + 0.75 * 200
        s.firstByte("mumbai", 130 * MS, 50 * S); // ten half-lives later the old value weighs 0.75 / 1024
        assertEquals(130.1, s.scoreMs("mumbai", RTT, 50 * S), 0.1);
    }

    @Test
    void excessOverRtt_halvesEveryHalfLife_untilTheReplicaIsFirstAgain() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 5 * S);
        s.firstByte("mumbai", 900 * MS, 0); // mumbai's RTT is 122 ms: 778 ms of excess
        assertEquals(122 + 778 / 2.0, s.scoreMs("mumbai", RTT, 5 * S), 1e-6);
        assertEquals(List.of("dublin", "saopaulo", "mumbai"), s.rank(REPLICAS, RTT, 15 * S)); // 122 + 97 > 184
        assertEquals(List.of("dublin", "mumbai", "saopaulo"), s.rank(REPLICAS, RTT, 20 * S)); // 122 + 49 < 184
    }

    @Test
    void failure_countsAsALateFirstByte() {
        ServiceLatency s = new ServiceLatency(1, 64, 10 * S);
        s.failed("mumbai", 15 * S, 0);
        assertEquals(List.of("dublin", "saopaulo", "mumbai"), s.rank(REPLICAS, RTT, 0));
    }

    @Test
    void hedgeDelay_isAFactorOfTheMedianOfTheSameSizeClass_onceThereAreEnoughSamples() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 10 * S);
        s.firstByte("mumbai", 900 * MS, 0);
        assertEquals(2 * 122 * MS + 50 * MS + 100_000, s.hedgeDelayNanos("mumbai", 1000, RTT, 0),
                "guess: 2 x RTT + 50 ms + 100 ms/MB, whatever the (loaded) score");
        assertEquals(2 * 184 * MS + 50 * MS + 100 * (1 << 20), s.hedgeDelayNanos("saopaulo", 1 << 20, RTT, 0));
        for (int i = 1; i <= 20; i++) {
            s.completed("mumbai", 1 << 20, (200 + i) * MS, i); // 201..220 ms for 1 MiB
            s.completed("mumbai", 1000, 5 * S, i); // another size class: ignored
        }
        assertEquals(262_500_000L, s.hedgeDelayNanos("mumbai", (1 << 20) - 5, RTT, 20)); // 1.25 x 210 ms (10th of 20)
        assertEquals(6_250_000_000L, s.hedgeDelayNanos("mumbai", 900, RTT, 20));
        for (int i = 21; i <= 25; i++) {
            s.completed("mumbai", 1 << 20, 900 * MS, i); // a burst: a fifth of the fetches slow
        }
        assertEquals(266_250_000L, s.hedgeDelayNanos("mumbai", 1 << 20, RTT, 25), "the burst hardly moves it (1.25 x 213)");
    }

    @Test
    void cancelledLosers_countAsLowerBounds_soTheMedianDoesNotFallToTheWinners() {
        ServiceLatency s = new ServiceLatency(0.25, 64, 10 * S);
        for (int i = 0; i < 8; i++) {
            s.completed("mumbai", 4096, 130 * MS, i);
        }
        assertEquals(162_500_000L, s.hedgeDelayNanos("mumbai", 4096, RTT, 8));
        for (int i = 0; i < 10; i++) { // hedged ten times: mumbai had taken 400 ms when the other replica won
            s.cancelled("mumbai", 4096, 400 * MS, 9 + i);
        }
        assertEquals(500 * MS, s.hedgeDelayNanos("mumbai", 4096, RTT, 20)); // 1.25 x 400 ms (9th of 18)
    }

    @Test
    void window_keepsTheLastSamplesOnly() {
        ServiceLatency s = new ServiceLatency(0.25, 8, 10 * S);
        for (int i = 0; i < 8; i++) {
            s.completed("mumbai", 4096, 900 * MS, i);
        }
        for (int i = 8; i < 16; i++) {
            s.completed("mumbai", 4096, 100 * MS, i);
        }
        assertEquals(125 * MS, s.hedgeDelayNanos("mumbai", 4096, RTT, 16));
    }

    @Test
    void badSettings_refused() {
        assertThrows(IllegalArgumentException.class, () -> new ServiceLatency(0, 64, S));
        assertThrows(IllegalArgumentException.class, () -> new ServiceLatency(0.5, 0, S));
    }
}
