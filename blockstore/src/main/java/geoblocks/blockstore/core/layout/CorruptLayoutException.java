package geoblocks.blockstore.core.layout;

import java.io.IOException;

/** An encoded {@link Layout} that cannot be decoded; the message names what was wrong and where. */
public final class CorruptLayoutException extends IOException {
    public CorruptLayoutException(String message) {
        super(message);
    }
}
