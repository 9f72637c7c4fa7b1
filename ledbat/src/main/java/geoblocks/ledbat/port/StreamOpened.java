package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/** Indication: the stream requested with {@code tag} exists and has id {@code streamId}. */
public record StreamOpened(long tag, int streamId, NetAddress peer) implements KompicsEvent {}
