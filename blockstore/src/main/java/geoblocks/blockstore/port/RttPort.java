package geoblocks.blockstore.port;

import geoblocks.blockstore.core.RttTable;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/** What the RTT monitor knows: a fresh {@link RttTable} after every probe round. */
public final class RttPort extends PortType {
    {
        indication(RttUpdate.class);
    }

    public record RttUpdate(RttTable table) implements KompicsEvent {}
}
