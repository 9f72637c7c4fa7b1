package geoblocks.blockstore.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Binary form of a {@link Manifest} (one version), stored on disk and sent between nodes (in
 * chunks), and of a name's {@link ManifestHistory} (all its versions). Layouts:
 *
 * <pre>
 * manifest, format 4 (written only for a version with inline data, so nodes that read format 3
 *        still read every other manifest): format 3 (with no blocks), and after the metadata
 *        and before the crc32c: inlineLength i32 | inlineLength bytes | inlineCrc i32 (CRC32C of
 *        the bytes; at most {@link Manifest#MAX_INLINE_BYTES}, checked on decode)
 * manifest, format 3 (written only when a block is compressed or the version has metadata, so
 *        nodes that read format 2 still read every other manifest):
 *        format 2, with after each block's replicas: codec u8 (0 none, 1 gzip, 2 zstd)
 *        | when codec != 0: rawLength i32 | rawCrc i32   (length and crc are the stored bytes'),
 *        and before the crc32c: nMeta u8 | nMeta x (key str | value str)   keys ascending
 * manifest, format 2 (no compressed block, no metadata):
 * "GBMF" | 2 u8 | name str | fileId str | size i64 | blockSize i32 | policy str | uploadedAt str
 *        | created i64 | clock i64 | clockRegion str | locEpoch i64 | flags u8 (bit 0: tombstone)
 *        | nBlocks i32 | nBlocks x (length i32 | crc i32 | nRep u8 | nRep x str)
 *        | crc32c of everything before (i32)
 * manifest, format 1 (written before versions existed; still read, as {@link Version#legacy}):
 *        the same without clock, clockRegion, locEpoch and flags
 * history, format 2:
 * "GBMH" | 2 u8 | n u16 (>= 1) | n x (length i32 | manifest) | nAck u8 | nAck x str
 *        | crc32c of everything before (i32)
 *        versions of one name, in ascending order, each once; then the regions that acknowledged
 *        the head tombstone (none when the head is live), ascending
 * history, format 1 (before acknowledgements; still read, with none): the same without nAck and its strings
 * batch (several publications to one peer in one message; each item carries its own crc32c):
 * "GBMB" | n i32 (>= 1) | n x (length i32 | manifest or history)
 * str = u16 length + UTF-8 bytes
 * </pre>
 */
public final class ManifestCodec {
    private static final int MAGIC = 0x47424D46; // "GBMF"
    private static final int HISTORY_MAGIC = 0x47424D48; // "GBMH"
    private static final int BATCH_MAGIC = 0x47424D42; // "GBMB"
    private static final byte LEGACY = 1;
    private static final byte VERSION = 2;
    private static final byte EXTENDED = 3;
    private static final byte INLINE = 4;
    private static final byte HISTORY_VERSION = 2;
    private static final byte HISTORY_UNACKNOWLEDGED = 1;

    private ManifestCodec() {}

    public static byte[] encode(Manifest m) {
        byte[] bytes = new byte[encodedSize(m)];
        RecordWriter out = new RecordWriter(bytes);
        encodeInto(m, out);
        return filled(bytes, out);
    }

    /** The versions of one name, ascending, as one sealed record. */
    public static byte[] encodeHistory(ManifestHistory h) {
        List<Manifest> versions = h.versions();
        if (h.acknowledged().size() > 255) {
            throw new IllegalArgumentException("a history lists at most 255 acknowledging regions, '" + h.name()
                    + "' lists " + h.acknowledged().size());
        }
        int[] sizes = new int[versions.size()];
        long size = 4 + 1 + 2 + 1 + 4;
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = encodedSize(versions.get(i));
            size += 4 + sizes[i];
        }
        for (String r : h.acknowledged()) {
            size += RecordWriter.strSize(r);
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a history of " + size + " bytes");
        }
        byte[] bytes = new byte[(int) size];
        RecordWriter out = new RecordWriter(bytes);
        out.i32(HISTORY_MAGIC);
        out.u8(HISTORY_VERSION);
        out.u16(versions.size());
        for (int i = 0; i < sizes.length; i++) {
            out.i32(sizes[i]);
            encodeInto(versions.get(i), out);
        }
        out.u8(h.acknowledged().size());
        for (String r : h.acknowledged()) {
            out.str(r);
        }
        out.crc32cFrom(0);
        return filled(bytes, out);
    }

    /** Bytes {@link #encode} makes of {@code m}, its CRC32C included. */
    static int encodedSize(Manifest m) {
        boolean extended = extended(m);
        long n = 4 + 1 + 8 + 4 + 8 + 8 + 8 + 1 + 4 + 4
                + RecordWriter.strSize(m.name()) + RecordWriter.strSize(m.fileId()) + RecordWriter.strSize(m.policy())
                + RecordWriter.strSize(m.uploadedAt()) + RecordWriter.strSize(m.version().region());
        for (Manifest.BlockRef b : m.blocks()) {
            n += 4 + 4 + 1;
            for (String r : b.replicas()) {
                n += RecordWriter.strSize(r);
            }
            if (extended) {
                n += b.codec() != BlockCodec.NONE ? 9 : 1;
            }
        }
        if (extended) {
            n += 1;
            for (Map.Entry<String, String> e : m.meta().entrySet()) {
                n += RecordWriter.strSize(e.getKey()) + RecordWriter.strSize(e.getValue());
            }
        }
        if (m.isInline()) {
            n += 4 + m.inline().length() + 4;
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a manifest of " + n + " bytes");
        }
        return (int) n;
    }

    /** Whether {@code m} needs format 3 or 4 (a compressed block, metadata, or inline data). */
    private static boolean extended(Manifest m) {
        if (m.isInline() || !m.meta().isEmpty()) {
            return true;
        }
        for (Manifest.BlockRef b : m.blocks()) {
            if (b.codec() != BlockCodec.NONE) {
                return true;
            }
        }
        return false;
    }

    /** Writes {@code m}, sealed with its own CRC32C, at {@code out}'s position. */
    private static void encodeInto(Manifest m, RecordWriter out) {
        int start = out.position();
        boolean inline = m.isInline();
        boolean extended = extended(m);
        out.i32(MAGIC);
        out.u8(inline ? INLINE : extended ? EXTENDED : VERSION);
        out.str(m.name());
        out.str(m.fileId());
        out.i64(m.size());
        out.i32(m.blockSize());
        out.str(m.policy());
        out.str(m.uploadedAt());
        out.i64(m.createdMillis());
        out.i64(m.version().clock());
        out.str(m.version().region());
        out.i64(m.locEpoch());
        out.u8(m.deleted() ? 1 : 0);
        out.i32(m.blocks().size());
        for (Manifest.BlockRef b : m.blocks()) {
            out.i32(b.length());
            out.i32(b.crc());
            out.u8(b.replicas().size());
            for (String r : b.replicas()) {
                out.str(r);
            }
            if (extended) {
                out.u8(b.codec().id());
                if (b.codec() != BlockCodec.NONE) {
                    out.i32(b.rawLength());
                    out.i32(b.rawCrc());
                }
            }
        }
        if (extended) {
            out.u8(m.meta().size());
            for (Map.Entry<String, String> e : m.meta().entrySet()) {
                out.str(e.getKey());
                out.str(e.getValue());
            }
        }
        if (inline) {
            out.i32(m.inline().length());
            m.inline().writeTo(out);
            out.i32(m.inline().crc());
        }
        out.crc32cFrom(start);
    }

    /** {@code bytes}, which {@code out} filled exactly (a size computed wrong is a bug, never a short record). */
    private static byte[] filled(byte[] bytes, RecordWriter out) {
        if (out.position() != bytes.length) {
            throw new IllegalStateException("manifest record sized " + bytes.length + " bytes, written " + out.position());
        }
        return bytes;
    }

    /**
     * A manifest (either format) or a history: the versions it holds, ascending. What nodes store
     * and send; a node that only knew format 1 left single manifests on disk, which load as one
     * legacy version.
     */
    public static ManifestHistory decodeAny(byte[] data) throws IOException {
        return decodeAny(data, 0, data.length);
    }

    /** {@link #decodeAny} of the {@code length} bytes at {@code off} (an item of a batch: no copy). */
    private static ManifestHistory decodeAny(byte[] data, int off, int length) throws IOException {
        if (length >= 4 && ByteBuffer.wrap(data, off, 4).getInt() == HISTORY_MAGIC) {
            return decodeHistory(data, off, length);
        }
        return ManifestHistory.of(decode(data, off, length));
    }

    /** Several encoded manifests or histories ({@link #encode}, {@link #encodeHistory}) as one batch. */
    public static byte[] encodeBatch(List<byte[]> encoded) {
        if (encoded.isEmpty()) {
            throw new IllegalArgumentException("an empty batch");
        }
        long size = 8;
        for (byte[] e : encoded) {
            size += 4 + e.length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a batch of " + size + " bytes");
        }
        ByteBuffer out = ByteBuffer.allocate((int) size).putInt(BATCH_MAGIC).putInt(encoded.size());
        for (byte[] e : encoded) {
            out.putInt(e.length).put(e);
        }
        return out.array();
    }

    /** True when {@code data} is a batch ({@link #encodeBatch}) rather than one manifest or history. */
    public static boolean isBatch(byte[] data) {
        return data.length >= 4 && ByteBuffer.wrap(data).getInt() == BATCH_MAGIC;
    }

    /** The items of a batch, in order, each decoded as by {@link #decodeAny}; a malformed batch is an IOException. */
    public static List<ManifestHistory> decodeBatch(byte[] data) throws IOException {
        try {
            ByteBuffer in = ByteBuffer.wrap(data);
            if (in.getInt() != BATCH_MAGIC) {
                throw new IOException("not a manifest batch");
            }
            int n = in.getInt();
            if (n < 1 || n > in.remaining() / 4) {
                throw new IOException("manifest batch announces " + n + " items in " + data.length + " bytes");
            }
            List<ManifestHistory> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = in.getInt();
                if (len < 9 || len > in.remaining()) {
                    throw new IOException("item " + i + " of " + len + " bytes does not fit the batch's " + data.length);
                }
                out.add(decodeAny(data, in.position(), len));
                in.position(in.position() + len);
            }
            if (in.hasRemaining()) {
                throw new IOException("manifest batch has " + in.remaining() + " trailing bytes");
            }
            return out;
        } catch (BufferUnderflowException e) {
            throw new IOException("manifest batch is truncated");
        }
    }

    private static ManifestHistory decodeHistory(byte[] data, int off, int length) throws IOException {
        ByteBuffer in = checked(data, off, length, "manifest history");
        try {
            in.getInt();
            byte format = in.get();
            if (format != HISTORY_VERSION && format != HISTORY_UNACKNOWLEDGED) {
                throw new IOException("not a manifest history (unknown format " + format + ")");
            }
            int n = Short.toUnsignedInt(in.getShort());
            List<Manifest> versions = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = in.getInt();
                if (len < 9 || len > in.remaining()) {
                    throw new IOException("version " + i + " of " + len + " bytes does not fit the history's " + length);
                }
                versions.add(decode(data, in.position(), len));
                in.position(in.position() + len);
            }
            List<String> acks = new ArrayList<>();
            if (format == HISTORY_VERSION) {
                int nAck = Byte.toUnsignedInt(in.get());
                for (int i = 0; i < nAck; i++) {
                    acks.add(str(in));
                }
            }
            if (in.hasRemaining()) {
                throw new IOException("manifest history has " + in.remaining() + " trailing bytes");
            }
            if (versions.isEmpty()) {
                throw new IOException("manifest history has no versions");
            }
            return new ManifestHistory(versions.get(0).name(), versions, acks);
        } catch (BufferUnderflowException e) {
            throw new IOException("manifest history is truncated");
        } catch (IllegalArgumentException e) {
            throw new IOException("manifest history is invalid: " + e.getMessage());
        }
    }

    /** Checks the trailing CRC32C of the {@code length} bytes at {@code off}; returns their body to read. */
    private static ByteBuffer checked(byte[] data, int off, int length, String what) throws IOException {
        if (length < 9) {
            throw new IOException(what + " of " + length + " bytes is too short");
        }
        int crc = ByteBuffer.wrap(data, off + length - 4, 4).getInt();
        int actual = Checksums.crc32c(data, off, length - 4);
        if (crc != actual) {
            throw new IOException(what + " checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(crc));
        }
        return ByteBuffer.wrap(data, off, length - 4);
    }

    public static Manifest decode(byte[] data) throws IOException {
        return decode(data, 0, data.length);
    }

    /** The manifest in the {@code length} bytes at {@code off} of {@code data} (a version inside a history: no copy). */
    private static Manifest decode(byte[] data, int off, int length) throws IOException {
        ByteBuffer in = checked(data, off, length, "manifest");
        try {
            if (in.getInt() != MAGIC) {
                throw new IOException("not a manifest (bad magic or version)");
            }
            byte format = in.get();
            if (format != INLINE && format != EXTENDED && format != VERSION && format != LEGACY) {
                throw new IOException("not a manifest (bad magic or version)");
            }
            String name = str(in);
            String fileId = str(in);
            long size = in.getLong();
            int blockSize = in.getInt();
            String policy = str(in);
            String at = str(in);
            long created = in.getLong();
            Version version = Version.legacy(created, at);
            long epoch = 0;
            boolean deleted = false;
            if (format != LEGACY) {
                long clock = in.getLong();
                version = new Version(clock, str(in));
                epoch = in.getLong();
                int flags = Byte.toUnsignedInt(in.get());
                if (flags > 1) {
                    throw new IOException("manifest flags " + flags + " are unknown");
                }
                deleted = flags == 1;
            }
            int n = in.getInt();
            if (n < 0 || n > in.remaining() / 9) {
                throw new IOException("manifest block count " + n + " does not fit its " + length + " bytes");
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
                BlockCodec codec = format >= EXTENDED ? BlockCodec.ofId(Byte.toUnsignedInt(in.get())) : BlockCodec.NONE;
                if (codec == BlockCodec.NONE) {
                    blocks.add(new Manifest.BlockRef(len, bcrc, replicas));
                } else {
                    blocks.add(new Manifest.BlockRef(len, bcrc, replicas, codec, in.getInt(), in.getInt()));
                }
            }
            Map<String, String> meta = new TreeMap<>();
            if (format >= EXTENDED) {
                int nMeta = Byte.toUnsignedInt(in.get());
                for (int i = 0; i < nMeta; i++) {
                    String k = str(in);
                    if (meta.put(k, str(in)) != null) {
                        throw new IOException("manifest metadata key '" + k + "' appears twice");
                    }
                }
            }
            Manifest.Inline inline = null;
            if (format == INLINE) {
                int len = in.getInt();
                if (len < 0 || len > Manifest.MAX_INLINE_BYTES || len > in.remaining()) {
                    throw new IOException("manifest inline data of " + len + " bytes does not fit its " + length
                            + " bytes or the limit of " + Manifest.MAX_INLINE_BYTES);
                }
                byte[] bytes = new byte[len];
                in.get(bytes);
                inline = new Manifest.Inline(bytes, in.getInt()); // checks the data's CRC32C
            }
            if (in.hasRemaining()) {
                throw new IOException("manifest has " + in.remaining() + " trailing bytes");
            }
            return new Manifest(name, fileId, size, blockSize, policy, at, created, blocks, version, epoch, deleted, meta,
                    inline);
        } catch (BufferUnderflowException e) {
            throw new IOException("manifest is truncated");
        } catch (IllegalArgumentException e) {
            throw new IOException("manifest is invalid: " + e.getMessage());
        }
    }

    /** Reads a string written by {@link RecordWriter#str}. */
    private static String str(ByteBuffer in) throws IOException {
        int len = Short.toUnsignedInt(in.getShort());
        if (len > in.remaining()) {
            throw new IOException("manifest string of " + len + " bytes overruns the data");
        }
        String s = new String(in.array(), in.arrayOffset() + in.position(), len, StandardCharsets.UTF_8);
        in.position(in.position() + len);
        return s;
    }
}
