package geoblocks.blockstore.port;

import geoblocks.net.NetAddress;
import se.sics.kompics.KompicsEvent;

/**
 * A request a door refused because its sender may not send it (an admin operation, or a name reserved to
 * the node's gateway, from a client that is not an admin client): the door has answered it FORBIDDEN;
 * {@code op} names its class, for the log.
 */
public record Forbidden(NetAddress from, String op) implements KompicsEvent {}
