package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/** Indication: the stream was abandoned ({@code reason}); its state is gone. */
public record StreamFailed(NetAddress peer, int streamId, boolean sender, String reason) implements KompicsEvent {}
