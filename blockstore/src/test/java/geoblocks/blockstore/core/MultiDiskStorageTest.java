package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage contract over two data directories, plus what only several disks do: blocks spread
 * over both, a replaced block stays on its disk, and a disk that fails (its directory removed while
 * the store runs) takes its blocks out of the store while the other disk keeps serving.
 */
class MultiDiskStorageTest extends BlockStorageContract {
    @TempDir
    Path root;

    @Override
    protected BlockStorage newStore() throws IOException {
        return MultiDiskStorage.open(List.of(new DataDir(root.resolve("d1"), 0, 0), new DataDir(root.resolve("d2"), 0, 0)));
    }

    MultiDiskStorage multi() {
        return (MultiDiskStorage) store;
    }

    static BlockId id(int i) {
        return BlockId.of("blk-" + i);
    }

    /** Which disk holds block {@code id}: 1, 2, or 0 for none. */
    int diskOf(BlockId id) {
        int found = 0;
        for (int d = 1; d <= 2; d++) {
            if (FileBlockStorage.inspect(root.resolve("d" + d)).contains(id)) {
                assertEquals(0, found, id + " is on two disks");
                found = d;
            }
        }
        return found;
    }

    @Test
    void puts_spreadOverBothDisks() throws IOException {
        for (int i = 0; i < 40; i++) {
            put(store, id(i), randomBytes(i, 1000));
        }
        long on1 = Stream.iterate(0, i -> i + 1).limit(40).filter(i -> diskOf(id(i)) == 1).count();
        assertEquals(20, on1, "two directories on one file system take turns");
        List<MultiDiskStorage.DiskState> disks = multi().disks();
        assertEquals(new StoredBlocks(20, 20_000), disks.get(0).stored());
        assertEquals(new StoredBlocks(20, 20_000), disks.get(1).stored());
    }

    @Test
    void replacingABlock_keepsItOnItsDisk() throws IOException {
        put(store, A, randomBytes(1, 100));
        put(store, B, randomBytes(2, 100));
        int before = diskOf(A);
        for (int i = 0; i < 5; i++) {
            put(store, A, randomBytes(10 + i, 5000));
        }
        assertEquals(before, diskOf(A));
    }

    @Test
    void capacity_steersBlocksToTheDiskWithRoom_andFullDisksRefuseWithDiskFull(@TempDir Path dir) throws IOException {
        MultiDiskStorage s = MultiDiskStorage.open(List.of(new DataDir(dir.resolve("small"), 10_000, 1_000),
                new DataDir(dir.resolve("big"), 30_000, 1_000)));
        for (int i = 0; i < 30; i++) {
            put(s, id(i), randomBytes(i, 900));
        }
        List<MultiDiskStorage.DiskState> d = s.disks();
        // the big disk takes blocks until its free space is down to the small one's, then they take turns
        assertTrue(d.get(1).stored().blocks() > 2 * d.get(0).stored().blocks(), d.toString());
        IOException full = assertThrows(IOException.class, () -> {
            for (int i = 30; i < 60; i++) {
                put(s, id(i), randomBytes(i, 900));
            }
        });
        assertTrue(full instanceof DiskFullException, "every disk refused for room, so the node's refusal is typed: " + full);
        assertTrue(s.stored().bytes() <= 40_000 - 2_000, s.stored().toString());
    }

    @Test
    void oneDiskFails_itsBlocksAreMissing_andTheOtherDiskKeepsServing() throws IOException {
        List<byte[]> data = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            data.add(randomBytes(i, 700));
            put(store, id(i), data.get(i));
        }
        assertEquals(List.of(), store.checkDisks());
        deleteTree(root.resolve("d2")); // the disk is gone under the running node

