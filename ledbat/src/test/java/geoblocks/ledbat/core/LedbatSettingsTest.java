package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** reference.conf defaults are the RFC's; bad values are rejected with the key and value. */
class LedbatSettingsTest {

    @Test
    void defaults_areRfc6817Values() {
        LedbatSettings s = LedbatSettings.defaults(Map.of());
        assertEquals(100_000, s.targetMicros);
        assertEquals(1.0, s.gain);
        assertEquals(10, s.baseHistoryMinutes);
        assertEquals(2, s.initCwnd);
        assertEquals(2, s.minCwnd);
        assertEquals(1, s.allowedIncrease);
        assertEquals(1_000_000, s.initialCtoMicros);
        assertEquals(60_000_000, s.maxCtoMicros);
        assertEquals(LedbatSettings.Mode.RFC6817, s.mode);
    }

    @Test
    void target_above100ms_rejectedNamingKeyAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LedbatSettings.defaults(Map.of("target-ms", 250)));
        assertTrue(e.getMessage().contains("target-ms") && e.getMessage().contains("250"), e.getMessage());
    }

    @Test
    void gainAboveOne_rejected() {
        assertThrows(IllegalArgumentException.class, () -> LedbatSettings.defaults(Map.of("gain", 2)));
    }

    @Test
    void invertedCtoClamps_rejected() {
        assertThrows(IllegalArgumentException.class,
                () -> LedbatSettings.defaults(Map.of("min-cto-ms", 5000, "initial-cto-ms", 1000)));
        assertThrows(IllegalArgumentException.class,
                () -> LedbatSettings.defaults(Map.of("max-cto-ms", 500, "min-cto-ms", 200, "initial-cto-ms", 1000)));
    }

    @Test
    void unknownMode_andNonNumbers_rejected() {
        assertThrows(IllegalArgumentException.class, () -> LedbatSettings.defaults(Map.of("mode", "cubic")));
        assertThrows(IllegalArgumentException.class, () -> LedbatSettings.defaults(Map.of("mss", "big")));
        assertThrows(IllegalArgumentException.class, () -> LedbatSettings.defaults(Map.of("mss", 9000)));
    }

    @Test
    void ledbatPlusPlusMode_parsed() {
        assertEquals(LedbatSettings.Mode.LEDBAT_PLUS_PLUS, LedbatSettings.defaults(Map.of("mode", "ledbat++")).mode);
    }

    @Test
    void rttBasedRules_defaultsAndRangesNameTheKey() {
        LedbatSettings s = LedbatSettings.defaults(Map.of());
        assertEquals(2, s.slowStartReentryRtts);
        assertEquals(5_000, s.nearZeroDelayMicros);
        assertEquals(5_000, s.yieldRiseMicros);
        assertEquals(0.1, s.yieldFactor);
        for (Map.Entry<String, Object> bad : Map.<String, Object>of("slow-start-reentry-rtts", -1,
                "near-zero-delay-ms", 101, "yield-rise-ms", -5, "yield-factor", 0).entrySet()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LedbatSettings.defaults(Map.of(bad.getKey(), bad.getValue())));
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
    }

    @Test
    void foregroundHold_onByDefault_offWhenSet_elseRefusedNamingTheKey() {
        LedbatSettings d = LedbatSettings.defaults(Map.of());
        assertTrue(d.foregroundHold);
        assertEquals(0.01, d.holdShare);
        assertEquals(10_000_000L, d.holdAgeMicros);
        assertTrue(!LedbatSettings.defaults(Map.of("foreground-hold", false)).foregroundHold);
        assertEquals(0.5, LedbatSettings.defaults(Map.of("hold-share", 0.5)).holdShare);
        assertEquals(0L, LedbatSettings.defaults(Map.of("hold-age-ms", 0)).holdAgeMicros);
        for (Map.Entry<String, Object> bad : Map.<String, Object>of("hold-share", 1.5, "hold-age-ms", -1).entrySet()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LedbatSettings.defaults(Map.of(bad.getKey(), bad.getValue())));
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LedbatSettings.defaults(Map.of("foreground-hold", "maybe")));
        assertTrue(e.getMessage().contains("foreground-hold"), e.getMessage());
    }
}
