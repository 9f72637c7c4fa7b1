package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RttTableTest {
    private static final RttTable SEOUL = new RttTable("seoul",
            Map.of("dublin", 252.0, "saopaulo", 298.0, "mumbai", 160.0), Set.of());

    @Test
    void ranking_isNearestFirstWithoutSelf() {
        assertEquals(List.of("mumbai", "dublin", "saopaulo"), SEOUL.ranking());
        assertEquals(Optional.of("mumbai"), SEOUL.closest());
        assertEquals(Optional.of("saopaulo"), SEOUL.farthest());
    }

    @Test
    void ranking_tiesBrokenById() {
        RttTable t = new RttTable("seoul", Map.of("c", 100.0, "a", 100.0, "b", 100.0, "z", 50.0), Set.of());
        assertEquals(List.of("z", "a", "b", "c"), t.ranking());
        assertEquals(Optional.of("z"), t.closest());
        assertEquals(Optional.of("c"), t.farthest());
        RttTable allTied = new RttTable("seoul", Map.of("c", 0.0, "a", 0.0, "b", 0.0), Set.of());
        assertEquals(Optional.of("a"), allTied.closest());
        assertEquals(Optional.of("c"), allTied.farthest());
    }

    @Test
    void alone_hasNoPeers() {
        RttTable t = RttTable.alone("seoul");
        assertEquals(List.of(), t.ranking());
        assertEquals(Optional.empty(), t.closest());
        assertEquals(Optional.empty(), t.farthest());
        assertEquals(List.of("seoul"), t.upRegions());
        assertTrue(t.isUp("seoul"));
    }

    @Test
    void isUpAndRtt_selfUpPeersDownOrUnknown() {
        RttTable t = new RttTable("seoul", Map.of("mumbai", 160.0), Set.of("dublin"));
        assertTrue(t.isUp("seoul"));
        assertTrue(t.isUp("mumbai"));
        assertFalse(t.isUp("dublin"));
        assertFalse(t.isUp("atlantis"));
        assertEquals(Optional.of(0.0), t.rttMs("seoul"));
        assertEquals(Optional.of(160.0), t.rttMs("mumbai"));
        assertEquals(Optional.empty(), t.rttMs("dublin"));
        assertEquals(Optional.empty(), t.rttMs("atlantis"));
        assertEquals(Set.of("dublin"), t.down());
    }

    @Test
    void upRegions_isSelfAndUpPeersSortedById() {
        RttTable t = new RttTable("seoul", Map.of("mumbai", 160.0, "dublin", 252.0), Set.of("saopaulo"));
        assertEquals(List.of("dublin", "mumbai", "seoul"), t.upRegions());
    }

    @Test
    void readOrder_selfFirstThenNearestThenDownLast() {
        RttTable t = new RttTable("seoul", Map.of("mumbai", 160.0, "dublin", 252.0), Set.of("saopaulo"));
        assertEquals(List.of("seoul", "mumbai", "dublin", "saopaulo"),
                t.readOrder(List.of("saopaulo", "dublin", "seoul", "mumbai")));
        assertEquals(List.of("dublin", "saopaulo"), t.readOrder(List.of("saopaulo", "dublin")));
    }

    @Test
    void readOrder_downAndUnknownReplicasLastTiesById() {
        RttTable t = new RttTable("seoul", Map.of("mumbai", 160.0), Set.of("saopaulo", "dublin"));
        assertEquals(List.of("mumbai", "atlantis", "dublin", "saopaulo"),
                t.readOrder(List.of("saopaulo", "dublin", "atlantis", "mumbai")));
    }

    @Test
    void readOrder_peerWithZeroRtt_selfStillFirst() {
        // on one machine, or in a simulation with zero link latency, a peer's RTT can be 0 ms
        RttTable t = new RttTable("seoul", Map.of("dublin", 0.0, "amsterdam", 0.0), Set.of());
        assertEquals(List.of("seoul", "amsterdam", "dublin"), t.readOrder(List.of("dublin", "seoul", "amsterdam")));
    }

    @Test
    void readOrder_doesNotChangeItsArgument() {
        List<String> replicas = new ArrayList<>(List.of("dublin", "seoul"));
        SEOUL.readOrder(replicas);
        assertEquals(List.of("dublin", "seoul"), replicas);
    }

    @Test
    void new_copiesItsInputs() {
        Map<String, Double> up = new HashMap<>(Map.of("mumbai", 160.0));
        Set<String> down = new HashSet<>(Set.of("dublin"));
        RttTable t = new RttTable("seoul", up, down);
        up.put("saopaulo", 1.0);
        down.add("x");
        assertEquals(Map.of("mumbai", 160.0), t.upRttMs());
        assertEquals(Set.of("dublin"), t.down());
        assertThrows(UnsupportedOperationException.class, () -> t.upRttMs().put("a", 1.0));
        assertThrows(UnsupportedOperationException.class, () -> t.down().add("a"));
    }

    @Test
    void unsettled_peersNotUpUntilDownAfterSinceStart() {
        long downAfter = 5_000_000_000L;
        List<String> peers = List.of("dublin", "mumbai", "saopaulo");
        RttTable someUp = new RttTable("seoul", Map.of("mumbai", 160.0), Set.of("dublin", "saopaulo"));
        assertEquals(List.of("dublin", "saopaulo"), someUp.unsettled(peers, 0, downAfter));
        assertEquals(List.of("dublin", "saopaulo"), someUp.unsettled(peers, downAfter - 1, downAfter));
        // down-after passed: the peers not up count as down, so every peer has settled
        assertEquals(List.of(), someUp.unsettled(peers, downAfter, downAfter));
        RttTable alone = new RttTable("seoul", Map.of(), Set.of("dublin", "mumbai", "saopaulo"));
        assertEquals(peers, alone.unsettled(peers, 1, downAfter));
        assertEquals(List.of(), alone.unsettled(peers, downAfter + 1, downAfter), "every peer down: settled too");
        assertEquals(List.of(), SEOUL.unsettled(peers, 0, downAfter), "every peer measured up: settled at once");
    }
}
