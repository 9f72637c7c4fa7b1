package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void order_clockFirst_thenRegion() {
        List<Version> vs = new ArrayList<>(List.of(new Version(5, "seoul"), new Version(3, "tokyo"),
                new Version(5, "dublin"), new Version(9, "a")));
        Collections.sort(vs);
        assertEquals(List.of(new Version(3, "tokyo"), new Version(5, "dublin"), new Version(5, "seoul"),
                new Version(9, "a")), vs);
    }

    @Test
    void id_roundTrips_andSortsLikeTheClock() {
        Version v = new Version(HybridClock.of(1_700_000_000_000L, 3), "sao-paulo-1");
        assertEquals("018bcfe568000003@sao-paulo-1", v.id());
        assertEquals(v, Version.parse(v.id()));
        assertTrue(new Version(0xff, "x").id().compareTo(new Version(0x100, "x").id()) < 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "seoul", "018bcfe656800003", "018bcfe65680003@seoul", "018bcfe6568000zz@seoul",
        "018bcfe656800003@", "018bcfe656800003@a@b", "8000000000000000@seoul"})
    void parse_badIds_sayWhatIsWrong(String id) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Version.parse(id));
        assertTrue(e.getMessage().contains("version"), e.getMessage());
    }

    @Test
    void legacy_isTheCreationTimeAndUploadRegion_clampedIntoRange() {
        assertEquals(new Version(HybridClock.of(1234, 0), "seoul"), Version.legacy(1234, "seoul"));
        assertEquals(new Version(0, "legacy"), Version.legacy(Long.MIN_VALUE, ""));
        assertEquals(HybridClock.MAX_PHYSICAL, Version.legacy(Long.MAX_VALUE, "x").millis());
    }
}
