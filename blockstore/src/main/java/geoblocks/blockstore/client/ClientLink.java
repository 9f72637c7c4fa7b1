package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FileOp;

/**
 * What a {@link Transfer} needs of its client: send a request to the node, report progress, end the
 * operation. {@link ClientComponent} is the implementation; tests drive a transfer through their own.
 */
interface ClientLink {
    /** Sends {@code op} to the node. */
    void send(FileOp op);

    /** Reports {@code bytes} of {@code total} done for operation {@code op}. */
    void progress(long op, long bytes, long total);

    /** Ends operation {@code op} with a failure or (failure null) a value. */
    void finish(long op, Failure failure, Object value);
}
