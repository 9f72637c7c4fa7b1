package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.read.RangePlan;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Small objects stored inline in their manifest: the manifest's rules, format 4 (only inline
 * versions use it), byte-identical encodings of every other manifest, range plans and the store.
 */
class InlineManifestTest {
    private static final byte[] DATA = "a small object, kept in its manifest\n".getBytes(StandardCharsets.UTF_8);
    private static final Version V = new Version(HybridClock.of(1_700_000_000_000L, 1), "seoul");

    private static Manifest inline(byte[] data) {
        return Manifest.inline("b/small.txt", "f5", 1 << 20, "tworandom", "seoul", 1_700_000_000_000L, V,
                Map.of("etag", "0123"), data);
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] withCrc(byte[] body) {
        return ByteBuffer.allocate(body.length + 4).put(body).putInt(Checksums.crc32c(body)).array();
    }

    // ---- the manifest's rules

    @Test
    void inline_holdsTheBytes_noBlocks_sizeIsTheirLength() throws IOException {
        Manifest m = inline(DATA);
        assertTrue(m.isInline());
        assertEquals(List.of(), m.blocks());
        assertEquals(DATA.length, m.size());
        assertEquals(0, m.storedSize());
        assertArrayEquals(DATA, m.inline().data());
        assertArrayEquals(DATA, m.inline().verified());
        assertEquals(Checksums.crc32c(DATA), m.inline().crc());
        assertFalse(Manifests.of("x", 10, 4).isInline());
        assertNull(Manifests.of("x", 10, 4).inline());
    }

    @Test
    void inline_bytesAreCopiedInAndOut_andComparedByContent() {
        byte[] data = DATA.clone();
        Manifest m = inline(data);
        data[0] ^= 1;
        assertArrayEquals(DATA, m.inline().data(), "changing the caller's array changes nothing");
        m.inline().data()[0] ^= 1;
        assertArrayEquals(DATA, m.inline().data(), "nor does changing a copy handed out");
        assertEquals(m, inline(DATA.clone()));
        assertEquals(m.hashCode(), inline(DATA.clone()).hashCode());
        assertNotEquals(m, inline(data));
        assertTrue(m.inline().toString().contains(DATA.length + " bytes"));
    }

    @Test
    void inline_versionAndLocationChanges_keepTheBytes() {
        Manifest m = inline(DATA);
        Manifest v = m.withVersion(new Version(99, "dublin"));
        assertEquals(m.inline(), v.inline());
        Manifest moved = v.withLocations(List.of());
        assertEquals(m.inline(), moved.inline());
        assertEquals(1, moved.locEpoch());
    }

