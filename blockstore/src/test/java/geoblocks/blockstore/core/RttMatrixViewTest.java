package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.MeasuredRttMatrix.Link;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RttMatrixViewTest {
    private static final List<String> REGIONS = List.of("dublin", "mumbai", "saopaulo", "seoul");
    private static final long MS = 1_000_000L;
    private static final long STALE = 3_000 * MS;
    /** Seoul's own table: dublin and mumbai up, saopaulo down. */
    private static final RttTable SEOUL = new RttTable("seoul", Map.of("dublin", 252.0, "mumbai", 160.5), Set.of("saopaulo"));
    private static final RttRow DUBLIN_ROW = new RttRow(
            Map.of("mumbai", 122_250L, "seoul", 252_000L, "saopaulo", RttRow.DOWN));

    private final RttMatrixView view = new RttMatrixView("seoul", REGIONS, STALE);

    @Test
    void ownRow_comesFromTheTable_freshWithDownPeersMarked() {
        MeasuredRttMatrix m = view.matrix(SEOUL, 0);
        assertEquals(REGIONS, m.regions());
        assertEquals(new Link("seoul", "mumbai", 160.5, false, true, 0), m.link("seoul", "mumbai").orElseThrow());
        Link toSaopaulo = m.link("seoul", "saopaulo").orElseThrow();
        assertTrue(toSaopaulo.down());
        assertTrue(Double.isNaN(toSaopaulo.rttMs()));
        assertEquals(Optional.empty(), m.link("seoul", "seoul"));
    }

    @Test
    void freshPeerRow_givesPairsThisNodeIsNotPartOf() {
        view.onRow("dublin", DUBLIN_ROW, 10 * MS);
        MeasuredRttMatrix m = view.matrix(SEOUL, 1_010 * MS);
        assertEquals(new Link("dublin", "mumbai", 122.25, false, true, 1_000), m.link("dublin", "mumbai").orElseThrow());
        assertEquals(new Link("dublin", "seoul", 252.0, false, true, 1_000), m.link("dublin", "seoul").orElseThrow());
        Link down = m.link("dublin", "saopaulo").orElseThrow();
        assertTrue(down.down() && down.fresh() && Double.isNaN(down.rttMs()));
    }

    @Test
    void rowOlderThanTheLimit_isStaleNeverLive() {
        view.onRow("dublin", DUBLIN_ROW, 0);
        assertTrue(view.matrix(SEOUL, STALE).link("dublin", "mumbai").orElseThrow().fresh());
        Link old = view.matrix(SEOUL, STALE + 1).link("dublin", "mumbai").orElseThrow();
        assertFalse(old.fresh());
        assertEquals(122.25, old.rttMs()); // the last figure, flagged stale
        assertEquals(3_000, old.ageMs());
    }

    @Test
    void newerRow_replacesTheOldOne() {
        view.onRow("dublin", DUBLIN_ROW, 0);
        view.onRow("dublin", new RttRow(Map.of("mumbai", RttRow.DOWN)), 5_000 * MS);
        MeasuredRttMatrix m = view.matrix(SEOUL, 5_000 * MS);
        Link l = m.link("dublin", "mumbai").orElseThrow();
        assertTrue(l.down() && l.fresh());
        assertEquals(Optional.empty(), m.link("dublin", "seoul"));
    }

    @Test
    void rowOfAPeerThisNodeSeesDown_isStaleEvenWhenRecent() {
        view.onRow("saopaulo", new RttRow(Map.of("dublin", 184_000L)), 0);
        Link l = view.matrix(SEOUL, MS).link("saopaulo", "dublin").orElseThrow();
        assertFalse(l.fresh());
        assertEquals(184.0, l.rttMs());
    }

    @Test
    void peerNeverHeard_hasNoLinks() {
        MeasuredRttMatrix m = view.matrix(SEOUL, 0);
        assertEquals(3, m.links().size()); // only seoul's own row
        assertEquals(Optional.empty(), m.link("mumbai", "dublin"));
    }

    @Test
    void unknownRegionsAndSendersAndSelfEntries_areIgnored() {
        assertFalse(view.onRow("tokyo", new RttRow(Map.of("dublin", 200_000L)), 0));
        assertFalse(view.onRow("seoul", new RttRow(Map.of("dublin", 1L)), 0));
        assertTrue(view.onRow("mumbai", new RttRow(Map.of("tokyo", 50_000L, "mumbai", 0L, "dublin", 122_000L)), 0));
        MeasuredRttMatrix m = view.matrix(SEOUL, 0);
        assertEquals(Optional.empty(), m.link("mumbai", "tokyo"));
        assertEquals(Optional.empty(), m.link("mumbai", "mumbai"));
        assertEquals(Optional.empty(), m.link("tokyo", "dublin"));
        assertEquals(122.0, m.link("mumbai", "dublin").orElseThrow().rttMs());
        assertEquals(160.5, m.link("seoul", "mumbai").orElseThrow().rttMs()); // own row not overwritten
        assertEquals(4, m.links().size());
    }

    @Test
    void badArguments_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RttMatrixView("tokyo", REGIONS, STALE));
        assertThrows(IllegalArgumentException.class, () -> new RttMatrixView("seoul", REGIONS, 0));
    }

    @Test
    void rowOfATable_roundsToMicrosAndMarksDown() {
        RttRow row = RttRow.of(SEOUL);
        assertEquals(Map.of("dublin", 252_000L, "mumbai", 160_500L, "saopaulo", RttRow.DOWN), row.rttMicros());
    }

    @Test
    void rowOfALargeCluster_keepsTheFirstMaxPeersById() {
        Map<String, Double> up = new HashMap<>();
        for (int i = 0; i < RttRow.MAX_PEERS + 5; i++) {
            up.put(String.format("r%02d", i), 1.0);
        }
        RttRow row = RttRow.of(new RttTable("self", up, Set.of()));
        assertEquals(RttRow.MAX_PEERS, row.rttMicros().size());
        assertTrue(row.rttMicros().containsKey("r00"));
        assertFalse(row.rttMicros().containsKey(String.format("r%02d", RttRow.MAX_PEERS)));
    }

    @Test
    void row_refusesBadIdsAndFigures() {
        assertThrows(IllegalArgumentException.class, () -> new RttRow(Map.of("Seoul", 1L)));
        assertThrows(IllegalArgumentException.class, () -> new RttRow(Map.of("x".repeat(33), 1L)));
        assertThrows(IllegalArgumentException.class, () -> new RttRow(Map.of("seoul", -2L)));
        assertThrows(IllegalArgumentException.class, () -> new RttRow(Map.of("seoul", RttRow.MAX_MICROS + 1)));
    }
}
