package geoblocks.blockstore.component;

import geoblocks.blockstore.core.FlowStallWatch;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The background part of {@code status}: the latest per-peer LEDBAT figures (the transport's
 * periodic {@link PeerStats}, every 100 ms by default) named by region, with the bytes and copies
 * the node still has to send in the background. Peers outside the cluster (none in a node) are
 * left out. It watches each peer's flow for stalls ({@link FlowStallWatch}: bytes waiting, next to
 * nothing acknowledged for 30 s), logs when one stalls and when it flows again, and says for how
 * long in status.
 */
final class BackgroundStatus {
    private PeerStats latest = new PeerStats(0, List.of());
    private final FlowStallWatch<NetAddress> stalls = new FlowStallWatch<>();

    /** {@code regionOf}: the region of a peer address, for the log (the address itself when none). */
    void onPeerStats(PeerStats s, Function<NetAddress, String> regionOf) {
        latest = s;
        for (PeerStats.Peer p : s.peers()) {
            FlowStallWatch.Change<NetAddress> c = stalls.sample(p.peer(), s.timeMicros(), p.queuedBytes() + p.flightBytes(),
                    p.ackedBytes());
            if (c != null && c.stalled()) {
                Logs.warn("background copies to " + regionOf.apply(p.peer()) + " stalled: " + c.ackedInWindow()
                        + " of " + c.waitingBytes() + " waiting bytes acknowledged in the last "
                        + (s.timeMicros() - c.sinceMicros()) / 1_000_000 + " s (cwnd " + p.cwndBytes() + " bytes, "
                        + p.retransmissions() + " retransmissions, path MTU " + (p.pathMtuBytes() > 0 ? p.pathMtuBytes()
                        + " bytes" : "not known") + "): a path that drops large datagrams, or a peer that stopped reading,"
                        + " does this (docs/network.md)");
            } else if (c != null) {
                Logs.info("background copies to " + regionOf.apply(p.peer()) + " flow again after "
                        + (s.timeMicros() - c.sinceMicros()) / 1_000_000 + " s stalled");
            }
        }
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
                        p.retransmissions(), p.pathMtuBytes()).stalledFor(stalledForMs(p.peer())));
            }
        }
        peers.sort(Comparator.comparing(LedbatPeer::region));
        return new Background(queuedBytes, queuedCopies, peers);
    }

    /** How long {@code peer}'s flow has been stalled, in ms (0: it is not). */
    private long stalledForMs(NetAddress peer) {
        long since = stalls.stalledSinceMicros(peer);
        return since < 0 ? 0 : Math.max(1, (latest.timeMicros() - since) / 1000);
    }

    private static double ms(long micros) {
        return micros < 0 ? Double.NaN : micros / 1000.0;
    }
}
