package geoblocks.ledbat.port;

import se.sics.kompics.KompicsEvent;

/** Request: no more data on {@code streamId}; it closes once everything queued is acknowledged. */
public record CloseStream(int streamId) implements KompicsEvent {}
