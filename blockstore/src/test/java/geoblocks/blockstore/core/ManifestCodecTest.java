package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestCodecTest {
    private static final Manifest SAMPLE = Manifests.of("sample.bin", 5 * 1000 + 123, 1000);

    private static Manifest roundTrip(Manifest m) throws IOException {
        return ManifestCodec.decode(ManifestCodec.encode(m));
    }

    /** {@code body} followed by its correct CRC32C, so decoding gets past the checksum. */
    private static byte[] withCrc(byte[] body) {
        return ByteBuffer.allocate(body.length + 4).put(body).putInt(Checksums.crc32c(body)).array();
    }

    private static byte[] bodyOf(byte[] encoded) {
        return Arrays.copyOf(encoded, encoded.length - 4);
    }

    /** Decodes, accepting a manifest or an IOException; any other throwable fails the test. */
    private static void decodeOrIOException(byte[] data) {
        try {
            ManifestCodec.decode(data);
        } catch (IOException expected) {
            // rejected, as it should be
        }
    }

    @Test
    void roundTrip_sample_equalsOriginal() throws IOException {
        assertEquals(SAMPLE, roundTrip(SAMPLE));
    }

    @Test
    void roundTrip_withMetadata_equalsOriginal_andWithoutItStaysFormat2() throws IOException {
        Map<String, String> meta = Map.of("etag", "9e107d9d372bb6826bd81d3542a419d6", "content-type",
                "image/jpeg; charset=\u00fc");
        Manifest m = new Manifest(SAMPLE.name(), SAMPLE.fileId(), SAMPLE.size(), SAMPLE.blockSize(), SAMPLE.policy(),
                SAMPLE.uploadedAt(), SAMPLE.createdMillis(), SAMPLE.blocks(), SAMPLE.version(), 3, false, meta);
        Manifest back = roundTrip(m);
        assertEquals(m, back);
        assertEquals(meta, back.meta());
        assertEquals(meta, back.withLocations(back.blocks()).meta());
        assertEquals(3, ManifestCodec.encode(m)[4]);
        assertEquals(2, ManifestCodec.encode(SAMPLE)[4]);
    }

    @Test
    void metadata_overItsLimit_isRefused() {
        Assertions.assertThrows(IllegalArgumentException.class, () -> new Manifest(SAMPLE.name(),
                SAMPLE.fileId(), SAMPLE.size(), SAMPLE.blockSize(), SAMPLE.policy(), SAMPLE.uploadedAt(),
                SAMPLE.createdMillis(), SAMPLE.blocks(), SAMPLE.version(), 0, false,
                Map.of("k", "v".repeat(Manifest.MAX_META_BYTES))));
    }

    @Test
    void roundTrip_zeroSizeFile_equalsOriginal() throws IOException {
        Manifest m = Manifests.of("empty", 0, 1 << 20);
        assertEquals(1, m.blocks().size());
        assertEquals(m, roundTrip(m));
    }

    @Test
    void roundTrip_zeroBlocks_equalsOriginal() throws IOException {
        Manifest m = Manifests.withBlocks(0, 10, List.of());
        assertEquals(m, roundTrip(m));
    }

    @Test
    void roundTrip_twentyThousandBlocks_exceeds64KiBAndEqualsOriginal() throws IOException {
        Manifest m = Manifests.of("big", 20_000L * 65536 - 7, 65536, List.of("saopaulo", "mumbai", "dublin"));
        assertEquals(20_000, m.blocks().size());
        byte[] bytes = ManifestCodec.encode(m);
        assertTrue(bytes.length > 65536, "encoded " + bytes.length + " bytes");
        assertEquals(m, ManifestCodec.decode(bytes));
    }

    @Test
    void roundTrip_manyReplicasAndExtremeValues_equalsOriginal() throws IOException {
        List<String> replicas = IntStream.range(0, 255).mapToObj(i -> "r" + i).toList();
        Manifest m = new Manifest("x", "id", Integer.MAX_VALUE, Integer.MAX_VALUE, "", "", Long.MIN_VALUE,
                List.of(new Manifest.BlockRef(Integer.MAX_VALUE, -1, replicas)));
        assertEquals(m, roundTrip(m));
    }

    @ParameterizedTest
    @ValueSource(strings = {"résumé.txt", "写真.jpg", "emoji \uD83D\uDE00.png", "\uD83C\uDDF0\uD83C\uDDF7 flag", "a\\b ~!@#$%^&*()"})
    void roundTrip_nonAsciiName_keepsNameExactly(String name) throws IOException {
        Manifest m = Manifests.of(name, 10, 4);
        assertEquals(name, roundTrip(m).name());
        assertEquals(m, roundTrip(m));
    }

    @Test
    void roundTrip_nameOf100Utf8BytesOfSupplementaryChars_equalsOriginal() throws IOException {
        Manifest m = Manifests.of("\uD83D\uDE00".repeat(25), 10, 4);
        assertEquals(m, roundTrip(m));
    }

    @Test
    void roundTrip_nonAsciiReplicaAndPolicyStrings_equalsOriginal() throws IOException {
        Manifest m = new Manifest("f", "id\uD83D\uDE00", 3, 4, "pol\u00e9", "s\u00e3opaulo", 5,
                List.of(new Manifest.BlockRef(3, 9, List.of("s\u00e3opaulo", "\uD83D\uDE00"))));
        assertEquals(m, roundTrip(m));
    }

    private static final String PINNED = ""
            + "47424d460200076469722f66c3a9000469642d31000000000000012c00000080000c6c6f63616c636c6f73657374000573656f756c0000018bcfe56800018bcfe568000003000573656f756c00000000000000050000000003000000800000000702000573656f756c00066475626c696e00000080000000080100066d756d6261690000002c0000000902000973c3a36f7061756c6f0004f09f9880bd1f9d21\n"
            + "47424d4603000178000469642d32000000000000001400000020000974776f72616e646f6d00066475626c696e0000000000000009000000000000000b00066475626c696e000000000000000000000000010000000a000000010100066475626c696e02000000140000000202000c636f6e74656e742d74797065000a746578742f706c61696e00036bc3a90001768bbb4645\n"
            + "47424d46040005736d616c6c000469642d33000000000000000d0000040000056c6f63616c00066d756d626169000000000000000c000000000000000d00066d756d626169000000000000000000000000000100046574616700036162630000000d68656c6c6f2c20696e6c696e65e3a763629b0d47d8\n"
            + "47424d46020004676f6e6500027431000000000000000000000001000000066d756d626169000000000000002a000000000000004d00066d756d626169000000000000000001000000002dac23ad\n"
            + "47424d480200020000004e47424d46020004676f6e6500027431000000000000000000000001000000066d756d626169000000000000002a000000000000004600066475626c696e000000000000000001000000001b5b23560000004e47424d46020004676f6e6500027431000000000000000000000001000000066d756d626169000000000000002a000000000000004d00066d756d626169000000000000000001000000002dac23ad0200066475626c696e00066d756d626169439eca65";

    /** Each format's bytes, as the codec wrote them before it sized its records up front (f6651286): pinned, so no format changes by accident. */
    private static List<Manifest> pinnedManifests() {
        Manifest plain = new Manifest("dir/f\u00e9", "id-1", 300, 128, "localclosest", "seoul", 1_700_000_000_000L,
                List.of(new Manifest.BlockRef(128, 7, List.of("seoul", "dublin")), new Manifest.BlockRef(128, 8, List.of("mumbai")),
                        new Manifest.BlockRef(44, 9, List.of("s\u00e3opaulo", "\uD83D\uDE00"))),
                new Version(HybridClock.of(1_700_000_000_000L, 3), "seoul"), 5, false);
        Manifest extended = new Manifest("x", "id-2", 20, 32, "tworandom", "dublin", 9,
                List.of(new Manifest.BlockRef(10, 1, List.of("dublin"), BlockCodec.ZSTD, 20, 2)),
                new Version(11, "dublin"), 0, false, new TreeMap<>(Map.of("content-type", "text/plain", "k\u00e9", "v")));
        Manifest inline = Manifest.inline("small", "id-3", 1024, "local", "mumbai", 12, new Version(13, "mumbai"),
                Map.of("etag", "abc"), "hello, inline".getBytes(StandardCharsets.UTF_8));
        Manifest tomb = Manifest.tombstone("gone", "t1", "mumbai", 42, new Version(77, "mumbai"));
        return List.of(plain, extended, inline, tomb);
    }

    @Test
    void encode_writesThePinnedBytes_ofEveryFormat_andOfAHistory() {
        List<Manifest> ms = pinnedManifests();
        StringBuilder got = new StringBuilder();
        for (Manifest m : ms) {
            got.append(HexFormat.of().formatHex(ManifestCodec.encode(m))).append('\n');
        }
        got.append(HexFormat.of().formatHex(ManifestCodec.encodeHistory(new ManifestHistory("gone", List.of(
                ms.get(3).withVersion(new Version(70, "dublin")), ms.get(3)), List.of("dublin", "mumbai")))));
        assertEquals(PINNED, got.toString());
    }

    @Test
    void encode_isDeterministic() {
        assertTrue(Arrays.equals(ManifestCodec.encode(SAMPLE), ManifestCodec.encode(SAMPLE)));
    }

    @Test
    void decode_everyTruncation_throwsIOException() {
        byte[] full = ManifestCodec.encode(SAMPLE);
        for (int len = 0; len < full.length; len++) {
            byte[] cut = Arrays.copyOf(full, len);
            assertThrows(IOException.class, () -> ManifestCodec.decode(cut), "truncated to " + len);
        }
    }

    @Test
    void decode_everyTruncationWithRecomputedCrc_throwsIOException() {
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        for (int len = 0; len < body.length; len++) {
            byte[] cut = withCrc(Arrays.copyOf(body, len));
            assertThrows(IOException.class, () -> ManifestCodec.decode(cut), "body truncated to " + len);
        }
    }

    @Test
    void decode_flippedByteAnywhere_throwsIOException() {
        byte[] full = ManifestCodec.encode(SAMPLE);
        for (int pos = 0; pos < full.length; pos++) {
            for (int mask : new int[] {0x01, 0x10, 0x80, 0xff}) {
                byte[] bad = full.clone();
                bad[pos] ^= (byte) mask;
                assertThrows(IOException.class, () -> ManifestCodec.decode(bad), "byte " + pos + " ^ " + mask);
            }
        }
    }

    @Test
    void decode_extraTrailingBytes_throwsIOException() {
        byte[] full = ManifestCodec.encode(SAMPLE);
        assertThrows(IOException.class, () -> ManifestCodec.decode(Arrays.copyOf(full, full.length + 1)));
        byte[] body = bodyOf(full);
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(Arrays.copyOf(body, body.length + 3))));
    }

    @Test
    void decode_wrongMagicOrVersionWithValidCrc_throwsIOException() {
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        byte[] magic = body.clone();
        magic[0] = 'X';
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(magic)));
        for (byte format : new byte[] {0, 3, -1}) {
            byte[] version = body.clone();
            version[4] = format;
            assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(version)));
        }
    }

    @Test
    void decode_unknownFlags_throwsIOException() {
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        body[blockCountOffset(SAMPLE) - 1] = 2;
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(body)));
        assertTrue(e.getMessage().contains("flags 2"), e.getMessage());
    }

    @Test
    void roundTrip_versionEpochAndTombstone_survive() throws IOException {
        Manifest v = SAMPLE.withVersion(new Version(HybridClock.of(1_700_000_000_000L, 9), "dublin"));
        Manifest moved = v.withLocations(v.blocks());
        assertEquals(moved, ManifestCodec.decode(ManifestCodec.encode(moved)));
        Manifest t = Manifest.tombstone("gone", "t1", "mumbai", 42, new Version(77, "mumbai"));
        assertEquals(t, ManifestCodec.decode(ManifestCodec.encode(t)));
    }

    @Test
    void history_roundTrips_andDecodeAnyReadsASingleManifestToo() throws IOException {
        Manifest a = SAMPLE.withVersion(new Version(1, "a"));
        Manifest t = Manifest.tombstone(SAMPLE.name(), "t", "b", 1, new Version(2, "b"));
        ManifestHistory h = new ManifestHistory(SAMPLE.name(), List.of(a, t));
        assertEquals(h, ManifestCodec.decodeAny(ManifestCodec.encodeHistory(h)));
        assertEquals(ManifestHistory.of(a), ManifestCodec.decodeAny(ManifestCodec.encode(a)));
        ManifestHistory acked = h.acknowledgedBy("seoul").acknowledgedBy("mumbai");
        assertEquals(acked, ManifestCodec.decodeAny(ManifestCodec.encodeHistory(acked)));
    }

    @Test
    void history_format1_readsWithNoAcknowledgements_andAcknowledgementsOfALiveHeadAreRefused() throws IOException {
        Manifest a = SAMPLE.withVersion(new Version(1, "a"));
        Manifest t = Manifest.tombstone(SAMPLE.name(), "t", "b", 1, new Version(2, "b"));
        byte[] one = ManifestCodec.encode(a);
        byte[] two = ManifestCodec.encode(t);
        ByteBuffer v1 = ByteBuffer.allocate(4 + 1 + 2 + 8 + one.length + two.length);
        v1.putInt(0x47424D48).put((byte) 1).putShort((short) 2).putInt(one.length).put(one).putInt(two.length).put(two);
        assertEquals(new ManifestHistory(SAMPLE.name(), List.of(a, t)), ManifestCodec.decodeAny(withCrc(v1.array())));

        byte[] region = "seoul".getBytes(StandardCharsets.UTF_8);
        ByteBuffer live = ByteBuffer.allocate(4 + 1 + 2 + 4 + one.length + 1 + 2 + region.length);
        live.putInt(0x47424D48).put((byte) 2).putShort((short) 1).putInt(one.length).put(one)
                .put((byte) 1).putShort((short) region.length).put(region);
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decodeAny(withCrc(live.array())));
        assertTrue(e.getMessage().contains("live head"), e.getMessage());
    }

    @Test
    void history_corruptedOrInconsistent_throwsIOException() {
        Manifest a = SAMPLE.withVersion(new Version(1, "a"));
        Manifest b = SAMPLE.withVersion(new Version(2, "b"));
        byte[] good = ManifestCodec.encodeHistory(new ManifestHistory(SAMPLE.name(), List.of(a, b)));
        Random r = new Random(3);
        for (int i = 0; i < 2000; i++) {
            byte[] bad = good.clone();
            bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
            assertThrows(IOException.class, () -> ManifestCodec.decodeAny(bad));
        }
        for (int len = 0; len < good.length; len += 7) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThrows(IOException.class, () -> ManifestCodec.decodeAny(cut));
        }
        // versions out of order, though sealed with a valid checksum
        byte[] one = ManifestCodec.encode(b);
        byte[] two = ManifestCodec.encode(a);
        ByteBuffer swapped = ByteBuffer.allocate(4 + 1 + 2 + 8 + one.length + two.length);
        swapped.putInt(0x47424D48).put((byte) 1).putShort((short) 2).putInt(one.length).put(one).putInt(two.length).put(two);
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decodeAny(withCrc(swapped.array())));
        assertTrue(e.getMessage().contains("ascend"), e.getMessage());
    }

    /** Offset of the block count: magic, format, then the fields of {@link Manifests#of} and the version's. */
    private static int blockCountOffset(Manifest m) {
        return 4 + 1 + (2 + m.name().length()) + (2 + m.fileId().length()) + 8 + 4 + (2 + m.policy().length())
                + (2 + m.uploadedAt().length()) + 8 + 8 + (2 + m.version().region().length()) + 8 + 1;
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1_000_000, 7, 5, 0})
    void decode_lyingBlockCountWithValidCrc_throwsIOException(int count) {
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        int at = blockCountOffset(SAMPLE);
        assertEquals(SAMPLE.blocks().size(), ByteBuffer.wrap(body).getInt(at));
        ByteBuffer.wrap(body).putInt(at, count);
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(body)));
    }

    @Test
    void decode_validEncodingOfInvalidManifest_throwsIOException() {
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        int sizeAt = 4 + 1 + (2 + SAMPLE.name().length()) + (2 + SAMPLE.fileId().length());
        ByteBuffer.wrap(body).putLong(sizeAt, SAMPLE.size() + 1); // blocks no longer add up
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(body)));
        assertTrue(e.getMessage().contains("invalid"), e.getMessage());
    }

    @Test
    void decode_randomGarbage_throwsIOException() {
        Random r = new Random(42);
        for (int i = 0; i < 5000; i++) {
            byte[] junk = new byte[r.nextInt(400)];
            r.nextBytes(junk);
            assertThrows(IOException.class, () -> ManifestCodec.decode(junk), "garbage #" + i);
        }
    }

    @Test
    void decode_randomGarbageWithValidMagicAndCrc_neverThrowsAnythingButIOException() {
        Random r = new Random(43);
        byte[] prefix = Arrays.copyOf(ManifestCodec.encode(SAMPLE), 5);
        for (int i = 0; i < 5000; i++) {
            byte[] body = new byte[5 + r.nextInt(300)];
            r.nextBytes(body);
            System.arraycopy(prefix, 0, body, 0, 5);
            decodeOrIOException(withCrc(body));
        }
    }

    @Test
    void decode_mutatedBodyWithValidCrc_neverThrowsAnythingButIOException() {
        Random r = new Random(44);
        byte[] body = bodyOf(ManifestCodec.encode(SAMPLE));
        for (int i = 0; i < 5000; i++) {
            byte[] bad = body.clone();
            for (int k = 1 + r.nextInt(3); k > 0; k--) {
                bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            }
            decodeOrIOException(withCrc(bad));
        }
    }

    @Test
    void decode_tooShort_throwsIOException() {
        assertThrows(IOException.class, () -> ManifestCodec.decode(new byte[0]));
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(new byte[0])));
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(new byte[] {0x47, 0x42, 0x4D, 0x46, 1})));
    }

    private static Manifest compressed() {
        List<Manifest.BlockRef> blocks = List.of(
                new Manifest.BlockRef(600, 0x11, List.of("seoul"), BlockCodec.ZSTD, 1000, 0x22),
                new Manifest.BlockRef(1000, 0x33, List.of("seoul", "dublin")),
                new Manifest.BlockRef(10, 0x44, List.of("dublin"), BlockCodec.GZIP, 123, 0x55));
        return new Manifest("c.bin", "fc", 2123, 1000, "local", "seoul", 5L, blocks);
    }

    @Test
    void roundTrip_compressedBlocks_keepCodecAndOriginalLengthAndChecksum() throws IOException {
        Manifest m = compressed();
        assertEquals(m, roundTrip(m));
        assertEquals(3, ManifestCodec.encode(m)[4], "format 3 when a block is compressed");
        assertEquals(1610, m.storedSize());
        assertEquals(m, ManifestCodec.decodeAny(ManifestCodec.encodeHistory(ManifestHistory.of(m))).versions().get(0));
    }

    @Test
    void roundTrip_compressedBlocksAndMetadata_keepBoth() throws IOException {
        Manifest c = compressed();
        Map<String, String> meta = Map.of("etag", "0123456789abcdef0123456789abcdef-2");
        Manifest m = new Manifest(c.name(), c.fileId(), c.size(), c.blockSize(), c.policy(), c.uploadedAt(),
                c.createdMillis(), c.blocks(), c.version(), 0, false, meta);
        Manifest back = roundTrip(m);
        assertEquals(m, back);
        assertEquals(meta, back.meta());
        assertEquals(BlockCodec.ZSTD, back.blocks().get(0).codec());
        assertEquals(1000, back.blocks().get(0).rawLength());
        assertEquals(3, ManifestCodec.encode(m)[4]);
    }

    @Test
    void encode_noCompressedBlock_staysFormat2ForOlderReaders() {
        assertEquals(2, ManifestCodec.encode(SAMPLE)[4]);
        assertEquals(SAMPLE.size(), SAMPLE.storedSize());
    }

    @Test
    void decode_compressedManifest_everyFlipOrTruncationOrUnknownCodec_throwsIOException() {
        byte[] enc = ManifestCodec.encode(compressed());
        for (int i = 0; i < enc.length; i++) {
            byte[] bad = enc.clone();
            bad[i] ^= 1;
            assertThrows(IOException.class, () -> ManifestCodec.decode(bad), "flip at " + i);
            byte[] cut = Arrays.copyOf(enc, i);
            assertThrows(IOException.class, () -> ManifestCodec.decode(cut), "cut at " + i);
        }
        byte[] body = bodyOf(enc);
        // the first block's codec byte sits right after its one replica string ("seoul")
        int codecAt = blockCountOffset(compressed()) + 4 + 4 + 4 + 1 + 2 + 5;
        assertEquals(BlockCodec.ZSTD.id(), body[codecAt]);
        body[codecAt] = 9;
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(body)));
        assertTrue(e.getMessage().contains("codec"), e.getMessage());
    }

    @Test
    void batch_roundTrip_keepsEveryItemInOrder_manifestsAndHistories() throws IOException {
        Manifest a = Manifests.of("a", 10, 1000);
        Manifest b = Manifests.of("b", 5000, 1000);
        ManifestHistory h = ManifestHistory.of(a);
        byte[] batch = ManifestCodec.encodeBatch(List.of(ManifestCodec.encode(b), ManifestCodec.encodeHistory(h),
                ManifestCodec.encode(a)));
        assertTrue(ManifestCodec.isBatch(batch));
        assertTrue(!ManifestCodec.isBatch(ManifestCodec.encode(a)) && !ManifestCodec.isBatch(ManifestCodec.encodeHistory(h)));
        assertEquals(List.of(ManifestHistory.of(b), h, ManifestHistory.of(a)), ManifestCodec.decodeBatch(batch));
        assertThrows(IllegalArgumentException.class, () -> ManifestCodec.encodeBatch(List.of()));
    }

    /** Every flip of a framing byte, every truncation and random garbage: an IOException, never another throwable. */
    @Test
    void batch_malformed_isAnIOException() {
        byte[] batch = ManifestCodec.encodeBatch(List.of(ManifestCodec.encode(SAMPLE), ManifestCodec.encode(Manifests.of("x", 1, 10))));
        for (int i = 0; i < batch.length; i++) {
            byte[] cut = Arrays.copyOf(batch, i);
            assertThrows(IOException.class, () -> ManifestCodec.decodeBatch(cut), "cut at " + i);
            byte[] bad = batch.clone();
            bad[i] ^= 0x40;
            assertThrows(IOException.class, () -> ManifestCodec.decodeBatch(bad), "flip at " + i);
        }
        byte[] longer = Arrays.copyOf(batch, batch.length + 1);
        assertThrows(IOException.class, () -> ManifestCodec.decodeBatch(longer), "a trailing byte");
        Random rnd = new Random(11);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[rnd.nextInt(64)];
            rnd.nextBytes(junk);
            if (junk.length >= 8) {
                ByteBuffer.wrap(junk).putInt(0x47424D42).putInt(rnd.nextInt(4));
            }
            try {
                ManifestCodec.decodeBatch(junk);
            } catch (IOException expected) {
                // refused, as it should be
            }
        }
    }
}
