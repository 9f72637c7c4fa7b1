package geoblocks.sim.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The checker on hand-made records: it passes a consistent run and names each kind of violation. */
class ConsistencyCheckTest {
    private static final List<String> REGIONS = List.of("a", "b");
    private static final String V1 = "0000000000010000@a";
    private static final String V2 = "0000000000020000@b";

    private static List<String> violations(List<String> records) {
        return ConsistencyCheck.check(1, REGIONS, records, List.of(), 0, 1, Set.of("a"), false).violations();
    }

    private static List<String> base() {
        List<String> r = new ArrayList<>();
        r.add("W|a|f|PUT|10|20|ok|" + V1 + "|5|");
        r.add("R|a|f|ryw:" + V1 + "|20|21|" + V1);
        r.add("W|b|f|PUT|30|40|ok|" + V2 + "|6|");
        r.add("R|b|f|ryw:" + V2 + "|40|41|" + V2);
        r.add("S|0|a|f|" + V1 + "~a~f1," + V2 + "~b~f2");
        r.add("S|0|b|f|" + V1 + "~a~f1," + V2 + "~b~f2");
        return r;
    }

    @Test
    void consistentRun_passes() {
        assertEquals(List.of(), violations(base()));
    }

    @Test
    void divergentRegions_areReported() {
        List<String> r = base();
        r.set(5, "S|0|b|f|" + V1 + "~a~f1");
        assertTrue(violations(r).stream().anyMatch(v -> v.contains("did not converge")), violations(r).toString());
    }

    @Test
    void acknowledgedVersionMissing_isReported() {
        List<String> r = base();
        r.set(4, "S|0|a|f|" + V2 + "~b~f2");
        r.set(5, "S|0|b|f|" + V2 + "~b~f2");
        assertTrue(violations(r).stream().anyMatch(v -> v.contains("is not among the versions kept")), violations(r).toString());
    }

    @Test
    void staleReadAfterOwnWrite_isReported() {
        List<String> r = base();
        r.set(3, "R|b|f|ryw:" + V2 + "|40|41|" + V1);
        assertTrue(violations(r).stream().anyMatch(v -> v.contains("read-your-writes")), violations(r).toString());
    }

    @Test
    void readYourWritesUnanswered_isExcusedOnlyWhileTheRegionsNodeWasDown() {
        List<String> r = base();
        r.set(3, "R|b|f|ryw:" + V2 + "|40|100|error:no answer from node b within 60 ms");
        Function<Map<String, long[]>, List<String>> check = down ->
                ConsistencyCheck.check(1, REGIONS, r, List.of(), 0, 1, Set.of("a"), false, down).violations();
        assertEquals(List.of(), check.apply(Map.of("b", new long[] {40, 70})), "b crashed at 40 ms with the read");
        assertTrue(check.apply(Map.of()).stream().anyMatch(v -> v.contains("read-your-writes")), "no crash");
        assertTrue(check.apply(Map.of("b", new long[] {101, 150})).stream().anyMatch(v -> v.contains("read-your-writes")),
                "down only after the read had its answer");
        assertTrue(check.apply(Map.of("a", new long[] {40, 70})).stream().anyMatch(v -> v.contains("read-your-writes")),
                "another region was down");
        r.set(3, "R|b|f|ryw:" + V2 + "|40|41|" + V1);
        assertTrue(check.apply(Map.of("b", new long[] {40, 70})).stream().anyMatch(v -> v.contains("read-your-writes")),
                "a stale answer is a violation even around a crash");
    }

    @Test
    void twoCreatesWon_isReported() {
        List<String> r = new ArrayList<>();
        r.add("W|a|c|CREATE|10|20|ok|" + V1 + "|5|");
        r.add("W|b|c|CREATE|12|22|ok|" + V2 + "|6|");
        r.add("S|0|a|c|" + V1 + "~a~f1," + V2 + "~b~f2");
        r.add("S|0|b|c|" + V1 + "~a~f1," + V2 + "~b~f2");
        assertTrue(violations(r).stream().anyMatch(v -> v.contains("was created 2 times")), violations(r).toString());
    }

    @Test
    void versionNobodyWasToldAbout_isAPhantom_unlessAnOutcomeWasUnknown() {
        List<String> r = base();
        String v3 = "0000000000030000@a";
        r.set(4, "S|0|a|f|" + V1 + "~a~f1," + V2 + "~b~f2," + v3 + "~a~f3");
        r.set(5, "S|0|b|f|" + V1 + "~a~f1," + V2 + "~b~f2," + v3 + "~a~f3");
        assertTrue(violations(r).stream().anyMatch(v -> v.contains("no client was told about")), violations(r).toString());
        r.add("W|a|f|PUT|50|90|unknown||7|no answer from node a");
        assertEquals(List.of(), violations(r));
    }

    @Test
    void unreadableVersion_andClockGoingBack_areReported() {
        List<String> r = base();
        r.add("G|a|b|f|" + V1 + "|false|every replica failed");
        r.add("W|a|f|PUT|50|60|ok|0000000000000001@a|8|");
        List<String> v = violations(r);
        assertTrue(v.stream().anyMatch(x -> x.contains("is not readable at b")), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.contains("its clock went back")), v.toString());
    }
}
