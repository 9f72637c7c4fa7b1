package geoblocks.blockstore.core;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * How one block's bytes are stored: as they are ({@link #NONE}), gzip (RFC 1952, the JDK's
 * deflate) or zstd (RFC 8878, aircompressor's pure-Java implementation). The id is what manifests
 * and the wire carry. Decoding is bounded by the block's original length: a stored block that
 * inflates to more or fewer bytes, or does not parse, is corrupt. Stateless and thread-safe.
 */
public enum BlockCodec {
    NONE(0, "none"),
    GZIP(1, "gzip"),
    ZSTD(2, "zstd");

    private final int id;
    private final String label;

    BlockCodec(int id, String label) {
        this.id = id;
        this.label = label;
    }

    public int id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The codec with wire/manifest id {@code id}. */
    public static BlockCodec ofId(int id) throws IOException {
        for (BlockCodec c : values()) {
            if (c.id == id) {
                return c;
            }
        }
        throw new IOException("unknown block codec id " + id);
    }

    /** {@code raw[0..length)} compressed by this codec (for {@link #NONE}: a copy). */
    public byte[] compress(byte[] raw, int length) {
        switch (this) {
            case NONE:
                return Arrays.copyOf(raw, length);
            case GZIP: {
                ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 2));
                try (GZIPOutputStream gz = new GZIPOutputStream(out, 64 << 10)) {
                    gz.write(raw, 0, length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // in memory: cannot happen
                }
                return out.toByteArray();
            }
            case ZSTD: {
                ZstdCompressor z = new ZstdCompressor();
                byte[] out = new byte[z.maxCompressedLength(length)];
                int n = z.compress(raw, 0, length, out, 0, out.length);
                return Arrays.copyOf(out, n);
            }
            default:
                throw new IllegalStateException("codec " + this);
        }
    }

    /**
     * The original bytes of {@code stored}, which must be exactly {@code rawLength} long.
     *
     * @throws CorruptBlockException when the bytes do not decode, or decode to another length
     */
    public byte[] decompress(BlockId id, byte[] stored, int rawLength) throws CorruptBlockException {
        if (rawLength < 0) {
            throw new IllegalArgumentException("original length must be >= 0, was " + rawLength);
        }
        switch (this) {
            case NONE:
                if (stored.length != rawLength) {
                    throw new CorruptBlockException(id, "stored " + stored.length + " bytes, expected " + rawLength);
                }
                return stored;
            case GZIP:
                return gunzip(id, stored, rawLength);
            case ZSTD:
                return unzstd(id, stored, rawLength);
            default:
                throw new IllegalStateException("codec " + this);
        }
    }

    private static byte[] gunzip(BlockId id, byte[] stored, int rawLength) throws CorruptBlockException {
        byte[] raw = new byte[rawLength];
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(stored), 16 << 10)) {
            int n = in.readNBytes(raw, 0, rawLength);
            if (n != rawLength) {
                throw new CorruptBlockException(id, "gzip data inflates to " + n + " bytes, expected " + rawLength);
            }
            if (in.read() >= 0) {
                throw new CorruptBlockException(id, "gzip data inflates to more than " + rawLength + " bytes");
            }
            return raw;
        } catch (CorruptBlockException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new CorruptBlockException(id, "gzip data does not decode: " + e.getMessage());
        }
    }

    private static byte[] unzstd(BlockId id, byte[] stored, int rawLength) throws CorruptBlockException {
        try {
            long declared = ZstdDecompressor.getDecompressedSize(stored, 0, stored.length);
            if (declared != rawLength) {
                throw new CorruptBlockException(id, "zstd frame declares " + declared + " bytes, expected " + rawLength);
            }
            byte[] raw = new byte[rawLength];
            int n = new ZstdDecompressor().decompress(stored, 0, stored.length, raw, 0, rawLength);
            if (n != rawLength) {
                throw new CorruptBlockException(id, "zstd data decodes to " + n + " bytes, expected " + rawLength);
            }
            return raw;
        } catch (MalformedInputException e) {
            throw new CorruptBlockException(id, "zstd data does not decode at offset " + e.getOffset() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new CorruptBlockException(id, "zstd data does not decode: " + e);
        }
    }
}
