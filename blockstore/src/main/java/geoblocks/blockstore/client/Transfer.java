package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.FileOp;

/** One client operation in progress: consumes the node's replies until it reports a result. */
interface Transfer {
    /** Starts the operation (sends its first request). */
    void start() throws Exception;

    /** Handles one reply from the node. */
    void onReply(FileOp op) throws Exception;

    /** Where the operation stands, for a failure that needs saying (e.g. the node went silent); "" when nothing useful. */
    default String state() {
        return "";
    }

    /** Releases files; called once after the result, success or not. */
    default void close() {}
}
