package geoblocks.blockstore.core;

import java.io.IOException;

/** A stored or received block whose bytes do not match its checksum, header or length. */
public final class CorruptBlockException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptBlockException(BlockId id, String problem) {
        super("block " + id + " is corrupt: " + problem);
    }

    /** A corrupt block (or inline content) described whole by {@code message}; {@code cause} may be null. */
    public CorruptBlockException(String message, Throwable cause) {
        super(message, cause);
    }
}
