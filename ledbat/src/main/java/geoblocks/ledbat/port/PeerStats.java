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
     * {@code ackedBytes} (payload, first transmissions): totals over every flow to the peer;
     * {@code pathMtuBytes}: the path MTU confirmed by the path's search (RFC 8899), in UDP payload bytes
     * (IPv4 adds 28 bytes of headers, IPv6 48): the data packets to the peer are at most this large.
     */
    public record Peer(NetAddress peer, boolean active, int streams, long cwndBytes, long queuedBytes,
            long flightBytes, long queuingDelayMicros, long baseDelayMicros, long rttMicros, long retransmissions,
            long timeouts, long sentBytes, long ackedBytes, int pathMtuBytes) {
        /** Without a path MTU (0: unknown). */
        public Peer(NetAddress peer, boolean active, int streams, long cwndBytes, long queuedBytes,
                long flightBytes, long queuingDelayMicros, long baseDelayMicros, long rttMicros, long retransmissions,
                long timeouts, long sentBytes, long ackedBytes) {
            this(peer, active, streams, cwndBytes, queuedBytes, flightBytes, queuingDelayMicros, baseDelayMicros,
                    rttMicros, retransmissions, timeouts, sentBytes, ackedBytes, 0);
        }
    }
}
