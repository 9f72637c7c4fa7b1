package geoblocks.blockstore.core;

import geoblocks.net.Bytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * File-backed {@link BlockStorage}: one file per block under {@code root/blocks/xx/}, where xx is a
 * hash fan-out. A write goes to {@code root/tmp/}, is fsync'ed, atomically renamed into place and
 * the directory fsync'ed (and {@code blocks/} too when the put created the fan-out directory); only
 * then does {@link #put} return. Temp files left by a crash are
 * deleted when the store opens, and the blocks already there are counted once for {@link #stored()},
 * which each put and delete then keep current. File layout (big-endian):
 *
 * <pre>
 * 0       4      5        8               16           20            24
 * +-------+------+--------+---------------+------------+-------------+-------------------+
 * | GBLK  | ver  | 0 0 0  | length (i64)  | crc32c data| crc32c 0..19| data (length)     |
 * +-------+------+--------+---------------+------------+-------------+-------------------+
 * </pre>
 */
public final class FileBlockStorage implements BlockStorage {
    static final int MAGIC = 0x47424C4B; // "GBLK"
    static final byte VERSION = 1;
    static final int HEADER = 24;
    /** Fan-out directories under {@code blocks/}: {@code 00} .. {@code ff}. */
    static final int SHARDS = 256;

    private final Path blocksDir;
    private final Path tmpDir;
    private final AtomicLong tmpSeq = new AtomicLong();
    private final AtomicLong dirSyncs = new AtomicLong();
    private final int removedTempFiles;
    private final long minFreeBytes;
    /** Most data bytes this store may hold (0: the whole file system). */
    private final long capacityBytes;
    /** The file system the blocks live on, looked up once (resolving it costs ~70 us per call). */
    private final FileStore store;
    private final StoredTally tally;
    /** Serialises, per block, the look at a block's old file with its replacement or deletion and the count. */
    private final Object[] stripes = new Object[64];

    /** A store that writes until the file system itself is full. */
    public FileBlockStorage(Path root) throws IOException {
        this(root, 0);
    }

    /**
     * A store that refuses a write leaving less than {@code minFreeBytes} free on its file system
     * ("disk full"), so the node keeps room for manifests, logs and the OS and fails writes with a
     * clear message instead of half-written files.
     */
    public FileBlockStorage(Path root, long minFreeBytes) throws IOException {
        this(root, minFreeBytes, 0);
    }

    /**
     * A store that holds at most {@code capacityBytes} data bytes (0: as much as the file system
     * takes), one of several data directories on one file system or a share of a big disk: its free
     * space is the smaller of the file system's and what the capacity leaves, and a write leaving less
     * than {@code minFreeBytes} of that is refused ("disk full").
     */
    public FileBlockStorage(Path root, long minFreeBytes, long capacityBytes) throws IOException {
        if (minFreeBytes < 0) {
            throw new IllegalArgumentException("min free bytes must be >= 0, was " + minFreeBytes);
        }
        if (capacityBytes < 0 || capacityBytes > 0 && capacityBytes <= minFreeBytes) {
            throw new IllegalArgumentException("capacity must be 0 (the whole disk) or above the reserve of "
                    + minFreeBytes + " bytes, was " + capacityBytes);
        }
        this.minFreeBytes = minFreeBytes;
        this.capacityBytes = capacityBytes;
        this.store = Files.getFileStore(Files.createDirectories(root));
        this.blocksDir = root.resolve("blocks");
        this.tmpDir = root.resolve("tmp");
        Files.createDirectories(blocksDir);
        Files.createDirectories(tmpDir);
        int removed = 0;
        try (DirectoryStream<Path> tmp = Files.newDirectoryStream(tmpDir)) {
            for (Path p : tmp) {
                Files.deleteIfExists(p);
                removed++;
            }
        }
        this.removedTempFiles = removed;
        this.tally = new StoredTally(scan(blocksDir));
        initStripes();
    }

    /**
     * Opens an existing store for reading only (tools, tests): unlike the constructors it creates
     * nothing and does not clean {@code tmp/}, so it is safe on the directory of a running node.
     */
    public static FileBlockStorage inspect(Path root) {
        return new FileBlockStorage(root.resolve("blocks"), root.resolve("tmp"));
    }

    private FileBlockStorage(Path blocksDir, Path tmpDir) {
        this.blocksDir = blocksDir;
        this.tmpDir = tmpDir;
        this.removedTempFiles = 0;
        this.minFreeBytes = Long.MAX_VALUE;
        this.capacityBytes = 0;
        this.store = null; // read-only: put is refused before it is consulted
        this.tally = new StoredTally(Files.isDirectory(blocksDir) ? scanUnchecked(blocksDir) : StoredBlocks.NONE);
        initStripes();
    }

    private void initStripes() {
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
    }

    private Object stripe(BlockId id) {
        return stripes[(id.value().hashCode() >>> 8) & (stripes.length - 1)];
    }

    /** Counts the block files under {@code blocksDir} and their data bytes: once, when the store opens. */
    static StoredBlocks scan(Path blocksDir) throws IOException {
        long blocks = 0;
        long bytes = 0;
        try (Stream<Path> files = Files.walk(blocksDir, 2)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".blk")) {
                    long data = dataBytes(p);
                    if (data >= 0) {
                        blocks++;
                        bytes += data;
                    }
                }
            }
        }
        return new StoredBlocks(blocks, bytes);
    }

    private static StoredBlocks scanUnchecked(Path blocksDir) {
        try {
            return scan(blocksDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot count the blocks in " + blocksDir + ": " + e.getMessage(), e);
        }
    }

    /** The data bytes of the block file {@code p} (its size less the header, at least 0), or -1 when there is none. */
    private static long dataBytes(Path p) throws IOException {
        try {
            return Math.max(0, Files.size(p) - HEADER);
        } catch (NoSuchFileException e) {
            return -1;
        }
    }

    @Override
    public StoredBlocks stored() {
        return tally.totals();
    }

    /** Temp files of interrupted writes removed when this store opened. */
    public int removedTempFiles() {
        return removedTempFiles;
    }

    /** Where block {@code id} lives (for tests that damage files on purpose). */
    public Path pathOf(BlockId id) {
        String v = id.value();
        return blocksDir.resolve(String.format("%02x", v.hashCode() & 0xff)).resolve(v + ".blk");
    }

    @Override
    public void put(BlockId id, byte[] data, int crc) throws IOException {
        int actual = Checksums.crc32c(data);
        if (actual != crc) {
            throw new CorruptBlockException(id, "received checksum " + Checksums.hex(actual)
                    + " != expected " + Checksums.hex(crc) + "; not stored");
        }
        if (store == null) {
            throw new IOException("store opened read-only with inspect(); block " + id + " not written");
        }
        long free = freeBytes(store.getUsableSpace());
        if (free - data.length - HEADER < minFreeBytes) {
            throw new DiskFullException("disk full: " + (free >> 20) + " MiB free, block " + id + " needs "
                    + data.length + " bytes and " + (minFreeBytes >> 20) + " MiB must stay free");
        }
        Path target = pathOf(id);
        if (!Files.isDirectory(target.getParent())) {
            Files.createDirectories(target.getParent());
            // the new fan-out directory's own entry: unsynced, a power cut may lose it and every block in it
            fsyncDir(blocksDir);
        }
        Path tmp = tmpDir.resolve(id.value() + "." + tmpSeq.incrementAndGet() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer header = header(data.length, crc);
            ByteBuffer body = ByteBuffer.wrap(data);
            while (header.hasRemaining() || body.hasRemaining()) {
                ch.write(new ByteBuffer[] {header, body});
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("cannot write block " + id + ": " + e.getMessage(), e);
        }
        synchronized (stripe(id)) {
            long previous = dataBytes(target);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tally.wrote(previous, data.length);
        }
        fsyncDir(target.getParent());
    }

    private static ByteBuffer header(long length, int crc) {
        ByteBuffer h = ByteBuffer.allocate(HEADER);
        h.putInt(MAGIC).put(VERSION).put((byte) 0).put((byte) 0).put((byte) 0).putLong(length).putInt(crc);
        h.putInt(Checksums.crc32c(h.array(), 0, 20));
        return h.flip();
    }

    private void fsyncDir(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
        dirSyncs.incrementAndGet();
    }

    /** Directory fsyncs made by puts so far (tests). */
    long directorySyncs() {
        return dirSyncs.get();
    }

    @Override
    public Block get(BlockId id) throws IOException {
        BlockBytes b = read(id, Bytes.Allocator.HEAP);
        return new Block(b.data().toArray(), b.crc());
    }

    /** Reads the block's header, then its data into {@code into}'s bytes, and verifies both checksums. */
    @Override
    public BlockBytes read(BlockId id, Bytes.Allocator into) throws IOException {
        Path p = pathOf(id);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < HEADER) {
                throw new CorruptBlockException(id, "file has " + size + " bytes, shorter than the header");
            }
            ByteBuffer h = ByteBuffer.allocate(HEADER);
            readFully(ch, h, 0);
            h.flip();
            if (h.getInt(0) != MAGIC || h.get(4) != VERSION) {
                throw new CorruptBlockException(id, "bad magic or version in " + p);
            }
            if (h.getInt(20) != Checksums.crc32c(h.array(), 0, 20)) {
                throw new CorruptBlockException(id, "header checksum mismatch in " + p);
            }
            long length = h.getLong(8);
            if (length != size - HEADER) {
                throw new CorruptBlockException(id, "header says " + length + " data bytes, file holds " + (size - HEADER));
            }
            Bytes data = into.allocate((int) length);
            try {
                ByteBuffer body = data.nio();
                readFully(ch, body, HEADER);
                int crc = h.getInt(16);
                int actual = Checksums.crc32c(body.flip());
                if (actual != crc) {
                    throw new CorruptBlockException(id, "data checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(crc));
                }
                return new BlockBytes(data, crc);
            } catch (IOException | RuntimeException e) {
                data.release();
                throw e;
            }
        } catch (NoSuchFileException e) {
            throw new NoSuchBlockException(id);
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b, pos);
            if (n < 0) {
                throw new IOException("unexpected end of file");
            }
            pos += n;
        }
    }

    @Override
    public boolean delete(BlockId id) throws IOException {
        Path p = pathOf(id);
        synchronized (stripe(id)) {
            long previous = dataBytes(p);
            boolean deleted = Files.deleteIfExists(p);
            if (deleted) {
                tally.deleted(Math.max(0, previous));
            }
            return deleted;
        }
    }

    /** The file system's {@code usable} bytes, or less when the capacity leaves less. */
    private long freeBytes(long usable) {
        return capacityBytes > 0 ? Math.min(usable, Math.max(0, capacityBytes - tally.totals().bytes())) : usable;
    }

    /** The directory this store keeps its blocks in ({@code root/blocks}). */
    public Path blocksDir() {
        return blocksDir;
    }

    /** The disk's total bytes (at most the capacity), its free bytes (the file system's, or less when the capacity leaves less) and this store's reserve ({@code minFreeBytes}); unknown when read-only. */
    @Override
    public DiskSpace space() {
        if (store == null) {
            return DiskSpace.UNKNOWN;
        }
        try {
            long total = store.getTotalSpace();
            return new DiskSpace(capacityBytes > 0 ? Math.min(capacityBytes, total) : total,
                    freeBytes(store.getUsableSpace()), minFreeBytes);
        } catch (IOException e) {
            return DiskSpace.UNKNOWN;
        }
    }

    @Override
    public boolean contains(BlockId id) {
        return Files.exists(pathOf(id));
    }

    /** The fan-out directories {@code blocks/00} .. {@code blocks/ff}. */
    @Override
    public int shards() {
        return SHARDS;
    }

    @Override
    public List<BlockFile> listShard(int shard, long writtenBeforeMillis) throws IOException {
        if (shard < 0 || shard >= SHARDS) {
            throw new IllegalArgumentException("shard must be in 0.." + (SHARDS - 1) + ", was " + shard);
        }
        Path dir = blocksDir.resolve(String.format("%02x", shard));
        List<BlockFile> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.blk")) {
            for (Path p : files) {
                String n = p.getFileName().toString();
                BlockId id;
                try {
                    id = new BlockId(n.substring(0, n.length() - 4));
                } catch (IllegalArgumentException e) {
                    continue; // not a block this store wrote
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    long modified = a.lastModifiedTime().toMillis();
                    if (modified <= writtenBeforeMillis) {
                        out.add(new BlockFile(id, Math.max(0, a.size() - HEADER), modified));
                    }
                } catch (NoSuchFileException e) {
                    // deleted meanwhile
                }
            }
        }
        return out;
    }

    @Override
    public long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException {
        if (store == null) {
            throw new IOException("store opened read-only with inspect(); block " + id + " not deleted");
        }
        Path p = pathOf(id);
        synchronized (stripe(id)) {
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                return -1;
            }
            if (a.lastModifiedTime().toMillis() != modifiedMillis) {
                return -1; // written again since it was listed
            }
            long bytes = Math.max(0, a.size() - HEADER);
            if (!Files.deleteIfExists(p)) {
                return -1;
            }
            tally.deleted(bytes);
            return bytes;
        }
    }

    @Override
    public List<BlockId> list() throws IOException {
        List<BlockId> ids = new ArrayList<>();
        try (Stream<Path> files = Files.walk(blocksDir, 2)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".blk"))
                    .forEach(n -> ids.add(new BlockId(n.substring(0, n.length() - 4))));
        }
        ids.sort(null);
        return ids;
    }
}
