package geoblocks.blockstore.core;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of a replication queue (the copies a coordinator still owes), sealed by CRC32C.
 * Big-endian; strings are u16 length + UTF-8. The trailing CRC32C covers every byte before it, so
 * a truncated or damaged file is refused as a whole, never half-read.
 *
 * <pre>
 * 0       4      5        8            12
 * +-------+------+--------+------------+---------------------------------------+--------------+
 * | GBRQ  | ver  | 0 0 0  | count i32  | count x (name, fileId, block i32,     | crc32c of    |
 * |       |      |        |            |          target)                      | 0..end-4     |
 * +-------+------+--------+------------+---------------------------------------+--------------+
 * </pre>
 */
public final class ReplicationQueueCodec {
    static final int MAGIC = 0x47425251; // "GBRQ"
    static final byte VERSION = 1;
    static final int HEADER = 12;
    /** Longest string field: file names are at most {@link Manifest#MAX_NAME_BYTES} (1,088) bytes, ids and regions shorter. */
    static final int MAX_STRING = 2048;

    private ReplicationQueueCodec() {}

    public static byte[] encode(List<ReplicationQueue.Copy> copies) {
        int size = HEADER + 4;
        List<byte[][]> strings = new ArrayList<>(copies.size());
        for (ReplicationQueue.Copy c : copies) {
            byte[][] s = {utf8(c.name()), utf8(c.fileId()), utf8(c.target())};
            strings.add(s);
            size += 6 + s[0].length + s[1].length + s[2].length + 4;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).put(VERSION).put((byte) 0).put((byte) 0).put((byte) 0).putInt(copies.size());
        for (int i = 0; i < copies.size(); i++) {
            byte[][] s = strings.get(i);
            b.putShort((short) s[0].length).put(s[0]).putShort((short) s[1].length).put(s[1]);
            b.putInt(copies.get(i).block());
            b.putShort((short) s[2].length).put(s[2]);
        }
        b.putInt(Checksums.crc32c(b.array(), 0, size - 4));
        return b.array();
    }

    /** Decodes {@code bytes} read from {@code source} (named in errors). */
    public static List<ReplicationQueue.Copy> decode(byte[] bytes, String source) throws CorruptQueueException {
        if (bytes.length < HEADER + 4) {
            throw new CorruptQueueException(source + ": " + bytes.length + " bytes, shorter than the "
                    + (HEADER + 4) + "-byte header and checksum (truncated)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt(0) != MAGIC) {
            throw new CorruptQueueException(source + ": bad magic 0x" + Integer.toHexString(b.getInt(0))
                    + ", not a replication queue file");
        }
        if (b.get(4) != VERSION) {
            throw new CorruptQueueException(source + ": unknown version " + b.get(4) + " (this node reads " + VERSION + ")");
        }
        int stored = b.getInt(bytes.length - 4);
        int actual = Checksums.crc32c(bytes, 0, bytes.length - 4);
        if (stored != actual) {
            throw new CorruptQueueException(source + ": checksum " + Checksums.hex(actual) + " over " + (bytes.length - 4)
                    + " bytes != stored " + Checksums.hex(stored) + " (truncated or damaged)");
        }
        int count = b.getInt(8);
        if (count < 0 || count > (bytes.length - HEADER - 4) / 10) {
            throw new CorruptQueueException(source + ": entry count " + count + " does not fit " + bytes.length + " bytes");
        }
        b.position(HEADER).limit(bytes.length - 4);
        List<ReplicationQueue.Copy> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = b.position();
            try {
                String name = str(b);
                String fileId = str(b);
                int block = b.getInt();
                String target = str(b);
                out.add(new ReplicationQueue.Copy(name, fileId, block, target));
            } catch (BufferUnderflowException | IllegalArgumentException e) {
                throw new CorruptQueueException(source + ": entry " + i + " at byte " + at + " is malformed: " + e);
            }
        }
        if (b.hasRemaining()) {
            throw new CorruptQueueException(source + ": " + b.remaining() + " bytes after the last of " + count + " entries");
        }
        return out;
    }

    private static String str(ByteBuffer b) {
        int n = Short.toUnsignedInt(b.getShort());
        if (n > MAX_STRING || n > b.remaining()) {
            throw new IllegalArgumentException("string of " + n + " bytes");
        }
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_STRING) {
            throw new IllegalArgumentException("queue string field of " + b.length + " bytes exceeds " + MAX_STRING);
        }
        return b;
    }
}
