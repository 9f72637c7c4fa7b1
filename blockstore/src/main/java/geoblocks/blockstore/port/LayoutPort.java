package geoblocks.blockstore.port;

import geoblocks.blockstore.core.layout.Layout;
import java.util.Objects;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * The cluster layout this node acts on: {@link LayoutChanged} once at start and after every layout it
 * adopts (an operator's change, or a newer one from a peer). Whoever needs the members, their addresses or
 * their regions follows it here.
 */
public final class LayoutPort extends PortType {
    {
        indication(LayoutChanged.class);
    }

    /** The node acts on {@code layout} from now on (an immutable value). */
    public record LayoutChanged(Layout layout) implements KompicsEvent {
        public LayoutChanged {
            Objects.requireNonNull(layout, "layout");
        }
    }
}
