package geoblocks.network.session;

import java.io.IOException;

/** A connection's peer failed the mutual authentication handshake; the message says how. */
public final class HandshakeException extends IOException {
    private static final long serialVersionUID = 1L;

    public HandshakeException(String message) {
        super(message);
    }
}
