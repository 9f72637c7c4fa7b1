package geoblocks.app.ledbat;

import java.nio.ByteBuffer;

/**
 * What the server reports back to the client for each finished stream, sent on a reverse LEDBAT
 * stream: 32 bytes, big-endian.
 *
 * <pre>
 * +--------------+----------------+-------------------------+------------------------+---------------+
 * | magic "GBLR" | client stream  | bytes received (i64)    | CRC32C of them (i64)   | server ms (i32) | pad (i32) |
 * +--------------+----------------+-------------------------+------------------------+---------------+
 * </pre>
 */
record ResultRecord(int streamId, long bytes, long crc, int serverMillis) {
    static final int MAGIC = 0x47424c52;
    static final int SIZE = 4 + 4 + 8 + 8 + 4 + 4;

    byte[] encode() {
        return ByteBuffer.allocate(SIZE).putInt(MAGIC).putInt(streamId).putLong(bytes).putLong(crc)
                .putInt(serverMillis).putInt(0).array();
    }

    /** Decodes one record; throws IllegalArgumentException on a wrong magic. */
    static ResultRecord decode(ByteBuffer b) {
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException("bad result record magic 0x" + Integer.toHexString(magic));
        }
        ResultRecord r = new ResultRecord(b.getInt(), b.getLong(), b.getLong(), b.getInt());
        b.getInt();
        return r;
    }
}
