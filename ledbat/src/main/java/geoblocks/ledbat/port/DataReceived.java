package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/**
 * Indication at the receiver: the next {@code data.length} bytes of stream ({@code peer},
 * {@code streamId}), starting at byte {@code offset}; delivered in order, exactly once. The array is
 * shared by all subscribers and must not be modified.
 */
public record DataReceived(NetAddress peer, int streamId, long offset, byte[] data) implements KompicsEvent {}
