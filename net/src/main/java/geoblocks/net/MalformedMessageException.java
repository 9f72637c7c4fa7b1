package geoblocks.net;

import java.io.IOException;

/** Bytes from the network that do not decode to a valid message; the message names the problem. */
public class MalformedMessageException extends IOException {
    private static final long serialVersionUID = 1L;

    public MalformedMessageException(String message) {
        super(message);
    }
}
