package geoblocks.blockstore.core;

import java.io.IOException;

/** A replication queue file that cannot be trusted: names the file, its size and what was wrong where. */
public final class CorruptQueueException extends IOException {
    public CorruptQueueException(String message) {
        super(message);
    }
}
