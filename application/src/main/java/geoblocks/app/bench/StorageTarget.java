package geoblocks.app.bench;

import java.io.IOException;

/**
 * What {@code bench storage} measures: numbered slots of one block size per stream, written and
 * read whole. A write is durable when it returns; a read checks what it read. Each stream uses its
 * own slots, so streams never share a slot; a target is used by one thread per stream.
 */
interface StorageTarget extends AutoCloseable {
    /** The target's name in reports: {@code blockstore} or {@code raw}. */
    String name();

    void write(int stream, long slot, byte[] data) throws IOException;

    /** Reads slot {@code slot} of {@code stream} into a buffer of the block size; returns the bytes read. */
    int read(int stream, long slot) throws IOException;

    @Override
    void close() throws IOException;
}
