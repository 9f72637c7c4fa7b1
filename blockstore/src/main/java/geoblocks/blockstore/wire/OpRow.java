package geoblocks.blockstore.wire;

import geoblocks.net.MalformedMessageException;

/**
 * One row of the file protocol: an op's tag, its class, and how its fields after {@code req} are
 * read and written. Each family's codec ({@link ClientCodec}, {@link PeerCodec}, {@link BenchCodec})
 * lists its rows; {@link FileCodec} joins them into one table used by both directions.
 */
record OpRow<T extends FileOp>(int tag, Class<T> type, Read<T> reader, Write<T> writer) {
    /** Reads an op's fields after its {@code req}. */
    @FunctionalInterface
    interface Read<T extends FileOp> {
        T read(long req, Fields.In r) throws MalformedMessageException;
    }

    /** Writes an op's fields after its {@code req}; the same code counts sizes and writes bytes. */
    @FunctionalInterface
    interface Write<T extends FileOp> {
        void write(T op, Fields.Out o);
    }

    static <T extends FileOp> OpRow<T> of(int tag, Class<T> type, Read<T> reader, Write<T> writer) {
        return new OpRow<>(tag, type, reader, writer);
    }

    void write(FileOp op, Fields.Out o) {
        writer.write(type.cast(op), o);
    }
}
