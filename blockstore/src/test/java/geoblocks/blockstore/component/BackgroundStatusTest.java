package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The background part of status: the transport's latest per-peer figures, named by region. */
class BackgroundStatusTest {
    static final NetAddress MUMBAI = NetAddress.of("10.0.1.1", 47000);
    static final NetAddress DUBLIN = NetAddress.of("10.0.2.1", 47000);
    static final NetAddress STRANGER = NetAddress.of("10.9.9.9", 1);
    static final Map<NetAddress, String> REGIONS = Map.of(MUMBAI, "mumbai", DUBLIN, "dublin");

    @Test
    void reply_beforeAnyStatistics_isEmpty() {
        assertEquals(new Background(0, 0, List.of()), new BackgroundStatus().reply(0, 0, REGIONS));
    }

    @Test
    void reply_namesPeersByRegion_inMs_sorted_withoutStrangers() {
        BackgroundStatus s = new BackgroundStatus();
        s.onPeerStats(new PeerStats(1, List.of(
                new PeerStats.Peer(MUMBAI, true, 4, 140_000, 1 << 20, 70_000, 95_500, 80_250, 258_000, 12, 1, 5 << 20, 4 << 20),
                new PeerStats.Peer(STRANGER, true, 1, 2800, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                new PeerStats.Peer(DUBLIN, false, 0, 0, 0, 0, -1, Long.MIN_VALUE, -1, 0, 0, 0, 0))), REGIONS::get);
        Background b = s.reply(3_000_000, 7, REGIONS);
        assertEquals(3_000_000, b.queuedBytes());
        assertEquals(7, b.queuedCopies());
        assertEquals(List.of("dublin", "mumbai"), b.peers().stream().map(LedbatPeer::region).toList());
        LedbatPeer d = b.peers().get(0);
        assertTrue(Double.isNaN(d.queuingDelayMs()) && Double.isNaN(d.baseDelayMs()) && Double.isNaN(d.rttMs()), d.toString());
        assertEquals(new LedbatPeer("mumbai", true, 4, 140_000, 1 << 20, 70_000, 95.5, 80.25, 258.0, 12), b.peers().get(1));
    }

    @Test
    void reply_usesTheLatestStatistics() {
        BackgroundStatus s = new BackgroundStatus();
        s.onPeerStats(new PeerStats(1, List.of(new PeerStats.Peer(MUMBAI, true, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1))), REGIONS::get);
        s.onPeerStats(new PeerStats(2, List.of()), REGIONS::get);
        assertEquals(List.of(), s.reply(0, 0, REGIONS).peers());
    }

    /** The MTU crawl of issue 42: 20 MiB waiting, 2 KB/s acknowledged: status says for how long it has been stalled. */
    @Test
    void reply_saysHowLongAFlowHasBeenStalled() {
        BackgroundStatus s = new BackgroundStatus();
        for (int t = 0; t <= 45; t++) { // the transport's statistics once a second, microseconds
            s.onPeerStats(new PeerStats(t * 1_000_000L, List.of(
                    new PeerStats.Peer(MUMBAI, true, 1, 2800, 20 << 20, 2800, 1000, 80_000, 160_000, 133, 4, 0, 2_000L * t),
                    new PeerStats.Peer(DUBLIN, true, 1, 1 << 20, 1 << 20, 1 << 20, 1000, 80_000, 160_000, 0, 0, 0,
                            (1L << 20) * t))), REGIONS::get);
        }
        List<LedbatPeer> peers = s.reply(0, 0, REGIONS).peers();
        assertEquals(0, peers.get(0).stalledForMs(), "dublin moves a MiB a second");
        assertEquals(45_000, peers.get(1).stalledForMs(), "mumbai: stalled since its first sample, 45 s ago");
    }
}
