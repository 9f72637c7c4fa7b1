package geoblocks.blockstore.core;

import java.io.IOException;

/**
 * A block write refused because the storage has no room for it (less than its reserve would stay
 * free, or its capacity is reached). The message starts with "disk full" for people; code tells
 * this refusal from other failures by its type.
 */
public final class DiskFullException extends IOException {
    private static final long serialVersionUID = 1L;

    public DiskFullException(String message) {
        super(message.startsWith("disk full") ? message : "disk full: " + message);
    }
}
