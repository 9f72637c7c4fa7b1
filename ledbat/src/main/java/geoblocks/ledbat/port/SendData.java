package geoblocks.ledbat.port;

import java.util.Objects;
import se.sics.kompics.KompicsEvent;

/**
 * Request: append {@code data} to stream {@code streamId}. Ownership of the array passes to the
 * transport: the caller must not modify it afterwards (the transport sends slices of it).
 */
public record SendData(int streamId, byte[] data) implements KompicsEvent {
    public SendData {
        Objects.requireNonNull(data, "data");
    }
}
