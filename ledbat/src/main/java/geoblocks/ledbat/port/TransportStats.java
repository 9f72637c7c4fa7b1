package geoblocks.ledbat.port;

import se.sics.kompics.KompicsEvent;

/**
 * Periodic indication with the component's drop counters: datagrams for unknown or finished flows
 * ({@code stale}), semantically invalid ones such as ACKs of data never sent ({@code invalid}), and
 * segments beyond the receive window; and how many sending streams ({@code senders}) and receiving
 * flows ({@code receivers}) the component holds. Undecodable datagrams never reach the component:
 * the serializer counts and drops them.
 */
public record TransportStats(long stale, long invalid, long beyondWindow, int senders, int receivers)
        implements KompicsEvent {}