    @Test
    void inline_invalidCombinations_areRefused() {
        Manifest.Inline in = Manifest.Inline.of(DATA);
        // blocks beside inline data
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Manifest("n", "f", DATA.length,
                1 << 20, "local", "seoul", 1, List.of(new Manifest.BlockRef(DATA.length, in.crc(), List.of("seoul"))), V, 0,
                false, Map.of(), in));
        assertTrue(e.getMessage().contains("no blocks"), e.getMessage());
        // a tombstone with data
        assertThrows(IllegalArgumentException.class, () -> new Manifest("n", "f", 0, 1, "", "seoul", 1, List.of(), V, 0,
                true, Map.of(), Manifest.Inline.of(new byte[0])));
        // size other than the data's length
        e = assertThrows(IllegalArgumentException.class, () -> new Manifest("n", "f", DATA.length + 1, 1 << 20, "local",
                "seoul", 1, List.of(), V, 0, false, Map.of(), in));
        assertTrue(e.getMessage().contains("file size"), e.getMessage());
        // a checksum that does not match
        e = assertThrows(IllegalArgumentException.class, () -> new Manifest.Inline(DATA, in.crc() ^ 1));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        // over the hard cap, whatever the setting
        assertThrows(IllegalArgumentException.class, () -> Manifest.Inline.of(new byte[Manifest.MAX_INLINE_BYTES + 1]));
        assertEquals(Manifest.MAX_INLINE_BYTES, Manifest.Inline.of(new byte[Manifest.MAX_INLINE_BYTES]).length());
    }

    // ---- format 4, and every other manifest as before

    @Test
    void roundTrip_inline_isFormat4_withMetadata() throws IOException {
        for (byte[] data : List.of(DATA, new byte[0], random(Manifest.MAX_INLINE_BYTES, 1), random(3072, 2))) {
            Manifest m = inline(data);
            byte[] enc = ManifestCodec.encode(m);
            assertEquals(4, enc[4], "format 4");
            Manifest back = ManifestCodec.decode(enc);
            assertEquals(m, back);
            assertArrayEquals(data, back.inline().data());
            assertEquals(Map.of("etag", "0123"), back.meta());
        }
    }

    @Test
    void history_withInlineBlockAndTombstoneVersions_roundTrips() throws IOException {
        Manifest a = Manifests.of("b/small.txt", 5000, 1000).withVersion(new Version(1, "seoul"));
        Manifest b = inline(DATA);
        Manifest t = Manifest.tombstone("b/small.txt", "t", "dublin", 1, new Version(V.clock() + 1, "dublin"));
        ManifestHistory h = new ManifestHistory("b/small.txt", List.of(a, b, t)).acknowledgedBy("dublin");
        ManifestHistory back = ManifestCodec.decodeAny(ManifestCodec.encodeHistory(h));
        assertEquals(h, back);
        assertEquals(b, back.find(V).orElseThrow());
        assertEquals(ManifestHistory.of(b), ManifestCodec.decodeAny(ManifestCodec.encode(b)));
    }

    /**
     * Encodings written by the codec before inline objects existed (commit 84d350b, one per format
     * and kind: format 2, format 3 with metadata, format 3 with compressed blocks, a tombstone, an
     * empty file, a history): this build decodes each to the manifest it was made from and encodes
     * that manifest to the same bytes.
     */
    @Test
    void manifestsWithoutInlineData_encodeByteIdenticallyToBefore_andOldEncodingsDecode() throws IOException {
        Manifest plain = new Manifest("photos/2026/a.jpg", "f00d", 2500, 1000, "tworandom", "seoul", 1_700_000_000_000L,
                List.of(new Manifest.BlockRef(1000, 0x1234, List.of("seoul", "dublin")),
                        new Manifest.BlockRef(1000, -7, List.of("seoul", "dublin")),
                        new Manifest.BlockRef(500, 99, List.of("dublin"))),
                new Version(HybridClock.of(1_700_000_000_000L, 3), "seoul"), 2, false);
        Manifest meta = new Manifest("b/k", "f1", 10, 1 << 20, "local", "mumbai", 5L,
                List.of(new Manifest.BlockRef(10, 0x55, List.of("mumbai"))), new Version(77, "mumbai"), 0, false,
                Map.of("etag", "abc", "content-type", "text/plain"));
        Manifest comp = new Manifest("c.bin", "fc", 2123, 1000, "local", "seoul", 5L, List.of(
                new Manifest.BlockRef(600, 0x11, List.of("seoul"), BlockCodec.ZSTD, 1000, 0x22),
                new Manifest.BlockRef(1000, 0x33, List.of("seoul", "dublin")),
                new Manifest.BlockRef(10, 0x44, List.of("dublin"), BlockCodec.GZIP, 123, 0x55)));
        Manifest tomb = Manifest.tombstone("photos/2026/a.jpg", "t1", "mumbai", 42,
                new Version(HybridClock.of(1_700_000_000_100L, 0), "mumbai"));
        Manifest empty = new Manifest("e", "fe", 0, 1 << 20, "local", "seoul", 9L,
                List.of(new Manifest.BlockRef(0, 0, List.of("seoul"))));
        ManifestHistory history = new ManifestHistory(plain.name(), List.of(plain, tomb)).acknowledgedBy("mumbai");
        Map<Manifest, String> before = Map.of(
                plain, "47424d4602001170686f746f732f323032362f612e6a706700046630306400000000000009c4000003e8000974776f72616e646f6d"
                        + "000573656f756c0000018bcfe56800018bcfe568000003000573656f756c00000000000000020000000003000003e8000012340200"
                        + "0573656f756c00066475626c696e000003e8fffffff902000573656f756c00066475626c696e000001f4000000630100066475626c"
                        + "696eaf52123e",
                meta, "47424d46030003622f6b00026631000000000000000a0010000000056c6f63616c00066d756d6261690000000000000005000000"
                        + "000000004d00066d756d626169000000000000000000000000010000000a000000550100066d756d6261690002000c636f6e74656e"
                        + "742d74797065000a746578742f706c61696e0004657461670003616263ebd4a863",
                comp, "47424d46030005632e62696e00026663000000000000084b000003e800056c6f63616c000573656f756c000000000000000500000"
                        + "00000050000000573656f756c00000000000000000000000003000002580000001101000573656f756c02000003e80000002200"
                        + "0003e80000003302000573656f756c00066475626c696e000000000a000000440100066475626c696e010000007b0000005500efe"
                        + "8101c",
                tomb, "47424d4602001170686f746f732f323032362f612e6a706700027431000000000000000000000001000000066d756d62616900000"
                        + "0000000002a018bcfe56864000000066d756d62616900000000000000000100000000ffd2aba0",
                empty, "47424d46020001650002666500000000000000000010000000056c6f63616c000573656f756c0000000000000009000000000009"
                        + "0000000573656f756c00000000000000000000000001000000000000000001000573656f756c360e9dbd");
        for (Map.Entry<Manifest, String> e : before.entrySet()) {
            byte[] old = HexFormat.of().parseHex(e.getValue());
            assertArrayEquals(old, ManifestCodec.encode(e.getKey()), "encoding of " + e.getKey().name());
            assertEquals(e.getKey(), ManifestCodec.decode(old));
        }
        byte[] oldHistory = HexFormat.of().parseHex("47424d48020002000000a5" + before.get(plain) + "0000005b" + before.get(tomb)
                + "0100066d756d6261698f2fd4a1");
        assertArrayEquals(oldHistory, ManifestCodec.encodeHistory(history));
        assertEquals(history, ManifestCodec.decodeAny(oldHistory));
    }

    @Test
    void decode_inline_everyFlipOrTruncation_throwsIOException() {
        byte[] enc = ManifestCodec.encode(inline(DATA));
        for (int i = 0; i < enc.length; i++) {
            byte[] bad = enc.clone();
            bad[i] ^= 0x20;
            assertThrows(IOException.class, () -> ManifestCodec.decode(bad), "flip at " + i);
            byte[] cut = Arrays.copyOf(enc, i);
            assertThrows(IOException.class, () -> ManifestCodec.decode(cut), "cut at " + i);
        }
    }

    @Test
    void decode_inlineDataChangedUnderAValidSeal_failsItsOwnChecksum() {
        byte[] enc = ManifestCodec.encode(inline(DATA));
        byte[] body = Arrays.copyOf(enc, enc.length - 4);
        body[body.length - 4 - 5] ^= 0x01; // a byte of the data, before the data's CRC32C
        IOException e = assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(body)));
        assertTrue(e.getMessage().contains("inline data checksum"), e.getMessage());
    }

    @Test
    void decode_inlineLengthLyingOrOverTheCap_throwsIOException() {
        byte[] enc = ManifestCodec.encode(inline(DATA));
        byte[] body = Arrays.copyOf(enc, enc.length - 4);
        int lenAt = body.length - 4 - DATA.length - 4;
        assertEquals(DATA.length, ByteBuffer.wrap(body).getInt(lenAt));
        for (int lie : new int[] {-1, DATA.length + 1, DATA.length - 1, Manifest.MAX_INLINE_BYTES + 1, Integer.MAX_VALUE}) {
            byte[] bad = body.clone();
            ByteBuffer.wrap(bad).putInt(lenAt, lie);
            assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(bad)), "length " + lie);
        }
        // a format 3 body called format 4 has no inline section; a format 4 one called 3 has trailing bytes
        byte[] three = ManifestCodec.encode(new Manifest("b/k", "f1", 10, 1 << 20, "local", "mumbai", 5L,
                List.of(new Manifest.BlockRef(10, 0x55, List.of("mumbai"))), V, 0, false, Map.of("k", "v")));
        byte[] asFour = Arrays.copyOf(three, three.length - 4);
        asFour[4] = 4;
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(asFour)));
        byte[] asThree = body.clone();
        asThree[4] = 3;
        assertThrows(IOException.class, () -> ManifestCodec.decode(withCrc(asThree)));
    }

    @Test
    void decode_mutatedInlineBodyWithValidSeal_neverThrowsAnythingButIOException() {
        Random r = new Random(45);
        byte[] enc = ManifestCodec.encode(inline(random(500, 3)));
        byte[] body = Arrays.copyOf(enc, enc.length - 4);
        for (int i = 0; i < 5000; i++) {
            byte[] bad = body.clone();
            for (int k = 1 + r.nextInt(3); k > 0; k--) {
                bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            }
            try {
                ManifestCodec.decode(withCrc(bad));
            } catch (IOException expected) {
                // refused, as it should be
            }
        }
    }

    // ---- ranges: nothing to fetch

    @Test
    void rangePlan_ofAnInlineVersion_needsNoBlock_andChecksTheRange() {
        Manifest m = inline(DATA);
        RangePlan whole = RangePlan.whole(m);
        assertEquals(0, whole.blockCount());
        assertEquals(0, whole.storedLength());
        assertEquals(DATA.length, whole.length());
        RangePlan part = RangePlan.of(m, 2, 5);
        assertEquals(0, part.blockCount());
        assertEquals(2, part.keepFrom(0, DATA.length));
        assertEquals(6, part.keepTo(0, DATA.length));
        assertEquals(DATA.length - 3, RangePlan.of(m, 3, Long.MAX_VALUE).length());
        assertThrows(IllegalArgumentException.class, () -> RangePlan.of(m, DATA.length, DATA.length + 1));
        assertEquals(0, RangePlan.whole(inline(new byte[0])).length());
    }

    // ---- the store

    @Test
    void store_keepsInlineVersions_acrossReopening_withoutPlacedBlocks() throws IOException {
        MemoryMetaEngine engine = new MemoryMetaEngine();
        ManifestStore store = new ManifestStore(engine);
        Manifest m = inline(DATA);
        store.save(m);
        assertEquals(m, store.find(m.name()).orElseThrow());
        assertEquals(Map.of(), store.placed(), "an inline object has no block replicas anywhere");
        assertEquals(1, store.size());
        ManifestStore reopened = new ManifestStore(engine);
        assertEquals(m, reopened.find(m.name()).orElseThrow());
        assertArrayEquals(DATA, reopened.find(m.name()).orElseThrow().inline().data());
        assertEquals(store.bucketDigests()[ManifestStore.bucketOf(m.name())],
                reopened.bucketDigests()[ManifestStore.bucketOf(m.name())]);
    }

    @Test
    void store_cacheOfDecodedHistories_isBoundedInBytes() throws IOException {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        byte[] big = random(Manifest.MAX_INLINE_BYTES, 9);
        int n = (int) (ManifestStore.CACHE_BYTES / big.length) + 200;
        for (int i = 0; i < n; i++) {
            store.save(Manifest.inline("big/" + i, "f" + i, 1 << 20, "local", "seoul", i, new Version(i + 1, "seoul"),
                    Map.of(), big));
        }
        long[] cached = store.cached();
        assertTrue(cached[1] <= ManifestStore.CACHE_BYTES, "cached bytes " + cached[1]);
        assertTrue(cached[0] < n, "some histories were evicted: " + cached[0] + " of " + n);
        assertArrayEquals(big, store.find("big/0").orElseThrow().inline().data(), "an evicted one is read again");
    }
}
