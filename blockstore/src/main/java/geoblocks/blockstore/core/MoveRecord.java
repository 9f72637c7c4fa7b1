package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A move this node coordinates, as kept in the metadata engine from its start to its end so that a
 * restart resumes it: the version being moved as it was when the move started ({@code from}: its
 * file id, version and old homes, from which {@link MovePlan} derives the copies, the new manifest and
 * the old copies to drop), the target regions and when it started (epoch ms). Binary form,
 * big-endian, sealed by CRC32C over every byte before it:
 *
 * <pre>
 * 0       4      5               13       14
 * +-------+------+---------------+--------+--------------------------+-----------+----------+--------+
 * | GBMV  | ver  | started i64   | n u8   | n x target (u16 + UTF-8) | len i32   | manifest | crc32c |
 * +-------+------+---------------+--------+--------------------------+-----------+----------+--------+
 * </pre>
 * The manifest is {@link ManifestCodec#encode}'s (itself sealed).
 */
public record MoveRecord(Manifest from, List<String> targets, long startedMillis) {
    static final int MAGIC = 0x47424D56; // "GBMV"
    static final byte VERSION = 1;
    static final int MAX_TARGETS = 255;
    static final int MAX_REGION = 1024;

    public MoveRecord {
        targets = List.copyOf(targets);
        if (targets.isEmpty() || targets.size() > MAX_TARGETS) {
            throw new IllegalArgumentException("a move needs 1.." + MAX_TARGETS + " targets, had " + targets.size());
        }
        if (from.deleted()) {
            throw new IllegalArgumentException("a delete of '" + from.name() + "' cannot be moved");
        }
    }

    public String name() {
        return from.name();
    }

    public byte[] encode() {
        byte[] manifest = ManifestCodec.encode(from);
        List<byte[]> t = new ArrayList<>();
        int size = 4 + 1 + 8 + 1 + 4 + manifest.length + 4;
        for (String r : targets) {
            byte[] b = r.getBytes(StandardCharsets.UTF_8);
            if (b.length > MAX_REGION) {
                throw new IllegalArgumentException("region name of " + b.length + " bytes");
            }
            t.add(b);
            size += 2 + b.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).put(VERSION).putLong(startedMillis).put((byte) targets.size());
        for (byte[] r : t) {
            b.putShort((short) r.length).put(r);
        }
        b.putInt(manifest.length).put(manifest);
        b.putInt(Checksums.crc32c(b.array(), 0, size - 4));
        return b.array();
    }

    /** Decodes a record; {@code source} names it in errors. */
    public static MoveRecord decode(byte[] bytes, String source) throws IOException {
        if (bytes.length < 4 + 1 + 8 + 1 + 4 + 4) {
            throw new IOException(source + ": " + bytes.length + " bytes, too short for a move record");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt(0) != MAGIC) {
            throw new IOException(source + ": bad magic 0x" + Integer.toHexString(b.getInt(0)) + ", not a move record");
        }
        if (b.get(4) != VERSION) {
            throw new IOException(source + ": unknown move record version " + b.get(4) + " (this node reads " + VERSION + ")");
        }
        int stored = b.getInt(bytes.length - 4);
        int actual = Checksums.crc32c(bytes, 0, bytes.length - 4);
        if (stored != actual) {
            throw new IOException(source + ": checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(stored));
        }
        b.position(5).limit(bytes.length - 4);
        try {
            long started = b.getLong();
            int n = Byte.toUnsignedInt(b.get());
            List<String> targets = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = Short.toUnsignedInt(b.getShort());
                if (len > MAX_REGION || len > b.remaining()) {
                    throw new IOException(source + ": target " + i + " of " + len + " bytes");
                }
                byte[] r = new byte[len];
                b.get(r);
                targets.add(new String(r, StandardCharsets.UTF_8));
            }
            int len = b.getInt();
            if (len < 0 || len != b.remaining()) {
                throw new IOException(source + ": manifest of " + len + " bytes, " + b.remaining() + " left");
            }
            byte[] m = new byte[len];
            b.get(m);
            return new MoveRecord(ManifestCodec.decode(m), targets, started);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException(source + ": malformed move record: " + e, e);
        }
    }
}
