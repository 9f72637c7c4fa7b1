package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link BlockStorage} contract, run against every implementation by a tiny subclass: checksums
 * verified on put and get, missing blocks reported as {@link NoSuchBlockException}, sorted listing,
 * and replacement that readers see as the old or the new copy, never a mix. Public, with its test-jar,
 * for backends in other modules (s3storage).
 */
public abstract class BlockStorageContract {
    protected static final BlockId A = BlockId.of("a");
    protected static final BlockId B = BlockId.of("b");

    protected BlockStorage store;

    /** A fresh, empty store. */
    protected abstract BlockStorage newStore() throws IOException;

    @BeforeEach
    void openStore() throws IOException {
        store = newStore();
    }

    protected static byte[] randomBytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    protected static void put(BlockStorage s, BlockId id, byte[] data) throws IOException {
        s.put(id, data, Checksums.crc32c(data));
    }

    @Test
    void putThenGet_smallBlock_returnsSameBytesAndCrc() throws IOException {
        byte[] data = randomBytes(1, 1000);
        put(store, A, data);
        Block b = store.get(A);
        assertArrayEquals(data, b.data());
        assertEquals(Checksums.crc32c(data), b.crc());
        assertEquals(1000, b.length());
    }

    @Test
    void putThenGet_emptyBlock_returnsEmptyBlock() throws IOException {
        put(store, A, new byte[0]);
        Block b = store.get(A);
        assertEquals(0, b.length());
        assertEquals(Checksums.crc32c(new byte[0]), b.crc());
        assertTrue(store.contains(A));
    }

    @Test
    void putThenGet_multiMiBBlock_returnsSameBytes() throws IOException {
        byte[] data = randomBytes(2, 5 * 1024 * 1024 + 17);
        put(store, A, data);
        assertArrayEquals(data, store.get(A).data());
    }

    @Test
    void put_wrongCrc_isRejectedAndStoresNothing() throws IOException {
        byte[] data = randomBytes(3, 4096);
        int wrong = Checksums.crc32c(data) ^ 1;
        assertThrows(CorruptBlockException.class, () -> store.put(A, data, wrong));
        assertFalse(store.contains(A));
        assertEquals(List.of(), store.list());
        assertThrows(NoSuchBlockException.class, () -> store.get(A));
    }

    @Test
    void put_wrongCrcOverExistingBlock_keepsOldBlock() throws IOException {
        byte[] old = randomBytes(4, 300);
        put(store, A, old);
        byte[] fresh = randomBytes(5, 300);
        assertThrows(CorruptBlockException.class, () -> store.put(A, fresh, Checksums.crc32c(fresh) + 1));
        assertArrayEquals(old, store.get(A).data());
    }

    @Test
    void get_missingId_throwsNoSuchBlock() {
        assertThrows(NoSuchBlockException.class, () -> store.get(A));
    }

    @Test
    void get_afterOtherBlockStored_missingIdStillThrowsNoSuchBlock() throws IOException {
        put(store, A, randomBytes(6, 10));
        assertThrows(NoSuchBlockException.class, () -> store.get(B));
    }

    @Test
    void delete_presentBlock_removesItAndReturnsTrue() throws IOException {
        put(store, A, randomBytes(7, 10));
        put(store, B, randomBytes(8, 10));
        assertTrue(store.delete(A));
        assertFalse(store.contains(A));
        assertThrows(NoSuchBlockException.class, () -> store.get(A));
        assertEquals(List.of(B), store.list());
        assertTrue(store.contains(B));
    }

    @Test
    void delete_missingBlock_returnsFalse() throws IOException {
        assertFalse(store.delete(A));
        put(store, A, randomBytes(9, 10));
        assertTrue(store.delete(A));
        assertFalse(store.delete(A));
    }

    @Test
    void contains_reflectsPutAndDelete() throws IOException {
        assertFalse(store.contains(A));
        put(store, A, randomBytes(10, 10));
        assertTrue(store.contains(A));
        assertFalse(store.contains(B));
    }

    @Test
    void list_emptyStore_isEmpty() throws IOException {
        assertEquals(List.of(), store.list());
    }

