package geoblocks.ledbat.port;

import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.KompicsEvent;

/**
 * Request: the application moves foreground data to or from {@code peer} now, at {@code
 * foregroundBytesPerSecond} (0: not known yet), so for the next {@code holdMicros} its flow to that
 * peer (the one open now, or one opened meanwhile) sends new data only at {@code max(floor, hold-share
 * x that rate)}, the floor a trickle that grows the longer the hold lasts (HoldPacer); flows to other
 * peers are not affected. A later request extends the hold and updates the rate. Background yields at
 * once to foreground traffic the application owns, instead of waiting for LEDBAT's delay signal.
 */
public record ForegroundActive(NetAddress peer, long holdMicros, long foregroundBytesPerSecond) implements KompicsEvent {
    public ForegroundActive {
        Objects.requireNonNull(peer, "peer");
        if (holdMicros < 0) {
            throw new IllegalArgumentException("hold must be >= 0 us, was " + holdMicros);
        }
        if (foregroundBytesPerSecond < 0) {
            throw new IllegalArgumentException("foreground rate must be >= 0 bytes/s, was " + foregroundBytesPerSecond);
        }
    }

    /** Foreground traffic whose rate is not known. */
    public ForegroundActive(NetAddress peer, long holdMicros) {
        this(peer, holdMicros, 0);
    }
}
