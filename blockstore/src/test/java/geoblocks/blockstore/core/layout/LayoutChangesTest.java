package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LayoutChangesTest {
    static final Layout THREE = Layout.fromConfig(Map.of("a", "10.0.0.1:7000", "b", "10.0.0.2:7000", "c", "10.0.0.3:7000"));
    static final Map<String, Long> ALL_AT_0 = Map.of("a", 0L, "b", 0L, "c", 0L);

    static LayoutChanges.Applied apply(Layout l, LayoutChange c) {
        Map<String, Long> all = new TreeMap<>();
        l.members().forEach(m -> all.put(m, l.version()));
        return LayoutChanges.apply(l, c, all, Set.of(), false);
    }

    @Test
    void fromConfig_isVersion0_everyRegionActive_ownersAreAll() {
        assertEquals(0, THREE.version());
        assertEquals(List.of("a", "b", "c"), THREE.owners());
        assertEquals(List.of("a", "b", "c"), THREE.members());
        assertTrue(THREE.ownersBefore().isEmpty());
        assertFalse(THREE.moved("anything"));
    }

    @Test
    void add_bumpsVersion_newRegionActive_ownersChangeRecorded() {
        LayoutChanges.Applied a = LayoutChanges.apply(THREE, new LayoutChange.Add("d", "10.0.0.4:7000"), ALL_AT_0,
                Set.of(), false);
        Layout l = a.layout();
        assertEquals(1, l.version());
        assertEquals(RegionState.ACTIVE, l.region("d").state());
        assertEquals("d", l.region("d").zone());
        assertEquals(List.of("a", "b", "c", "d"), l.owners());
        assertEquals(List.of("a", "b", "c"), l.ownersBefore());
        assertEquals(1, l.ownersSince());
        assertTrue(a.warnings().isEmpty());
    }

    @Test
    void add_movesOnlyNamesTheNewcomerWins() {
        Layout l = apply(THREE, new LayoutChange.Add("d", "10.0.0.4:7000")).layout();
        int moved = 0;
        for (int i = 0; i < 4_000; i++) {
            String n = "file-" + i;
            if (l.moved(n)) {
                moved++;
                assertEquals("d", l.ownerOf(n), n + " moved but not to the newcomer");
            } else {
                assertEquals(THREE.ownerOf(n), l.ownerOf(n));
            }
        }
        assertTrue(moved > 800 && moved < 1_200, "about a quarter of the names move, moved " + moved);
    }

    @Test
    void add_existingMemberOrTakenAddress_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> apply(THREE, new LayoutChange.Add("b", "10.0.0.9:7000")));
        assertTrue(e.getMessage().contains("'b' is already in the layout (active"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> apply(THREE, new LayoutChange.Add("d", "10.0.0.2:7000")));
        assertTrue(e.getMessage().contains("already region 'b'"), e.getMessage());
    }

    @Test
    void add_badIdOrAddress_isRefusedWithTheValue() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("D!", "h:1")).getMessage()
                .contains("'D!'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("d", "nohost")).getMessage()
                .contains("'nohost'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("d", "h:70000")).getMessage()
                .contains("1..65535"));
    }

    @Test
    void add_anIpv6Address_isBracketed_keptInItsShortForm_andOneAddressIsOneRegion() {
        LayoutChange.Add a = new LayoutChange.Add("d", "[FD31:231:0::4]:7000");
        assertEquals("[fd31:231::4]:7000", a.address(), "the spelling every node prints");
        Layout l = apply(THREE, a).layout();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> apply(l, new LayoutChange.Add("e", "[fd31:231:0:0:0:0:0:4]:7000")));
        assertTrue(e.getMessage().contains("already region 'd'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("e", "fd31:231::5:7000"));
        assertTrue(e.getMessage().contains("[fd31:231::5]:7000"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Add("e", "[fd31:231::5:7000"));
        assertTrue(e.getMessage().contains("'[fd31:231::5:7000'"), e.getMessage());
        assertEquals("node-4.example:7100", new LayoutChange.Add("e", "node-4.example:7100").address(),
                "a name as typed");
    }

    @Test
    void drain_stopsPlacementAndOwnership_keepsMembership() {
        Layout l = apply(THREE, new LayoutChange.Drain("b")).layout();
        assertEquals(RegionState.DRAINING, l.region("b").state());
        assertFalse(l.placeable("b"));
        assertTrue(l.placeable("a"));
        assertEquals(List.of("a", "c"), l.owners());
        assertEquals(List.of("a", "b", "c"), l.members());
        for (int i = 0; i < 500; i++) {
            String n = "n" + i;
            assertEquals(THREE.ownerOf(n).equals("b"), l.moved(n), n);
        }
    }

    @Test
    void drain_twice_orLastActive_isRefused() {
        Layout l = apply(THREE, new LayoutChange.Drain("b")).layout();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> apply(l, new LayoutChange.Drain("b")))
                .getMessage().contains("already draining"));
        Layout one = Layout.fromConfig(Map.of("a", "h:1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> apply(one, new LayoutChange.Drain("a")))
                .getMessage().contains("last active region"));
    }

    @Test
    void remove_active_refusedWithoutForce_warnsWithForce() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> apply(THREE, new LayoutChange.Remove("c")));
        assertTrue(e.getMessage().contains("drain it first"), e.getMessage());
        LayoutChanges.Applied a = LayoutChanges.apply(THREE, new LayoutChange.Remove("c"), ALL_AT_0, Set.of(), true);
        assertEquals(RegionState.REMOVED, a.layout().region("c").state());
        assertEquals(1, a.warnings().size());
        assertTrue(a.warnings().get(0).startsWith("forced: region 'c' is active"), a.warnings().toString());
    }

    @Test
    void remove_draining_onlyOnceDrained() {
        Layout drained = apply(THREE, new LayoutChange.Drain("c")).layout();
        Map<String, Long> at1 = Map.of("a", 1L, "b", 1L, "c", 1L);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LayoutChanges.apply(drained, new LayoutChange.Remove("c"), at1, Set.of(), false));
        assertTrue(e.getMessage().contains("still holds copies of kept versions"), e.getMessage());
        Layout removed = LayoutChanges.apply(drained, new LayoutChange.Remove("c"), at1, Set.of("c"), false).layout();
        assertEquals(2, removed.version());
        assertEquals(List.of("a", "b"), removed.members());
        assertEquals(Map.of("a", "10.0.0.1:7000", "b", "10.0.0.2:7000"), removed.addresses());
        // removing a draining region changes no owners: the handover of the drain stays recorded
        assertEquals(1, removed.ownersSince());
        assertEquals(List.of("a", "b", "c"), removed.ownersBefore());
    }

    @Test
    void removedRegion_canBeAddedAgain_unknownRegionRefused() {
        Layout l = LayoutChanges.apply(THREE, new LayoutChange.Remove("c"), ALL_AT_0, Set.of(), true).layout();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> apply(l, new LayoutChange.Drain("c")))
                .getMessage().contains("not in the layout"));
        Layout back = apply(l, new LayoutChange.Add("c", "10.0.0.33:7000")).layout();
        assertEquals(RegionState.ACTIVE, back.region("c").state());
        assertEquals("10.0.0.33:7000", back.region("c").address());
    }

    @Test
    void change_whileARegionHasNotReportedTheCurrentVersion_refusedUnlessForced() {
        Layout l = apply(THREE, new LayoutChange.Add("d", "10.0.0.4:7000")).layout();
        Map<String, Long> behind = Map.of("a", 1L, "b", 1L, "c", 0L);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LayoutChanges.apply(l, new LayoutChange.Drain("a"), behind, Set.of(), false));
        assertTrue(e.getMessage().contains("[c, d] have not reported layout version 1"), e.getMessage());
        LayoutChanges.Applied forced = LayoutChanges.apply(l, new LayoutChange.Drain("a"), behind, Set.of(), true);
        assertEquals(2, forced.layout().version());
        assertTrue(forced.warnings().get(0).contains("decided twice"), forced.warnings().toString());
    }

    @Test
    void newerThan_higherVersionWins_sameVersionByDigest_bothWays() {
        Layout add = apply(THREE, new LayoutChange.Add("d", "10.0.0.4:7000")).layout();
        Layout drain = apply(THREE, new LayoutChange.Drain("a")).layout();
        assertTrue(add.newerThan(THREE));
        assertFalse(THREE.newerThan(add));
        assertTrue(add.newerThan(drain) ^ drain.newerThan(add), "exactly one of two layouts of one version wins");
        assertFalse(add.newerThan(add));
    }

    @Test
    void set_changesZoneOrCapacity_keepsStateAddressAndOwners() {
        Layout l = apply(THREE, new LayoutChange.Set("b", "east", -1)).layout();
        assertEquals(1, l.version());
        assertEquals("east", l.region("b").zone());
        assertEquals(0, l.region("b").capacityBytes());
        assertEquals(THREE.region("b").address(), l.region("b").address());
        assertEquals(RegionState.ACTIVE, l.region("b").state());
        assertEquals(THREE.owners(), l.owners());
        assertEquals(0, l.ownersSince(), "owners did not change");
        Layout c = LayoutChanges.apply(l, new LayoutChange.Set("b", null, 4_000_000_000L),
                Map.of("a", 1L, "b", 1L, "c", 1L), Set.of(), false).layout();
        assertEquals("east", c.region("b").zone(), "kept");
        assertEquals(4_000_000_000L, c.region("b").capacityBytes());
    }

    @Test
    void set_unknownRegion_nothingToChange_orNothingGiven_isRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> apply(THREE, new LayoutChange.Set("z", "east", -1)))
                .getMessage().contains("not in the layout"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> apply(THREE, new LayoutChange.Set("b", "b", -1)))
                .getMessage().contains("nothing to change"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LayoutChange.Set("b", null, -1))
                .getMessage().contains("zone or a capacity"));
        assertThrows(IllegalArgumentException.class, () -> apply(THREE, new LayoutChange.Set("b", " ", -1)), "blank zone");
    }

    @Test
    void notPlaceable_isEveryRegionThatIsNotActive_drainingAndRemoved() {
        assertEquals(Set.of(), THREE.notPlaceable());
        Layout drained = apply(THREE, new LayoutChange.Drain("b")).layout();
        assertEquals(Set.of("b"), drained.notPlaceable());
        Layout removed = LayoutChanges.apply(drained, new LayoutChange.Remove("b"), Map.of("a", 1L, "b", 1L, "c", 1L),
                Set.of("b"), false).layout();
        assertFalse(removed.members().contains("b"));
        assertEquals(Set.of("b"), removed.notPlaceable(), "a removed region takes no copy either");
    }
}
