package geoblocks.blockstore.wire;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;

/**
 * The header at the start of a background block stream (a LEDBAT stream that carries exactly one
 * block): which request of the sender it answers, which block, its length and CRC32C. The block's
 * {@code length} bytes follow the header directly. Invariant: {@code length >= 0}, block id
 * non-empty and at most {@value #MAX_ID} UTF-8 bytes.
 *
 * <pre>
 * +-------------+---------+--------------+---------+-----------------+------------+---------+
 * | magic u32   | version | body len u16 | req i64 | block id        | length i32 | crc i32 |
 * | "GBBS"      | u8 = 1  | (bytes after |         | u16 len + UTF-8 |            | CRC32C  |
 * |             |         |  this field) |         |                 |            |         |
 * +-------------+---------+--------------+---------+-----------------+------------+---------+
 * |<------------ PREFIX (7 bytes) ------>|<---------------- body (body len) ---------------->|
 * </pre>
 */
public record BlockStreamHeader(long req, String blockId, int length, int crc) {
    public static final int MAGIC = 0x47424253; // "GBBS"
    public static final int VERSION = 1;
    /** Bytes before the body: magic, version, body length. */
    public static final int PREFIX = 7;
    public static final int MAX_ID = 256;
    /** Largest valid body: req, the longest id, length, crc. */
    public static final int MAX_BODY = 8 + 2 + MAX_ID + 4 + 4;

    public BlockStreamHeader {
        if (blockId == null || blockId.isEmpty() || Wire.stringSize(blockId) - 2 > MAX_ID) {
            throw new IllegalArgumentException("block id must be 1.." + MAX_ID + " UTF-8 bytes, was '" + blockId + "'");
        }
        if (length < 0) {
            throw new IllegalArgumentException("block length must not be negative, was " + length);
        }
    }

    /** The encoded header. */
    public byte[] encode() {
        int body = 8 + Wire.stringSize(blockId) + 4 + 4;
        ByteBuffer b = ByteBuffer.allocate(PREFIX + body);
        b.putInt(MAGIC).put((byte) VERSION).putShort((short) body);
        b.putLong(req);
        Wire.writeString(blockId, b);
        b.putInt(length).putInt(crc);
        return b.array();
    }

    /**
     * The total header size announced by {@code prefix} (its first {@value #PREFIX} bytes), after
     * checking magic, version and the body length.
     */
    public static int size(byte[] prefix) throws MalformedMessageException {
        if (prefix.length < PREFIX) {
            throw new IllegalArgumentException("need " + PREFIX + " prefix bytes, got " + prefix.length);
        }
        ByteBuffer b = ByteBuffer.wrap(prefix);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new MalformedMessageException("block stream magic " + Integer.toHexString(magic) + " != "
                    + Integer.toHexString(MAGIC));
        }
        int version = Byte.toUnsignedInt(b.get());
        if (version != VERSION) {
            throw new MalformedMessageException("block stream version " + version + " unsupported (want " + VERSION + ")");
        }
        int body = Short.toUnsignedInt(b.getShort());
        if (body < 8 + 2 + 1 + 4 + 4 || body > MAX_BODY) {
            throw new MalformedMessageException("block stream header body of " + body + " bytes outside 19.." + MAX_BODY);
        }
        return PREFIX + body;
    }

    /** Decodes a complete header of exactly {@link #size} bytes. */
    public static BlockStreamHeader decode(byte[] header) throws MalformedMessageException {
        int size = size(header);
        if (header.length != size) {
            throw new MalformedMessageException("block stream header of " + header.length + " bytes, announced " + size);
        }
        ByteBuffer b = ByteBuffer.wrap(header, PREFIX, size - PREFIX);
        long req = Wire.readLong(b, "req");
        String id = Wire.readString(b, MAX_ID, "block id");
        int length = Wire.readInt(b, "block length");
        int crc = Wire.readInt(b, "block crc");
        if (b.hasRemaining()) {
            throw new MalformedMessageException(b.remaining() + " unexpected bytes after the block stream header");
        }
        if (id.isEmpty()) {
            throw new MalformedMessageException("empty block id in block stream header");
        }
        if (length < 0) {
            throw new MalformedMessageException("negative block length " + length + " in block stream header");
        }
        try {
            return new BlockStreamHeader(req, id, length, crc);
        } catch (IllegalArgumentException e) { // e.g. invalid UTF-8 that grows when re-encoded
            throw new MalformedMessageException("bad block stream header: " + e.getMessage());
        }
    }
}
