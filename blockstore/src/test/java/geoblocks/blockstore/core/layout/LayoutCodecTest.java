package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LayoutCodecTest {
    static Layout sample() {
        Layout l = Layout.fromConfig(Map.of("seoul", "10.0.0.1:7000", "dublin", "10.0.0.2:7000"));
        l = LayoutChanges.apply(l, new LayoutChange.Add("mumbai", "node-4.example:7100", "ap-south", 4L << 40),
                Map.of("seoul", 0L, "dublin", 0L), Set.of(), false).layout();
        return LayoutChanges.apply(l, new LayoutChange.Drain("dublin"), Map.of("seoul", 1L, "dublin", 1L, "mumbai", 1L),
                Set.of(), false).layout();
    }

    @Test
    void roundTrip_keepsEverything() throws Exception {
        Layout l = sample();
        Layout back = LayoutCodec.decode(LayoutCodec.encode(l));
        assertEquals(l, back);
        assertEquals(l.digest(), back.digest());
        assertEquals("ap-south", back.region("mumbai").zone());
        assertEquals(4L << 40, back.region("mumbai").capacityBytes());
        assertEquals(RegionState.DRAINING, back.region("dublin").state());
    }

    @Test
    void everyFlippedByteOrCut_isRefusedWithATypedError() {
        byte[] good = LayoutCodec.encode(sample());
        Random rnd = new Random(7);
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 + rnd.nextInt(255));
            assertThrows(CorruptLayoutException.class, () -> LayoutCodec.decode(bad), "byte " + i);
        }
        for (int n = 0; n < good.length; n++) {
            byte[] cut = Arrays.copyOf(good, n);
            assertThrows(CorruptLayoutException.class, () -> LayoutCodec.decode(cut), "cut at " + n);
        }
    }

    @Test
    void unknownFormat_namesIt() {
        byte[] b = LayoutCodec.encode(sample());
        b[2] = 9;
        CorruptLayoutException e = assertThrows(CorruptLayoutException.class, () -> LayoutCodec.decode(b));
        assertTrue(e.getMessage().contains("format 9"), e.getMessage());
    }

    static final String KEY = "ed25519:" + "Q".repeat(42) + "A=";

    @Test
    void aLayoutWithoutKeys_isFormat1AsBefore_andOneWithAKey_isFormat2AndKeepsIt() throws Exception {
        byte[] plain = LayoutCodec.encode(sample());
        assertEquals(1, plain[2], "no key named: the format and bytes of before keys existed");
        Layout keyed = LayoutChanges.apply(sample(), new LayoutChange.Add("paris", "10.0.0.9:7000", null, 0, KEY),
                Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L), Set.of(), false).layout();
        byte[] b = LayoutCodec.encode(keyed);
        assertEquals(2, b[2]);
        Layout back = LayoutCodec.decode(b);
        assertEquals(keyed, back);
        assertEquals(KEY, back.region("paris").key());
        assertEquals("", back.region("seoul").key());
        assertEquals(keyed.digest(), back.digest());
        for (int i = 0; i < b.length; i++) {
            byte[] bad = b.clone();
            bad[i] ^= 0x41;
            assertThrows(CorruptLayoutException.class, () -> LayoutCodec.decode(bad), "byte " + i);
        }
    }

    @Test
    void addingAKeyAnotherMemberHas_orAMalformedKey_isRefused() {
        Layout keyed = LayoutChanges.apply(sample(), new LayoutChange.Add("paris", "10.0.0.9:7000", null, 0, KEY),
                Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L), Set.of(), false).layout();
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> LayoutChanges.apply(keyed,
                new LayoutChange.Add("rome", "10.0.0.10:7000", null, 0, KEY), Map.of("seoul", 3L, "dublin", 3L,
                        "mumbai", 3L, "paris", 3L), Set.of(), false));
        assertTrue(twice.getMessage().contains("already region 'paris'"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("rome", "10.0.0.10:7000", null, 0, "ed25519:x"));
    }

    @Test
    void aRotation_keepsThePreviousKeyUntilRetired_andOneRotationAtATime() throws Exception {
        String next = "ed25519:" + "R".repeat(42) + "A=";
        Map<String, Long> reported = Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L, "paris", 2L);
        Layout keyed = LayoutChanges.apply(sample(), new LayoutChange.Add("paris", "10.0.0.9:7000", null, 0, KEY),
                Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L), Set.of(), false).layout();
        Map<String, Long> at3 = Map.of("seoul", 3L, "dublin", 3L, "mumbai", 3L, "paris", 3L);
        Layout rotating = LayoutChanges.apply(keyed, new LayoutChange.Rekey("paris", next), at3, Set.of(), false).layout();
        assertEquals(next, rotating.region("paris").key());
        assertEquals(KEY, rotating.region("paris").previousKey());
        assertEquals(rotating, LayoutCodec.decode(LayoutCodec.encode(rotating)), "both keys survive the codec");
        Map<String, Long> at4 = Map.of("seoul", 4L, "dublin", 4L, "mumbai", 4L, "paris", 4L);
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> LayoutChanges.apply(rotating,
                new LayoutChange.Rekey("paris", "ed25519:" + "S".repeat(42) + "A="), at4, Set.of(), false));
        assertTrue(twice.getMessage().contains("retire its previous key first"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LayoutChanges.apply(rotating, new LayoutChange.Add("rome",
                "10.0.0.10:7000", null, 0, KEY), at4, Set.of(), false), "the previous key is still paris's");
        Layout retired = LayoutChanges.apply(rotating, new LayoutChange.RetireKey("paris"), at4, Set.of(), false).layout();
        assertEquals(next, retired.region("paris").key());
        assertEquals("", retired.region("paris").previousKey());
        assertThrows(IllegalArgumentException.class, () -> LayoutChanges.apply(retired, new LayoutChange.RetireKey("paris"),
                Map.of("seoul", 5L, "dublin", 5L, "mumbai", 5L, "paris", 5L), Set.of(), false));
        assertThrows(IllegalStateException.class, () -> LayoutChanges.apply(keyed, new LayoutChange.Rekey("paris", next),
                reported, Set.of(), false), "a rotation waits, like any change, for every member to report the current version");
    }

    @Test
    void rotatingAKeyOnlyTheConfigNames_keepsTheConfigsKeyAsThePrevious() {
        String next = "ed25519:" + "R".repeat(42) + "A=";
        Layout rotating = LayoutChanges.apply(sample(), new LayoutChange.Rekey("seoul", next, KEY),
                Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L), Set.of(), false).layout();
        assertEquals(next, rotating.region("seoul").key());
        assertEquals(KEY, rotating.region("seoul").previousKey(), "the key peers checked before stays accepted");
        Layout fresh = LayoutChanges.apply(sample(), new LayoutChange.Rekey("seoul", next),
                Map.of("seoul", 2L, "dublin", 2L, "mumbai", 2L), Set.of(), false).layout();
        assertEquals("", fresh.region("seoul").previousKey(), "no key anywhere before: none to keep");
    }
}
