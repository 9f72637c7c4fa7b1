package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.Manifests.ref;
import static geoblocks.blockstore.core.Manifests.withBlocks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestTest {

    @Test
    void new_consistentBlocks_isAccepted() {
        Manifest m = withBlocks(25, 10, List.of(ref(10), ref(10), ref(5)));
        assertEquals(3, m.blocks().size());
        assertEquals(BlockId.of("b-f1-2"), m.blockId(2));
    }

    @Test
    void new_zeroSizeFileWithOneEmptyBlock_isAccepted() {
        assertEquals(0, withBlocks(0, 1 << 20, List.of(ref(0))).size());
    }

    @Test
    void new_exactMultipleOfBlockSize_isAccepted() {
        assertEquals(20, withBlocks(20, 10, List.of(ref(10), ref(10))).size());
    }

    @Test
    void new_blockLengthsNotSummingToSize_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> withBlocks(26, 10, List.of(ref(10), ref(10), ref(5))));
        assertTrue(e.getMessage().contains("25") && e.getMessage().contains("26"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> withBlocks(1, 10, List.of()));
    }

    @Test
    void new_middleBlockShorterThanBlockSize_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> withBlocks(24, 10, List.of(ref(10), ref(9), ref(5))));
        assertTrue(e.getMessage().contains("block 1"), e.getMessage());
    }

    @Test
    void new_middleBlockLongerThanBlockSize_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> withBlocks(26, 10, List.of(ref(11), ref(10), ref(5))));
    }

    @Test
    void new_lastBlockLongerThanBlockSize_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> withBlocks(35, 10, List.of(ref(10), ref(25))));
        assertThrows(IllegalArgumentException.class, () -> withBlocks(Integer.MAX_VALUE, 10, List.of(ref(Integer.MAX_VALUE))));
    }

    @Test
    void new_nonPositiveBlockSize_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> withBlocks(0, 0, List.of(ref(0))));
        assertThrows(IllegalArgumentException.class, () -> withBlocks(0, -1, List.of(ref(0))));
    }

    @Test
    void blockRef_noReplicas_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Manifest.BlockRef(10, 0, List.of()));
    }

    @Test
    void blockRef_negativeLength_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Manifest.BlockRef(-1, 0, List.of("seoul")));
    }

    @Test
    void blockRef_replicasAreCopied() {
        List<String> replicas = new ArrayList<>(List.of("seoul"));
        Manifest.BlockRef r = new Manifest.BlockRef(1, 0, replicas);
        replicas.add("dublin");
        assertEquals(List.of("seoul"), r.replicas());
    }

    @Test
    void new_blocksAreCopied() {
        List<Manifest.BlockRef> blocks = new ArrayList<>(List.of(ref(10), ref(5)));
        Manifest m = withBlocks(15, 10, blocks);
        blocks.add(ref(1));
        assertEquals(2, m.blocks().size());
    }

    @Test
    void new_nullFileId_isRejected() {
        assertThrows(NullPointerException.class,
                () -> new Manifest("f", null, 0, 1, "local", "seoul", 0, List.of(ref(0))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a\nb", "a\0b", "tab\there", "del\u007f", "\r", "esc\u001b"})
    void validateName_emptyOrControl_isRejected(String name) {
        assertThrows(IllegalArgumentException.class, () -> Manifest.validateName(name));
        assertThrows(IllegalArgumentException.class,
                () -> new Manifest(name, "f1", 0, 1, "local", "seoul", 0, List.of(ref(0))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"photos/2026/1.jpg", "a/b", "dir/", "../x", "x y"})
    void validateName_pathLikeNames_areAccepted(String name) {
        // names never become paths (stored as hex block ids), so slashes and dots are plain characters
        assertEquals(name, Manifest.validateName(name));
    }

    @Test
    void validateName_null_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> Manifest.validateName(null));
    }

    @Test
    void validateName_moreThanMaxUtf8Bytes_isRejected() {
        assertEquals(1088, Manifest.MAX_NAME_BYTES, "a 1,024-byte S3 key under a 63-character bucket");
        Manifest.validateName("x".repeat(1088));
        assertThrows(IllegalArgumentException.class, () -> Manifest.validateName("x".repeat(1089)));
        // 545 characters but 1,090 UTF-8 bytes: the limit is on bytes, not characters
        assertThrows(IllegalArgumentException.class, () -> Manifest.validateName("é".repeat(545)));
        assertThrows(IllegalArgumentException.class, () -> Manifest.validateName("\uD83D\uDE00".repeat(273)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "report.pdf", "with space", "..", ".hidden", "résumé.txt", "写真.jpg", "a\\b", "emoji \uD83D\uDE00"})
    void validateName_ordinaryNames_areAccepted(String name) {
        assertEquals(name, Manifest.validateName(name));
    }

    @Test
    void validateName_exactly100Utf8Bytes_isAccepted() {
        Manifest.validateName("x".repeat(100));
        Manifest.validateName("é".repeat(50));
        Manifest.validateName("\uD83D\uDE00".repeat(25));
    }

    @Test
    void blockCount_roundsUpAndIsAtLeastOne() {
        assertEquals(1, Manifest.blockCount(0, 10));
        assertEquals(1, Manifest.blockCount(1, 10));
        assertEquals(1, Manifest.blockCount(10, 10));
        assertEquals(2, Manifest.blockCount(11, 10));
        assertEquals(4097, Manifest.blockCount((4096L << 20) + 1, 1 << 20));
    }

    @Test
    void blockRef_compressed_mustNotBeLongerThanTheOriginal_andUncompressedHasOneChecksum() {
        assertThrows(IllegalArgumentException.class,
                () -> new Manifest.BlockRef(101, 1, List.of("seoul"), BlockCodec.GZIP, 100, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new Manifest.BlockRef(100, 1, List.of("seoul"), BlockCodec.NONE, 100, 2));
        Manifest.BlockRef ok = new Manifest.BlockRef(60, 1, List.of("seoul"), BlockCodec.ZSTD, 100, 2);
        assertEquals(List.of("dublin"), ok.withReplicas(List.of("dublin")).replicas());
        assertEquals(BlockCodec.ZSTD, ok.withReplicas(List.of("dublin")).codec());
    }

    @Test
    void manifest_compressedBlocks_originalLengthsAddUpToTheSize() {
        Manifest.BlockRef full = new Manifest.BlockRef(60, 1, List.of("seoul"), BlockCodec.ZSTD, 100, 2);
        Manifest.BlockRef last = new Manifest.BlockRef(5, 3, List.of("seoul"), BlockCodec.GZIP, 50, 4);
        Manifest m = new Manifest("c", "f", 150, 100, "local", "seoul", 1L, List.of(full, last));
        assertEquals(65, m.storedSize());
        assertThrows(IllegalArgumentException.class,
                () -> new Manifest("c", "f", 65, 100, "local", "seoul", 1L, List.of(full, last)));
        Manifest moved = m.withLocations(List.of(full.withReplicas(List.of("dublin")), last));
        assertEquals(BlockCodec.ZSTD, moved.blocks().get(0).codec());
        assertThrows(IllegalArgumentException.class, () -> m.withLocations(List.of(
                new Manifest.BlockRef(60, 1, List.of("dublin"), BlockCodec.GZIP, 100, 2), last)));
    }
}
