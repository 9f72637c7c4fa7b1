package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OwnerHandoverTest {
    static final Layout V0 = LayoutChangesTest.THREE;
    static final Layout V1 = LayoutChangesTest.apply(V0, new LayoutChange.Add("d", "10.0.0.4:7000")).layout();

    static String movedTo(String region) {
        for (int i = 0; ; i++) {
            String n = "name-" + i;
            if (V1.moved(n) && V1.ownerOf(n).equals(region)) {
                return n;
            }
        }
    }

    static String unmovedOwnedBy(String region) {
        for (int i = 0; ; i++) {
            String n = "name-" + i;
            if (!V1.moved(n) && V1.ownerOf(n).equals(region)) {
                return n;
            }
        }
    }

    @Test
    void coveredOnlyOnceEveryOtherMemberReported_theFirstTimeIsKept() {
        OwnerHandover h = new OwnerHandover("d");
        assertEquals(OptionalLong.empty(), h.coveredSince(V1, 10));
        h.report("a", 1);
        h.report("b", 1);
        h.report("c", 0);
        assertEquals(OptionalLong.empty(), h.coveredSince(V1, 20));
        h.report("c", 1);
        h.report("c", 0); // an older report never lowers what was reported
        assertEquals(OptionalLong.of(30), h.coveredSince(V1, 30));
        assertEquals(OptionalLong.of(30), h.coveredSince(V1, 40));
        assertEquals(Map.of("a", 1L, "b", 1L, "c", 1L), h.reported());
    }

    @Test
    void newOwner_refusesMovedNamesUntilHandedOver_decidesOthersAtOnce() {
        OwnerHandover h = new OwnerHandover("d");
        String moved = movedTo("d");
        String why = h.refusal(V1, moved, false);
        assertNotNull(why);
        assertTrue(why.contains("moves from " + V0.ownerOf(moved) + " to d"), why);
        assertNull(h.refusal(V1, moved, true));
    }

    @Test
    void oldOwner_refusesNamesItNoLongerOwns_keepsDecidingTheRest() {
        String moved = movedTo("d");
        String old = V0.ownerOf(moved);
        OwnerHandover h = new OwnerHandover(old);
        String why = h.refusal(V1, moved, true);
        assertTrue(why.contains("its owner in layout version 1 is d"), why);
        assertNull(h.refusal(V1, unmovedOwnedBy(old), false));
        // before it adopted V1 it decided by V0: the rule never lets both decide (see the simulation below)
        assertNull(h.refusal(V0, moved, false));
    }

    /**
     * Every region decides by the layout it holds; a region adopts V1 at a random moment and reports
     * it; the new owner counts as handed over only after every report (and, in the node, an
     * anti-entropy exchange). Over many seeds and names, no moment has two regions that may decide one name.
     */
    @Test
    void atNoMomentDoTwoRegionsDecideOneName_300Seeds() {
        String[] regions = {"a", "b", "c", "d"};
        for (long seed = 1; seed <= 300; seed++) {
            Random rnd = new Random(seed);
            Map<String, Layout> holds = new TreeMap<>(Map.of("a", V0, "b", V0, "c", V0, "d", V1));
            Map<String, OwnerHandover> hs = new TreeMap<>();
            for (String r : regions) {
                hs.put(r, new OwnerHandover(r));
            }
            String name = "n-" + seed;
            for (long t = 0; t < 40; t++) {
                String r = regions[rnd.nextInt(3)];
                if (rnd.nextInt(4) == 0 && holds.get(r) == V0) {
                    holds.put(r, V1); // adopts, then reports
                    for (OwnerHandover o : hs.values()) {
                        o.report(r, 1);
                    }
                }
                int deciders = 0;
                for (String x : regions) {
                    Layout l = holds.get(x);
                    boolean handed = hs.get(x).coveredSince(l, t).isPresent();
                    if (hs.get(x).refusal(l, name, handed) == null) {
                        deciders++;
                    }
                }
                assertTrue(deciders <= 1, "seed " + seed + " t " + t + ": " + deciders + " regions decide " + name);
            }
        }
    }

    @Test
    void forcedRemoveOfAnActiveRegion_isAnOwnerChange_itsNamesMove() {
        Layout l = LayoutChanges.apply(V0, new LayoutChange.Remove("c"), Map.of("a", 0L, "b", 0L, "c", 0L), Set.of(), true)
                .layout();
        assertEquals(1, l.ownersSince());
        assertEquals(List.of("a", "b", "c"), l.ownersBefore());
        String n = "x";
        for (int i = 0; !V0.ownerOf(n).equals("c"); i++) {
            n = "x" + i;
        }
        assertTrue(l.moved(n));
        assertEquals(0, V0.ownersSince());
    }
}
