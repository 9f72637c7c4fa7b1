package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The background part of {@code status}: the latest per-peer LEDBAT figures (the transport's
 * periodic {@link PeerStats}, every 100 ms by default) named by region, with the bytes and copies
 * the node still has to send in the background. Peers outside the cluster (none in a node) are
 * left out.
 */
final class BackgroundStatus {
    private PeerStats latest = new PeerStats(0, List.of());

    void onPeerStats(PeerStats s) {
        latest = s;
    }

    /**
     * @param queuedBytes background bytes still to be acknowledged (offered, opening or on their LEDBAT stream)
     * @param queuedCopies copies the replication queue still owes
     * @param regions region of each peer address
     */
    Background reply(long queuedBytes, int queuedCopies, Map<NetAddress, String> regions) {
        List<LedbatPeer> peers = new ArrayList<>();
        for (PeerStats.Peer p : latest.peers()) {
            String region = regions.get(p.peer());
            if (region != null) {
                peers.add(new LedbatPeer(region, p.active(), p.streams(), p.cwndBytes(), p.queuedBytes(),
                        p.flightBytes(), ms(p.queuingDelayMicros()), p.baseDelayMicros() == Long.MIN_VALUE ? Double.NaN
                        : p.baseDelayMicros() / 1000.0, ms(p.rttMicros()),
                        p.retransmissions(), p.pathMtuBytes()));
            }
        }
        peers.sort(java.util.Comparator.comparing(LedbatPeer::region));
        return new Background(queuedBytes, queuedCopies, peers);
    }

    private static double ms(long micros) {
        return micros < 0 ? Double.NaN : micros / 1000.0;
    }
}