        List<String> lost = store.checkDisks();
        assertEquals(1, lost.size(), lost.toString());
        assertTrue(lost.get(0).startsWith(root.resolve("d2") + ": "), lost.get(0));
        assertTrue(lost.get(0).contains("its 10 blocks (7000 bytes) are missing here now"), lost.get(0));
        assertEquals(List.of(), store.checkDisks(), "a lost disk is reported once");

        List<BlockId> survivors = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (FileBlockStorage.inspect(root.resolve("d1")).contains(id(i))) {
                survivors.add(id(i));
                assertArrayEquals(data.get(i), store.get(id(i)).data());
            } else {
                int n = i;
                assertThrows(NoSuchBlockException.class, () -> store.get(id(n)));
                assertFalse(store.contains(id(i)));
            }
        }
        assertEquals(10, survivors.size());
        survivors.sort(null);
        assertEquals(survivors, store.list());
        assertEquals(new StoredBlocks(10, 7000), store.stored());
        assertEquals(10, BlockStorageContract.allFiles(store).size());

        // a repair from a peer lands on the disk that works
        put(store, id(100), data.get(0));
        assertArrayEquals(data.get(0), store.get(id(100)).data());
        assertFalse(multi().disks().get(1).healthy());
        assertTrue(multi().disks().get(0).healthy());
    }

    @Test
    void aDiskFailingUnderAWrite_isFoundByTheWrite_andTheBlockGoesToTheOther() throws IOException {
        put(store, A, randomBytes(1, 10)); // d1 (first of equals)
        deleteTree(root.resolve("d2"));
        Files.writeString(root.resolve("d2"), "not a directory any more");
        put(store, B, randomBytes(2, 10)); // d2 would be next: its write fails, d1 takes it
        assertArrayEquals(randomBytes(2, 10), store.get(B).data());
        List<String> lost = store.checkDisks();
        assertEquals(1, lost.size(), lost.toString());
    }

    @Test
    void everyDiskFailed_readsMiss_writesFailClearly() throws IOException {
        put(store, A, randomBytes(1, 10));
        deleteTree(root.resolve("d1"));
        deleteTree(root.resolve("d2"));
        assertEquals(2, store.checkDisks().size());
        assertThrows(NoSuchBlockException.class, () -> store.get(A));
        IOException e = assertThrows(IOException.class, () -> put(store, B, randomBytes(2, 10)));
        assertEquals(FailureCode.IO_ERROR, Failure.ofStorage(e).code(),
                "no disk left is an I/O failure, not no room: " + e);
        assertFalse(store.space().fits(1));
    }

    @Test
    void open_aDirectoryThatCannotBeOpened_startsFailed_unlessItIsTheOnlyOne(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        MultiDiskStorage s = MultiDiskStorage.open(List.of(new DataDir(file, 0, 0), new DataDir(dir.resolve("ok"), 0, 0)));
        assertFalse(s.disks().get(0).healthy());
        assertEquals(1, s.checkDisks().size());
        put(s, A, randomBytes(1, 10));
        assertTrue(s.contains(A));
        IOException e = assertThrows(IOException.class, () -> MultiDiskStorage.open(List.of(new DataDir(file, 0, 0))));
        assertTrue(e.getMessage().startsWith("no data directory is usable: " + file + ": cannot open it"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MultiDiskStorage(List.of()));
        IOException twice = assertThrows(IOException.class,
                () -> MultiDiskStorage.open(List.of(new DataDir(dir.resolve("ok"), 0, 0), new DataDir(dir.resolve("ok"), 0, 0))));
        assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
    }

    @Test
    void reopened_findsTheBlocksOnEveryDisk() throws IOException {
        for (int i = 0; i < 10; i++) {
            put(store, id(i), randomBytes(i, 100));
        }
        BlockStorage again = newStore();
        assertEquals(new StoredBlocks(10, 1000), again.stored());
        assertArrayEquals(randomBytes(7, 100), again.get(id(7)).data());
    }

    static void deleteTree(Path p) throws IOException {
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(q);
            }
        }
    }
}
