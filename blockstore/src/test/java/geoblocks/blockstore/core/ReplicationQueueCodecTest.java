package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.ReplicationQueue.Copy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicationQueueCodecTest {
    @TempDir
    Path dir;

    private static List<Copy> copies() {
        return List.of(new Copy("photos/1.jpg", "8f00aa11", 0, "seoul"), new Copy("写真 \uD83D\uDE00", "ff", 41, "dublin"),
                new Copy("x".repeat(Manifest.MAX_NAME_BYTES), "id", Integer.MAX_VALUE, "mumbai"));
    }

    @Test
    void encodeDecode_roundTripsEveryField_andTheEmptyQueue() throws IOException {
        assertEquals(copies(), ReplicationQueueCodec.decode(ReplicationQueueCodec.encode(copies()), "mem"));
        assertEquals(List.of(), ReplicationQueueCodec.decode(ReplicationQueueCodec.encode(List.of()), "mem"));
    }

    @Test
    void encodeDecode_longestFileName_roundTrips() throws IOException {
        String name = "b/" + "k".repeat(Manifest.MAX_NAME_BYTES - 2);
        List<ReplicationQueue.Copy> longest = List.of(new ReplicationQueue.Copy(name, "f1", 0, "dublin"));
        assertEquals(longest, ReplicationQueueCodec.decode(ReplicationQueueCodec.encode(longest), "mem"));
    }

    @Test
    void decode_anyFlippedByte_isRefusedAsCorrupt() {
        byte[] good = ReplicationQueueCodec.encode(copies());
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x20;
            assertThrows(CorruptQueueException.class, () -> ReplicationQueueCodec.decode(bad, "q"), "byte " + i);
        }
    }

    @Test
    void decode_everyTruncation_isRefusedNamingTheFile() {
        byte[] good = ReplicationQueueCodec.encode(copies());
        for (int n = 0; n < good.length; n++) {
            byte[] cut = Arrays.copyOf(good, n);
            CorruptQueueException e = assertThrows(CorruptQueueException.class,
                    () -> ReplicationQueueCodec.decode(cut, "/data/q"), "length " + n);
            assertTrue(e.getMessage().startsWith("/data/q: "), e.getMessage());
        }
    }

    @Test
    void decode_wrongMagicOrVersion_saysSo() {
        byte[] b = ReplicationQueueCodec.encode(copies());
        b[0] = 'X';
        assertTrue(assertThrows(CorruptQueueException.class, () -> ReplicationQueueCodec.decode(b, "q"))
                .getMessage().contains("bad magic"));
        byte[] v = ReplicationQueueCodec.encode(copies());
        v[4] = 9;
        assertTrue(assertThrows(CorruptQueueException.class, () -> ReplicationQueueCodec.decode(v, "q"))
                .getMessage().contains("unknown version 9"));
    }

    @Test
    void decode_countLargerThanTheEntries_isRefusedEvenWithAValidChecksum() {
        byte[] b = ReplicationQueueCodec.encode(copies());
        ByteBuffer.wrap(b).putInt(8, 4);
        ByteBuffer.wrap(b).putInt(b.length - 4, Checksums.crc32c(b, 0, b.length - 4));
        CorruptQueueException e = assertThrows(CorruptQueueException.class, () -> ReplicationQueueCodec.decode(b, "q"));
        assertTrue(e.getMessage().contains("entry 3"), e.getMessage());
    }

    @Test
    void fileStore_savesAndLoads_replacingTheWholeQueue() throws IOException {
        FileReplicationQueueStore store = new FileReplicationQueueStore(dir.resolve("node/replication-queue"));
        assertEquals(List.of(), store.load(), "no file yet: an empty queue");
        store.save(copies());
        assertEquals(copies(), new FileReplicationQueueStore(dir.resolve("node/replication-queue")).load());
        List<Copy> fewer = new ArrayList<>(copies().subList(1, 3));
        store.save(fewer);
        assertEquals(fewer, store.load());
        assertArrayEquals(ReplicationQueueCodec.encode(fewer), Files.readAllBytes(dir.resolve("node/replication-queue")));
        assertEquals(List.of("replication-queue"), Files.list(dir.resolve("node")).map(p -> p.getFileName().toString()).toList(),
                "no temp file left behind");
    }

    @Test
    void fileStore_truncatedFile_isRefusedWithAClearError() throws IOException {
        Path file = dir.resolve("replication-queue");
        FileReplicationQueueStore store = new FileReplicationQueueStore(file);
        store.save(copies());
        byte[] b = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(b, b.length - 7));
        CorruptQueueException e = assertThrows(CorruptQueueException.class, store::load);
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("truncated or damaged"),
                e.getMessage());
    }

    /** The queue file's format (version 1), byte for byte: a change needs a new version and a reader for this one. */
    @Test
    void format_version1_goldenBytes() throws IOException {
        List<Copy> one = List.of(new Copy("a/b", "f1", 3, "seoul"));
        String hex = HexFormat.of().formatHex(ReplicationQueueCodec.encode(one));
        assertEquals(GOLDEN_V1, hex);
        assertEquals(one, ReplicationQueueCodec.decode(HexFormat.of().parseHex(GOLDEN_V1), "golden"));
    }

    private static final String GOLDEN_V1 = "4742525101000000000000010003612f620002663100000003000573656f756c300297f7";
}
