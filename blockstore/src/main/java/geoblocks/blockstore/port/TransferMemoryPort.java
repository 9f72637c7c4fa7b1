package geoblocks.blockstore.port;

import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * Transfer memory another component of the node released ({@code core.MemoryBudget} is the node's, shared):
 * the peer service announces what it released after each of its events, so that the file service admits the
 * client requests waiting for memory at once, as it does after its own events, rather than at its next event.
 */
public final class TransferMemoryPort extends PortType {
    {
        indication(Released.class);
    }

    /** {@code bytes} of the node's transfer memory were released. */
    public record Released(long bytes) implements KompicsEvent {
        public Released {
            if (bytes <= 0) {
                throw new IllegalArgumentException("released bytes must be > 0, were " + bytes);
            }
        }
    }
}
