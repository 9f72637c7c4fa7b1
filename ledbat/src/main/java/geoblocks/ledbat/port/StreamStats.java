package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/**
 * Periodic indication per sending stream (times in µs, sizes in bytes). {@code sentBytes} and
 * {@code ackedBytes} are the stream's own; every other figure is of the flow to the peer that
 * carries the stream and all other streams to that peer (packets, losses, cwnd, flight, delays,
 * timeouts): they are the same for every stream of the flow. {@code outOfOrder} and
 * {@code duplicates} are the receiver's counters of the flow, carried by ACKs.
 */
public record StreamStats(NetAddress peer, int streamId, long timeMicros, long sentPackets,
        long resentPackets, long sentBytes, long ackedBytes, long outOfOrder, long duplicates,
        long lostPackets, long cwnd, long flightBytes, long queuingDelayMicros, long rttMicros,
        long srttMicros, long rttvarMicros, long ctoMicros, long timeouts) implements KompicsEvent {}
