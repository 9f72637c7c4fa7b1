package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.KompicsEvent;

/** Request: open a sending stream to {@code peer}; answered by {@link StreamOpened} with the same tag. */
public record OpenStream(NetAddress peer, long tag) implements KompicsEvent {
    public OpenStream {
        Objects.requireNonNull(peer, "peer");
    }
}