    @Test
    void list_returnsEveryIdSorted() throws IOException {
        List<BlockId> ids = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < 60; i++) {
            BlockId id = BlockId.of("id" + Integer.toHexString(r.nextInt()) + "-" + i);
            ids.add(id);
            put(store, id, randomBytes(i, i));
        }
        put(store, ids.get(0), randomBytes(99, 3)); // a replacement does not duplicate the id
        ids.sort(null);
        assertEquals(ids, store.list());
    }

    @Test
    void put_sameIdTwice_replacesBlock() throws IOException {
        put(store, A, randomBytes(12, 100));
        byte[] fresh = randomBytes(13, 50);
        put(store, A, fresh);
        assertArrayEquals(fresh, store.get(A).data());
        assertEquals(List.of(A), store.list());
    }

    @Test
    void put_callerMutatesArrayAfterwards_storedBlockUnchanged() throws IOException {
        byte[] data = randomBytes(14, 64);
        byte[] copy = data.clone();
        put(store, A, data);
        data[0] ^= 0x55;
        assertArrayEquals(copy, store.get(A).data());
    }

    @Test
    void get_callerMutatesReturnedArray_storedBlockUnchanged() throws IOException {
        byte[] data = randomBytes(15, 64);
        put(store, A, data);
        store.get(A).data()[0] ^= 0x55;
        assertArrayEquals(data, store.get(A).data());
    }

    /**
     * One thread replaces a block back and forth between two versions while another reads it: every
     * read is exactly one of the two versions (and verifies), never a mix, never a miss.
     */
    @Test
    void replace_concurrentReader_seesOldOrNewNeverAMix() throws Exception {
        byte[] v1 = randomBytes(16, 64 * 1024);
        byte[] v2 = randomBytes(17, 48 * 1024);
        put(store, A, v1);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Throwable> writerError = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < 60; i++) {
                    put(store, A, i % 2 == 0 ? v2 : v1);
                }
            } catch (Throwable t) {
                writerError.set(t);
            } finally {
                writing.set(false);
            }
        });
        writer.start();
        int reads = 0;
        try {
            while (writing.get() || reads < 10) {
                byte[] got = store.get(A).data();
                if (!Arrays.equals(got, v1) && !Arrays.equals(got, v2)) {
                    fail("read " + reads + " returned " + got.length + " bytes matching neither version");
                }
                reads++;
            }
        } finally {
            writer.join();
        }
        if (writerError.get() != null) {
            throw new AssertionError("writer failed", writerError.get());
        }
        assertArrayEquals(v1, store.get(A).data());
    }

    @Test
    void stored_countsEachPutReplacementAndDelete() throws IOException {
        assertEquals(StoredBlocks.NONE, store.stored());
        put(store, A, randomBytes(30, 1000));
        put(store, B, randomBytes(31, 10));
        assertEquals(new StoredBlocks(2, 1010), store.stored());
        put(store, A, randomBytes(32, 500)); // replaced: still two blocks, the old bytes gone
        assertEquals(new StoredBlocks(2, 510), store.stored());
        assertThrows(CorruptBlockException.class, () -> store.put(B, new byte[7], 1)); // refused: not counted
        assertTrue(store.delete(A));
        assertFalse(store.delete(A)); // not there any more: not counted twice
        assertEquals(new StoredBlocks(1, 10), store.stored());
        assertTrue(store.delete(B));
        assertEquals(StoredBlocks.NONE, store.stored());
    }

    @Test
    void stored_concurrentWritersOfOneBlock_countItOnce() throws Exception {
        List<Thread> writers = new ArrayList<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            Thread w = new Thread(() -> {
                try {
                    for (int i = 0; i < 25; i++) {
                        put(store, A, randomBytes(seed * 100 + i, 100));
                    }
                } catch (Throwable e) {
                    error.set(e);
                }
            });
            writers.add(w);
            w.start();
        }
        for (Thread w : writers) {
            w.join();
        }
        if (error.get() != null) {
            throw new AssertionError("writer failed", error.get());
        }
        assertEquals(new StoredBlocks(1, 100), store.stored());
    }

    /** Every block of every shard, as {@link BlockStorage#listShard} lists them with no age limit. */
    protected static List<BlockFile> allFiles(BlockStorage s) throws IOException {
        List<BlockFile> out = new ArrayList<>();
        for (int i = 0; i < s.shards(); i++) {
            out.addAll(s.listShard(i, Long.MAX_VALUE));
        }
        out.sort(Comparator.comparing(BlockFile::id));
        return out;
    }

    @Test
    void listShard_everyBlockInExactlyOneShard_withItsSize() throws IOException {
        List<BlockId> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            BlockId id = BlockId.of("b-f" + i + "-" + (i % 3));
            ids.add(id);
            put(store, id, randomBytes(i, 10 + i));
        }
        ids.sort(null);
        List<BlockFile> files = allFiles(store);
        assertEquals(ids, files.stream().map(BlockFile::id).toList());
        for (BlockFile f : files) {
            int i = Integer.parseInt(f.id().value().substring(3, f.id().value().lastIndexOf('-')));
            assertEquals(10 + i, f.bytes(), f.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> store.listShard(store.shards(), 0));
    }

    @Test
    void listShard_leavesOutBlocksWrittenAfterTheCutoff() throws IOException {
        put(store, A, randomBytes(1, 10));
        long at = allFiles(store).get(0).modifiedMillis();
        int total = 0;
        int before = 0;
        for (int i = 0; i < store.shards(); i++) {
            total += store.listShard(i, at).size();
            before += store.listShard(i, at - 1).size();
        }
        assertEquals(1, total);
        assertEquals(0, before);
    }

    @Test
    void deleteIfUnchanged_deletesTheListedCopy_butNotOneWrittenSince() throws Exception {
        put(store, A, randomBytes(1, 100));
        put(store, B, randomBytes(2, 50));
        List<BlockFile> listed = allFiles(store);
        BlockFile a = listed.get(0);
        BlockFile b = listed.get(1);
        assertEquals(100, store.deleteIfUnchanged(A, a.modifiedMillis()));
        assertFalse(store.contains(A));
        assertEquals(-1, store.deleteIfUnchanged(A, a.modifiedMillis()), "already gone");
        assertEquals(new StoredBlocks(1, 50), store.stored());
        Thread.sleep(5); // a new write gets a later time, even on a file system with coarse times
        put(store, B, randomBytes(3, 60));
        assertEquals(-1, store.deleteIfUnchanged(B, b.modifiedMillis()), "written again after the listing");
        assertTrue(store.contains(B));
        assertEquals(new StoredBlocks(1, 60), store.stored());
    }
}
