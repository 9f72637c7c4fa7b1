package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompressionTest {
    private static final BlockId ID = BlockId.ofFileBlock("f1", 0);

    private static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Base64 of random bytes: text-like, compresses to about 3/4 (6 bits of entropy per byte). */
    private static byte[] base64(long seed, int n) {
        byte[] text = Base64.getEncoder().encode(random(seed, n));
        return Arrays.copyOf(text, n);
    }

    /** {@code n} bytes of which the first {@code zeros} are zero and the rest random. */
    private static byte[] zerosThenRandom(long seed, int n, int zeros) {
        byte[] b = random(seed, n);
        Arrays.fill(b, 0, zeros, (byte) 0);
        return b;
    }

    @ParameterizedTest
    @EnumSource(BlockCodec.class)
    void codec_roundTrip_givesTheOriginalBack(BlockCodec codec) throws Exception {
        for (byte[] raw : new byte[][] {new byte[0], base64(1, 1), base64(2, 100_000), random(3, 70_000)}) {
            byte[] stored = codec.compress(raw, raw.length);
            assertArrayEquals(raw, codec.decompress(ID, stored, raw.length), codec + " of " + raw.length + " bytes");
        }
    }

    @ParameterizedTest
    @EnumSource(value = BlockCodec.class, names = {"GZIP", "ZSTD"})
    void codec_corruptOrTruncatedData_isACorruptBlockNeverAnotherException(BlockCodec codec) {
        byte[] raw = base64(4, 50_000);
        byte[] stored = codec.compress(raw, raw.length);
        List<Integer> undetected = new ArrayList<>();
        for (int i = 0; i < stored.length; i += Math.max(1, stored.length / 500)) {
            byte[] bad = stored.clone();
            bad[i] ^= 0x5A;
            try {
                byte[] out = codec.decompress(ID, bad, raw.length);
                // a flip inside a literal can still decode: the original CRC32C is what catches it
                if (Checksums.crc32c(out) == Checksums.crc32c(raw)) {
                    undetected.add(i);
                }
            } catch (CorruptBlockException e) {
                // detected by the codec
            }
        }
        // only header fields the decoder ignores (gzip's mtime, flags, OS; zstd's window size) can
        // change unnoticed here; the stored CRC32C, checked before decoding, catches those
        assertTrue(undetected.stream().allMatch(i -> i < 10), "undetected flips at " + undetected);
        assertThrows(CorruptBlockException.class,
                () -> codec.decompress(ID, Arrays.copyOf(stored, stored.length / 2), raw.length));
        assertThrows(CorruptBlockException.class, () -> codec.decompress(ID, random(5, 300), raw.length));
    }

    @ParameterizedTest
    @EnumSource(value = BlockCodec.class, names = {"GZIP", "ZSTD"})
    void codec_wrongOriginalLength_isACorruptBlock(BlockCodec codec) {
        byte[] raw = base64(6, 10_000);
        byte[] stored = codec.compress(raw, raw.length);
        assertThrows(CorruptBlockException.class, () -> codec.decompress(ID, stored, raw.length - 1));
        assertThrows(CorruptBlockException.class, () -> codec.decompress(ID, stored, raw.length + 1));
    }

    @Test
    void codec_ids_roundTripAndUnknownIsRefused() throws Exception {
        for (BlockCodec c : BlockCodec.values()) {
            assertEquals(c, BlockCodec.ofId(c.id()));
        }
        assertThrows(IOException.class, () -> BlockCodec.ofId(3));
    }

    @Test
    void parse_acceptsTheFourModesAndNamesABadOne() {
        assertEquals(Compression.AUTO, Compression.parse("Auto"));
        assertEquals(Compression.NONE, Compression.parse("none"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.parse("lz4"));
        assertTrue(e.getMessage().contains("'lz4'"), e.getMessage());
    }

    @Test
    void encode_textLike_isStoredCompressedAndDecodesToTheOriginal() throws Exception {
        byte[] raw = base64(7, 1 << 20);
        for (Compression mode : new Compression[] {Compression.GZIP, Compression.ZSTD, Compression.AUTO}) {
            Compression.Encoded e = mode.encode(raw, raw.length);
            assertFalse(e.codec() == BlockCodec.NONE, mode.label());
            assertTrue(e.stored().length < raw.length * 0.85, mode + " stored " + e.stored().length);
            assertEquals(Checksums.crc32c(raw), e.rawCrc());
            assertArrayEquals(raw, e.codec().decompress(ID, e.stored(), e.rawLength()));
        }
    }

    @Test
    void encode_random_isStoredAsItIsInEveryMode() {
        byte[] raw = random(8, 300_000);
        for (Compression mode : Compression.values()) {
            Compression.Encoded e = mode.encode(raw, raw.length);
            assertEquals(BlockCodec.NONE, e.codec(), mode.label());
            assertArrayEquals(raw, e.stored());
        }
    }

    @Test
    void encode_none_neverCompresses() {
        byte[] raw = new byte[100_000];
        assertEquals(BlockCodec.NONE, Compression.NONE.encode(raw, raw.length).codec());
    }

    @Test
    void savesEnough_isTenPercentOrMore() {
        assertTrue(Compression.savesEnough(90, 100));
        assertFalse(Compression.savesEnough(91, 100));
        assertTrue(Compression.savesEnough(0, 100));
    }

    @Test
    void encode_auto_compressesOnlyWhenTheBlockSavesTenPercent() {
        int n = 40_000; // below the sample size: the whole block decides
        byte[] fivePercent = zerosThenRandom(9, n, n / 20);
        byte[] twentyPercent = zerosThenRandom(10, n, n / 5);
        assertEquals(BlockCodec.NONE, Compression.AUTO.encode(fivePercent, n).codec());
        assertEquals(BlockCodec.ZSTD, Compression.ZSTD.encode(fivePercent, n).codec()); // smaller is enough for zstd
        assertEquals(BlockCodec.ZSTD, Compression.AUTO.encode(twentyPercent, n).codec());
    }

    @Test
    void encode_auto_sampleDecides_incompressibleStartMeansStoredAsItIs() {
        int n = 4 * Compression.SAMPLE_BYTES;
        byte[] raw = random(11, n);
        Arrays.fill(raw, Compression.SAMPLE_BYTES, n, (byte) 'a'); // compressible after the sample
        assertEquals(BlockCodec.NONE, Compression.AUTO.encode(raw, n).codec());
        assertEquals(BlockCodec.ZSTD, Compression.ZSTD.encode(raw, n).codec());
    }

    @Test
    void encode_partOfABuffer_usesOnlyThatLength() throws Exception {
        byte[] buf = "hello hello hello hello hello hello hello hello".getBytes(StandardCharsets.US_ASCII);
        Compression.Encoded e = Compression.ZSTD.encode(buf, 30);
        assertEquals(30, e.rawLength());
        assertEquals(Checksums.crc32c(buf, 0, 30), e.rawCrc());
        byte[] back = e.codec().decompress(ID, e.stored(), e.rawLength());
        assertArrayEquals(Arrays.copyOf(buf, 30), back);
    }
}
