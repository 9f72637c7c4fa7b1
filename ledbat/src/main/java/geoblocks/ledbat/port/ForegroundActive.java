package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.KompicsEvent;

/**
 * Request: the application moves foreground data to or from {@code peer} now, so for the next
 * {@code holdMicros} its flow to that peer (the one open now, or one opened meanwhile) sends new data
 * only as a trickle ({@code hold-trickle-ms}); flows to other peers are not affected. A later request
 * extends the hold. Background yields at once to foreground traffic the application owns, instead of
 * waiting for LEDBAT's delay signal.
 */
public record ForegroundActive(NetAddress peer, long holdMicros) implements KompicsEvent {
    public ForegroundActive {
        Objects.requireNonNull(peer, "peer");
        if (holdMicros < 0) {
            throw new IllegalArgumentException("hold must be >= 0 us, was " + holdMicros);
        }
    }
}
