package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/**
 * Indication: the stream ended cleanly. At the sender every byte ({@code bytes} in total) was
 * acknowledged; at the receiver every byte up to the FIN was delivered.
 */
public record StreamClosed(NetAddress peer, int streamId, boolean sender, long bytes) implements KompicsEvent {}
