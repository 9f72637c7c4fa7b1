package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on disk, plus what only a file store can suffer: damaged files and restarts. */
class FileBlockStorageTest extends BlockStorageContract {
    @TempDir
    Path root;

    @Override
    protected BlockStorage newStore() throws IOException {
        return new FileBlockStorage(root);
    }

    private FileBlockStorage files() {
        return (FileBlockStorage) store;
    }

    /** Stores a block and returns its file's bytes. */
    private byte[] storeAndReadFile(BlockId id, byte[] data) throws IOException {
        put(store, id, data);
        byte[] file = Files.readAllBytes(files().pathOf(id));
        assertEquals(FileBlockStorage.HEADER + data.length, file.length);
        return file;
    }

    private void rewrite(BlockId id, byte[] file) throws IOException {
        Files.write(files().pathOf(id), file);
    }

    private void assertCorrupt(BlockId id) {
        CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> store.get(id));
        assertTrue(e.getMessage().contains(id.value()), e.getMessage());
    }

    @Test
    void blockFile_hasHeaderWithMagicVersionAndLength() throws IOException {
        byte[] data = randomBytes(1, 123);
        ByteBuffer f = ByteBuffer.wrap(storeAndReadFile(A, data));
        assertEquals(FileBlockStorage.MAGIC, f.getInt(0));
        assertEquals(FileBlockStorage.VERSION, f.get(4));
        assertEquals(123L, f.getLong(8));
        assertEquals(Checksums.crc32c(data), f.getInt(16));
        assertArrayEquals(data, Arrays.copyOfRange(f.array(), FileBlockStorage.HEADER, f.capacity()));
    }

    @Test
    void put_intoANewFanOutDirectory_syncsBlocksDirectoryToo_thenOnlyTheFanOutDirectory() throws IOException {
        byte[] data = randomBytes(9, 100);
        put(store, A, data); // creates A's fan-out directory: its entry in blocks/ must be durable as well
        assertEquals(2, files().directorySyncs());
        Files.delete(files().pathOf(A));
        put(store, A, data); // the directory exists now
        assertEquals(3, files().directorySyncs());
    }

    @Test
    void get_flippedDataByte_throwsCorrupt() throws IOException {
        byte[] data = randomBytes(2, 5000);
        byte[] file = storeAndReadFile(A, data);
        for (int pos : new int[] {FileBlockStorage.HEADER, FileBlockStorage.HEADER + 2500, file.length - 1}) {
            byte[] damaged = file.clone();
            damaged[pos] ^= 0x01;
            rewrite(A, damaged);
            assertCorrupt(A);
        }
    }

    @Test
    void get_flippedHeaderByte_anyPosition_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(3, 700));
        for (int pos = 0; pos < FileBlockStorage.HEADER; pos++) {
            for (int bit : new int[] {0x01, 0x80}) {
                byte[] damaged = file.clone();
                damaged[pos] ^= (byte) bit;
                rewrite(A, damaged);
                assertCorrupt(A);
            }
        }
    }

    @Test
    void get_fileShorterThanHeader_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(4, 100));
        for (int len : new int[] {0, 1, 4, FileBlockStorage.HEADER - 1}) {
            rewrite(A, Arrays.copyOf(file, len));
            assertCorrupt(A);
        }
    }

    @Test
    void get_fileShorterThanDeclaredLength_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(5, 100));
        for (int len : new int[] {FileBlockStorage.HEADER, FileBlockStorage.HEADER + 1, file.length - 1}) {
            rewrite(A, Arrays.copyOf(file, len));
            assertCorrupt(A);
        }
    }

    @Test
    void get_emptyBlockTruncatedToPartialHeader_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, new byte[0]);
        rewrite(A, Arrays.copyOf(file, FileBlockStorage.HEADER - 1));
        assertCorrupt(A);
    }

    @Test
    void get_fileWithExtraBytes_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(6, 100));
        rewrite(A, Arrays.copyOf(file, file.length + 1));
        assertCorrupt(A);
        rewrite(A, Arrays.copyOf(file, file.length + 4096));
        assertCorrupt(A);
    }

    @Test
    void get_emptyBlockWithExtraBytes_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, new byte[0]);
        rewrite(A, Arrays.copyOf(file, file.length + 3));
        assertCorrupt(A);
    }

    @Test
    void get_wrongMagic_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(7, 100));
        byte[] damaged = file.clone();
        damaged[0] = 'X';
        rewrite(A, damaged);
        assertCorrupt(A);
    }

    @Test
    void get_wrongMagicWithValidHeaderCrc_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(8, 100));
        ByteBuffer f = ByteBuffer.wrap(file.clone());
        f.putInt(0, 0x58424C4B); // "XBLK"
        f.putInt(20, Checksums.crc32c(f.array(), 0, 20));
        rewrite(A, f.array());
        assertCorrupt(A);
    }

    @Test
    void get_unknownVersionWithValidHeaderCrc_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(9, 100));
        ByteBuffer f = ByteBuffer.wrap(file.clone());
        f.put(4, (byte) 2);
        f.putInt(20, Checksums.crc32c(f.array(), 0, 20));
        rewrite(A, f.array());
        assertCorrupt(A);
    }

    @Test
    void get_lengthFieldLiesWithValidHeaderCrc_throwsCorrupt() throws IOException {
        byte[] file = storeAndReadFile(A, randomBytes(10, 100));
        for (long lie : new long[] {0, 99, 101, Integer.MAX_VALUE, Long.MAX_VALUE, -1}) {
            ByteBuffer f = ByteBuffer.wrap(file.clone());
            f.putLong(8, lie);
            f.putInt(20, Checksums.crc32c(f.array(), 0, 20));
            rewrite(A, f.array());
            assertCorrupt(A);
        }
    }

    @Test
    void get_corruptBlock_doesNotAffectOtherBlocks() throws IOException {
        byte[] a = storeAndReadFile(A, randomBytes(11, 100));
        byte[] b = randomBytes(12, 100);
        put(store, B, b);
        a[FileBlockStorage.HEADER + 3] ^= 0x10;
        rewrite(A, a);
        assertCorrupt(A);
        assertArrayEquals(b, store.get(B).data());
    }

    @Test
    void get_damagedThenRepairedByPut_servesNewCopy() throws IOException {
        byte[] data = randomBytes(13, 100);
        byte[] file = storeAndReadFile(A, data);
        rewrite(A, Arrays.copyOf(file, 30));
        assertCorrupt(A);
        put(store, A, data);
        assertArrayEquals(data, store.get(A).data());
    }

    @Test
    void open_leftoverTempFiles_areRemovedAndCounted() throws IOException {
        byte[] data = randomBytes(14, 100);
        put(store, A, data);
        Path tmp = root.resolve("tmp");
        Files.write(tmp.resolve("a.1.tmp"), randomBytes(15, 50)); // an interrupted replacement of A
        Files.write(tmp.resolve("b.7.tmp"), new byte[0]);
        Files.write(tmp.resolve("stray"), new byte[] {1});

        FileBlockStorage reopened = new FileBlockStorage(root);

        assertEquals(3, reopened.removedTempFiles());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count());
        }
        assertArrayEquals(data, reopened.get(A).data());
        assertEquals(List.of(A), reopened.list());
    }

    @Test
    void open_freshDirectory_removesNoTempFiles() {
        assertEquals(0, files().removedTempFiles());
    }

    @Test
    void put_success_leavesNoTempFile() throws IOException {
        put(store, A, randomBytes(16, 1000));
        put(store, A, randomBytes(17, 1000));
        try (Stream<Path> left = Files.list(root.resolve("tmp"))) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void put_wrongCrc_leavesNoFileAnywhere() throws IOException {
        byte[] data = randomBytes(18, 1000);
        assertThrows(CorruptBlockException.class, () -> store.put(A, data, ~Checksums.crc32c(data)));
        try (Stream<Path> all = Files.walk(root)) {
            assertEquals(List.of(), all.filter(Files::isRegularFile).toList());
        }
    }

    @Test
    void reopen_sameDirectory_servesEverythingStored() throws IOException {
        byte[] a = randomBytes(19, 3000);
        byte[] b = new byte[0];
        put(store, A, a);
        put(store, B, b);
        BlockId c = BlockId.of("c");
        put(store, c, randomBytes(20, 10));
        store.delete(c);

        FileBlockStorage reopened = new FileBlockStorage(root);

        assertEquals(List.of(A, B), reopened.list());
        assertArrayEquals(a, reopened.get(A).data());
        assertEquals(0, reopened.get(B).length());
        assertThrows(NoSuchBlockException.class, () -> reopened.get(c));
        assertEquals(0, reopened.removedTempFiles());
        assertEquals(new StoredBlocks(2, 3000), reopened.stored(), "counted once when the store opens");
        assertEquals(new StoredBlocks(2, 3000), FileBlockStorage.inspect(root).stored());
    }

    @Test
    void reopen_thenPut_works() throws IOException {
        put(store, A, randomBytes(21, 10));
        FileBlockStorage reopened = new FileBlockStorage(root);
        byte[] fresh = randomBytes(22, 20);
        put(reopened, A, fresh);
        put(reopened, B, fresh);
        assertArrayEquals(fresh, reopened.get(A).data());
        assertEquals(List.of(A, B), reopened.list());
    }

    @Test
    void pathOf_anyValidId_staysInsideBlocksDirectory() {
        Path blocks = root.resolve("blocks").toAbsolutePath().normalize();
        for (String v : new String[] {"a", "a..", "a...b", "a-.-", "Z9", "x".repeat(240), "0._-"}) {
            Path p = files().pathOf(BlockId.of(v)).toAbsolutePath().normalize();
            assertTrue(p.startsWith(blocks), v + " -> " + p);
            assertEquals(blocks, p.getParent().getParent(), v + " -> " + p);
        }
    }

    @Test
    void putAndGet_longestValidId_works() throws IOException {
        BlockId longest = BlockId.of("x".repeat(240));
        byte[] data = randomBytes(23, 10);
        put(store, longest, data);
        assertArrayEquals(data, store.get(longest).data());
        assertEquals(List.of(longest), store.list());
    }

    @Test
    void put_whenFreeSpaceWouldFallBelowTheReserve_failsWithDiskFull_andStoresNothing(@TempDir Path dir) throws IOException {
        FileBlockStorage full = new FileBlockStorage(dir, Long.MAX_VALUE / 2);
        byte[] data = {1, 2, 3};
        IOException e = assertThrows(IOException.class, () -> full.put(BlockId.of("x"), data, Checksums.crc32c(data)));
        assertEquals(FailureCode.INSUFFICIENT_STORAGE,
                Failure.ofStorage(e).code(), "typed as no room: " + e);
        assertFalse(full.contains(BlockId.of("x")));
        assertEquals(List.of(), full.list());
    }
}
