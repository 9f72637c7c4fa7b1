package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/**
 * Periodic indication with a sending stream's counters and controller state (times in µs, sizes
 * in bytes). {@code outOfOrder} and {@code duplicates} are the receiver's counters, carried by ACKs.
 */
public record StreamStats(NetAddress peer, int streamId, long timeMicros, long sentPackets,
        long resentPackets, long sentBytes, long ackedBytes, long outOfOrder, long duplicates,
        long lostPackets, long cwnd, long flightBytes, long queuingDelayMicros, long rttMicros,
        long srttMicros, long rttvarMicros, long ctoMicros, long timeouts) implements KompicsEvent {}
