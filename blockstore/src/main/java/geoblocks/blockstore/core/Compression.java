package geoblocks.blockstore.core;

import java.util.Arrays;
import java.util.Locale;

/**
 * A put's compression mode and the per-block decision it makes. {@code none} stores every block as
 * it is; {@code gzip} and {@code zstd} store a block compressed whenever that makes it smaller;
 * {@code auto} first compresses a sample (the block's first {@link #SAMPLE_BYTES} bytes) with
 * zstd, and stores the block zstd-compressed only when the sample and then the whole block save at
 * least {@link #AUTO_MIN_SAVING_PERCENT} % (incompressible data costs one sample's compression, not
 * the block's). A stored block is therefore never longer than the original, which bounds every
 * buffer by the block size. Pure and thread-safe.
 */
public enum Compression {
    NONE, GZIP, ZSTD, AUTO;

    /** Bytes of a block that {@code auto} compresses to decide. */
    public static final int SAMPLE_BYTES = 64 << 10;
    /** The least saving, in percent of the original, for {@code auto} to store a block compressed. */
    public static final int AUTO_MIN_SAVING_PERCENT = 10;

    /** A block as it will be stored: its codec and bytes, and the original's length and CRC32C. */
    public record Encoded(BlockCodec codec, byte[] stored, int rawLength, int rawCrc) {}

    /** The mode named {@code s} (none, gzip, zstd, auto; any case). */
    public static Compression parse(String s) {
        if (s != null) {
            for (Compression c : values()) {
                if (c.label().equals(s.toLowerCase(Locale.ROOT))) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException("compression must be none, gzip, zstd or auto, was '" + s + "'");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** How block {@code raw[0..length)} is stored under this mode. */
    public Encoded encode(byte[] raw, int length) {
        int rawCrc = Checksums.crc32c(raw, 0, length);
        BlockCodec codec = switch (this) {
            case NONE -> BlockCodec.NONE;
            case GZIP -> BlockCodec.GZIP;
            case ZSTD, AUTO -> BlockCodec.ZSTD;
        };
        if (codec == BlockCodec.NONE || length == 0) {
            return plain(raw, length, rawCrc);
        }
        if (this == AUTO && length > SAMPLE_BYTES) {
            int sample = codec.compress(raw, SAMPLE_BYTES).length;
            if (!savesEnough(sample, SAMPLE_BYTES)) {
                return plain(raw, length, rawCrc);
            }
        }
        byte[] packed = codec.compress(raw, length);
        boolean keep = this == AUTO ? savesEnough(packed.length, length) : packed.length < length;
        return keep ? new Encoded(codec, packed, length, rawCrc) : plain(raw, length, rawCrc);
    }

    /** Whether {@code compressed} bytes are at least {@link #AUTO_MIN_SAVING_PERCENT} % less than {@code raw}. */
    static boolean savesEnough(long compressed, long raw) {
        return (raw - compressed) * 100 >= (long) AUTO_MIN_SAVING_PERCENT * raw;
    }

    private static Encoded plain(byte[] raw, int length, int rawCrc) {
        byte[] stored = raw.length == length ? raw : Arrays.copyOf(raw, length);
        return new Encoded(BlockCodec.NONE, stored, length, rawCrc);
    }
}
