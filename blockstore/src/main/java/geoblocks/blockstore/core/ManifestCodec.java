package geoblocks.blockstore.core;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of a {@link Manifest}, stored on disk and sent between nodes (in chunks). Layout:
 *
 * <pre>
 * "GBMF" | ver u8 | name str | fileId str | size i64 | blockSize i32 | policy str | uploadedAt str
 *        | created i64 | nBlocks i32 | nBlocks x (length i32 | crc i32 | nRep u8 | nRep x str)
 *        | crc32c of everything before (i32)
 * str = u16 length + UTF-8 bytes
 * </pre>
 */
public final class ManifestCodec {
    private static final int MAGIC = 0x47424D46; // "GBMF"
    private static final byte VERSION = 1;

    private ManifestCodec() {}

    public static byte[] encode(Manifest m) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + m.blocks().size() * 24);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeByte(VERSION);
            writeStr(out, m.name());
            writeStr(out, m.fileId());
            out.writeLong(m.size());
            out.writeInt(m.blockSize());
            writeStr(out, m.policy());
            writeStr(out, m.uploadedAt());
            out.writeLong(m.createdMillis());
            out.writeInt(m.blocks().size());
            for (Manifest.BlockRef b : m.blocks()) {
                out.writeInt(b.length());
                out.writeInt(b.crc());
                out.writeByte(b.replicas().size());
                for (String r : b.replicas()) {
                    writeStr(out, r);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] body = bytes.toByteArray();
        return ByteBuffer.allocate(body.length + 4).put(body).putInt(Checksums.crc32c(body)).array();
    }

    public static Manifest decode(byte[] data) throws IOException {
        if (data.length < 9) {
            throw new IOException("manifest of " + data.length + " bytes is too short");
        }
        int crc = ByteBuffer.wrap(data, data.length - 4, 4).getInt();
        int actual = Checksums.crc32c(data, 0, data.length - 4);
        if (crc != actual) {
            throw new IOException("manifest checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(crc));
        }
        ByteBuffer in = ByteBuffer.wrap(data, 0, data.length - 4);
        try {
            if (in.getInt() != MAGIC || in.get() != VERSION) {
                throw new IOException("not a manifest (bad magic or version)");
            }
            String name = str(in);
            String fileId = str(in);
            long size = in.getLong();
            int blockSize = in.getInt();
            String policy = str(in);
            String at = str(in);
            long created = in.getLong();
            int n = in.getInt();
            if (n < 0 || n > in.remaining() / 9) {
                throw new IOException("manifest block count " + n + " does not fit its " + data.length + " bytes");
            }
            List<Manifest.BlockRef> blocks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = in.getInt();
                int bcrc = in.getInt();
                int reps = Byte.toUnsignedInt(in.get());
                List<String> replicas = new ArrayList<>(reps);
                for (int r = 0; r < reps; r++) {
                    replicas.add(str(in));
                }
                blocks.add(new Manifest.BlockRef(len, bcrc, replicas));
            }
            if (in.hasRemaining()) {
                throw new IOException("manifest has " + in.remaining() + " trailing bytes");
            }
            return new Manifest(name, fileId, size, blockSize, policy, at, created, blocks);
        } catch (BufferUnderflowException e) {
            throw new IOException("manifest is truncated");
        } catch (IllegalArgumentException e) {
            throw new IOException("manifest is invalid: " + e.getMessage());
        }
    }

    /**
     * Writes u16 length + standard UTF-8. Not DataOutputStream.writeUTF: its modified UTF-8 encodes
     * characters outside the BMP (emoji) as surrogate pairs, which {@link #str} cannot read back.
     */
    private static void writeStr(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xFFFF) {
            throw new IllegalArgumentException("manifest string of " + b.length + " UTF-8 bytes exceeds 65535");
        }
        out.writeShort(b.length);
        out.write(b);
    }

    /** Reads a string written by {@link #writeStr}. */
    private static String str(ByteBuffer in) throws IOException {
        int len = Short.toUnsignedInt(in.getShort());
        if (len > in.remaining()) {
            throw new IOException("manifest string of " + len + " bytes overruns the data");
        }
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
