package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import java.util.List;
import se.sics.kompics.KompicsEvent;

/**
 * Periodic indication (every {@code stats-interval-ms}) with the sending side of this node's LEDBAT
 * flow to each peer it sent to recently: all streams to a peer share that one flow and its
 * controller. Times in µs (-1 when not measured yet; the base delay {@code Long.MIN_VALUE}), sizes
 * in bytes.
 */
public record PeerStats(long timeMicros, List<Peer> peers) implements KompicsEvent {
    public PeerStats {
        peers = List.copyOf(peers);
    }

    /**
     * One peer. {@code streams}: open sending streams; {@code cwndBytes}, {@code queuedBytes} (offered,
     * not yet sent) and {@code flightBytes}: of the active flow, 0 when none is active;
     * {@code queuingDelayMicros} and {@code rttMicros} (smoothed): of the active flow, else the last
     * one's final values; {@code baseDelayMicros}: the path's base one-way delay as measured (it
     * contains the offset between the two hosts' clocks, so only differences are meaningful across
     * hosts; in {@code ledbat++} mode, which measures RTTs, the base RTT); {@code retransmissions} (packets sent again), {@code timeouts}, {@code sentBytes} and
     * {@code ackedBytes} (payload, first transmissions): totals over every flow to the peer.
     */
    public record Peer(NetAddress peer, boolean active, int streams, long cwndBytes, long queuedBytes,
            long flightBytes, long queuingDelayMicros, long baseDelayMicros, long rttMicros, long retransmissions,
            long timeouts, long sentBytes, long ackedBytes) {}
}
