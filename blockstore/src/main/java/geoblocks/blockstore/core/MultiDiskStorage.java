package geoblocks.blockstore.core;

import geoblocks.net.Bytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link BlockStorage} over several disks (data directories) of one node. A new block goes to the
 * disk {@link DiskChooser} picks (most space available); a block already held is replaced on its disk
 * (elsewhere only when that disk refuses, and then the old copy is deleted after the new one is
 * durable); a read looks on every working disk. Each block has one copy here: every change of a
 * block (put, delete, collection) holds its stripe lock across all disks.
 *
 * <p>A disk fails when an operation on it throws something other than a missing or corrupt block and
 * its {@link HealthProbe} then names a problem, or when {@link #checkDisks()} finds one. A failed disk
 * stays failed until the node restarts: its blocks are no longer listed, counted or read, so they are
 * missing to the node, which repairs them from peers (the scrubber) onto the disks that work. When
 * every disk failed, reads miss and writes fail.
 *
 * <p>Invariant: a reader never misses a block that a put is moving between disks: it looks twice
 * before answering {@link NoSuchBlockException}, and a move writes the new copy before it deletes the
 * old one.
 */
public final class MultiDiskStorage implements BlockStorage {
    /** Whether a disk still works: null when it does, else why not. */
    public interface HealthProbe {
        String problem();
    }

    /** One disk: its name (its directory), its storage and its probe; {@code failure} non-null when it failed to open. */
    public record Member(String name, BlockStorage store, HealthProbe probe, String failure) {
        public static Member working(String name, BlockStorage store, HealthProbe probe) {
            return new Member(name, store, probe, null);
        }

        public static Member failed(String name, String why) {
            return new Member(name, null, () -> why, why);
        }
    }

    /** A disk as seen now: its name, null or why it failed, and the blocks on it (none once failed). */
    public record DiskState(String name, String failure, StoredBlocks stored, DiskSpace space) {
        public boolean healthy() {
            return failure == null;
        }
    }

    private static final class Disk {
        final String name;
        final BlockStorage store;
        final HealthProbe probe;
        final AtomicLong pending = new AtomicLong();
        volatile String failure;
        boolean reported;

        Disk(Member m) {
            this.name = m.name();
            this.store = m.store();
            this.probe = m.probe();
            this.failure = m.failure();
        }

        boolean works() {
            return failure == null;
        }
    }

    private final List<Disk> disks = new ArrayList<>();
    private final int shards;
    private final Object[] stripes = new Object[1024];

    public MultiDiskStorage(List<Member> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a node needs at least one data directory");
        }
        Set<String> names = new HashSet<>();
        int shardCount = -1;
        for (Member m : members) {
            if (!names.add(m.name())) {
                throw new IllegalArgumentException("data directory " + m.name() + " is listed twice");
            }
            disks.add(new Disk(m));
            if (m.failure() == null) {
                if (shardCount >= 0 && m.store().shards() != shardCount) {
                    throw new IllegalArgumentException("every disk must have the same shards; " + m.name() + " has "
                            + m.store().shards() + ", not " + shardCount);
                }
                shardCount = m.store().shards();
            }
        }
        if (shardCount < 0) {
            StringBuilder why = new StringBuilder("no data directory is usable:");
            for (Member m : members) {
                why.append(' ').append(m.name()).append(": ").append(m.failure()).append(';');
            }
            throw new IllegalArgumentException(why.substring(0, why.length() - 1));
        }
        this.shards = shardCount;
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
    }

    /**
     * Opens a {@link FileBlockStorage} in each directory; one that cannot be opened starts failed
     * (its blocks are repaired from peers), unless none can, which is an error naming each one's reason.
     */
    public static MultiDiskStorage open(List<DataDir> dirs) throws IOException {
        List<Member> members = new ArrayList<>();
        for (DataDir d : dirs) {
            Path root = d.path();
            try {
                FileBlockStorage store = new FileBlockStorage(root, d.reserveBytes(), d.capacityBytes());
                members.add(Member.working(root.toString(), store, DirectoryProbe.open(root, store.blocksDir())));
            } catch (IOException | RuntimeException e) {
                members.add(Member.failed(root.toString(), "cannot open it: " + e));
            }
        }
        try {
            return new MultiDiskStorage(members);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private Object stripe(BlockId id) {
        return stripes[(id.value().hashCode() * 0x9E3779B9 >>> 22) & (stripes.length - 1)];
    }

    /** After an unexpected error on {@code d}: probes it, and marks it failed if the probe names a problem. */
    private void suspect(Disk d, Exception cause) {
        if (!d.works()) {
            return;
        }
        String problem = d.probe.problem();
        if (problem != null) {
            fail(d, problem + " (after: " + cause.getMessage() + ")");
        }
    }

    private void fail(Disk d, String why) {
        synchronized (d) {
            if (d.works()) {
                StoredBlocks lost = d.store.stored();
                d.failure = why + "; its " + lost.blocks() + " blocks (" + lost.bytes() + " bytes) are missing here now";
            }
        }
    }

    @Override
    public void put(BlockId id, byte[] data, int crc) throws IOException {
        synchronized (stripe(id)) {
            List<Disk> holders = holders(id);
            List<Disk> order = new ArrayList<>(holders);
            for (int i : DiskChooser.ranked(chooserView(), data.length)) {
                if (!order.contains(disks.get(i))) {
                    order.add(disks.get(i));
                }
            }
            List<String> refusals = new ArrayList<>();
            IOException only = null;
            boolean allFull = true;
            for (Disk d : order) {
                d.pending.addAndGet(data.length);
                try {
                    d.store.put(id, data, crc);
                } catch (CorruptBlockException e) {
                    throw e;
                } catch (IOException | RuntimeException e) {
                    only = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                    refusals.add(d.name + ": " + e.getMessage());
                    allFull &= e instanceof DiskFullException;
                    suspect(d, e);
                    continue;
                } finally {
                    d.pending.addAndGet(-data.length);
                }
                for (Disk h : holders) {
                    if (h != d) {
                        deleteQuietly(h, id); // the copy moved: the new one is durable
                    }
                }
                return;
            }
            if (refusals.size() == 1) {
                throw only;
            }
            String why = (refusals.isEmpty()
                    ? "no working data directory has room for block " + id + " (" + data.length + " bytes)"
                    : "no data directory took block " + id + ": " + String.join("; ", refusals)) + describeFailed();
            // no room is the refusal only when a working disk refused for it; with every disk failed it is an I/O failure
            throw allFull && anyWorks() ? new DiskFullException(why) : new IOException(why);
        }
    }

    private boolean anyWorks() {
        for (Disk d : disks) {
            if (d.works()) {
                return true;
            }
        }
        return false;
    }

    private String describeFailed() {
        StringBuilder b = new StringBuilder();
        for (Disk d : disks) {
            if (!d.works()) {
                b.append("; ").append(d.name).append(" failed: ").append(d.failure);
            }
        }
        return b.toString();
    }

    private void deleteQuietly(Disk d, BlockId id) {
        try {
            d.store.delete(id);
        } catch (IOException | RuntimeException e) {
            suspect(d, e);
        }
    }

    /** The working disks holding {@code id}. */
    private List<Disk> holders(BlockId id) {
        List<Disk> out = new ArrayList<>();
        for (Disk d : disks) {
            if (d.works() && d.store.contains(id)) {
                out.add(d);
            }
        }
        return out;
    }

    private List<DiskChooser.Disk> chooserView() {
        List<DiskChooser.Disk> view = new ArrayList<>(disks.size());
        for (Disk d : disks) {
            view.add(d.works()
                    ? new DiskChooser.Disk(true, d.store.space(), d.store.stored().bytes(), Math.max(0, d.pending.get()))
                    : new DiskChooser.Disk(false, DiskSpace.UNKNOWN, 0, 0));
        }
        return view;
    }

    @Override
    public Block get(BlockId id) throws IOException {
        return find(id, BlockStorage::get);
    }

    @Override
    public BlockBytes read(BlockId id, Bytes.Allocator into) throws IOException {
        return find(id, (store, block) -> store.read(block, into));
    }

    /** One disk's read of a block. */
    @FunctionalInterface
    private interface DiskRead<T> {
        T read(BlockStorage store, BlockId id) throws IOException;
    }

    /** Reads the block from the disk that holds it (looking twice, for a block moving between disks). */
    private <T> T find(BlockId id, DiskRead<T> read) throws IOException {
        for (int look = 0; look < 2; look++) {
            CorruptBlockException corrupt = null;
            for (Disk d : disks) {
                if (!d.works()) {
                    continue;
                }
                try {
                    return read.read(d.store, id);
                } catch (NoSuchBlockException e) {
                    // not on this disk
                } catch (CorruptBlockException e) {
                    corrupt = e;
                } catch (IOException | RuntimeException e) {
                    suspect(d, e);
                }
            }
            if (corrupt != null) {
                throw corrupt;
            }
        }
        throw new NoSuchBlockException(id);
    }

    @Override
    public boolean delete(BlockId id) throws IOException {
        synchronized (stripe(id)) {
            boolean deleted = false;
            IOException error = null;
            for (Disk d : disks) {
                if (!d.works()) {
                    continue;
                }
                try {
                    deleted |= d.store.delete(id);
                } catch (IOException e) {
                    suspect(d, e);
                    if (d.works()) {
                        error = e;
                    }
                }
            }
            if (error != null) {
                throw error;
            }
            return deleted;
        }
    }

    @Override
    public boolean contains(BlockId id) {
        for (Disk d : disks) {
            if (d.works() && d.store.contains(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<BlockId> list() throws IOException {
        TreeSet<BlockId> ids = new TreeSet<>();
        for (Disk d : disks) {
            if (!d.works()) {
                continue;
            }
            try {
                ids.addAll(d.store.list());
            } catch (IOException | RuntimeException e) {
                suspect(d, e);
                if (d.works()) {
                    throw e;
                }
            }
        }
        return new ArrayList<>(ids);
    }

    /** The blocks on the working disks (a failed disk's no longer count). */
    @Override
    public StoredBlocks stored() {
        long blocks = 0;
        long bytes = 0;
        for (Disk d : disks) {
            if (d.works()) {
                StoredBlocks s = d.store.stored();
                blocks += s.blocks();
                bytes += s.bytes();
            }
        }
        return new StoredBlocks(blocks, bytes);
    }

    @Override
    public int shards() {
        return shards;
    }

    @Override
    public List<BlockFile> listShard(int shard, long writtenBeforeMillis) throws IOException {
        if (shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("shard must be in 0.." + (shards - 1) + ", was " + shard);
        }
        Map<BlockId, BlockFile> out = new LinkedHashMap<>();
        for (Disk d : disks) {
            if (!d.works()) {
                continue;
            }
            try {
                for (BlockFile f : d.store.listShard(shard, writtenBeforeMillis)) {
                    out.putIfAbsent(f.id(), f);
                }
            } catch (IOException | RuntimeException e) {
                suspect(d, e);
                if (d.works()) {
                    throw e;
                }
            }
        }
        return new ArrayList<>(out.values());
    }

    @Override
    public long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException {
        synchronized (stripe(id)) {
            for (Disk d : disks) {
                if (d.works()) {
                    long deleted = d.store.deleteIfUnchanged(id, modifiedMillis);
                    if (deleted >= 0) {
                        return deleted;
                    }
                }
            }
            return -1;
        }
    }

    /**
     * The space of the working disks summed (total, free and reserve), for placement across regions;
     * unknown when one of them does not know its own; nothing free when no disk works.
     */
    @Override
    public DiskSpace space() {
        long total = 0;
        long free = 0;
        long reserve = 0;
        boolean any = false;
        for (Disk d : disks) {
            if (d.works()) {
                DiskSpace s = d.store.space();
                if (!s.known()) {
                    return DiskSpace.UNKNOWN;
                }
                any = true;
                total += s.totalBytes();
                free += s.freeBytes();
                reserve += s.reserveBytes();
            }
        }
        return any ? new DiskSpace(total, free, reserve) : new DiskSpace(1, 0, 0);
    }

    /** Probes every working disk; returns the disks that failed since the last call, each as "DIR: why". */
    @Override
    public List<String> checkDisks() {
        List<String> lost = new ArrayList<>();
        for (Disk d : disks) {
            if (d.works()) {
                String problem = d.probe.problem();
                if (problem != null) {
                    fail(d, problem);
                }
            }
            synchronized (d) {
                if (!d.works() && !d.reported) {
                    d.reported = true;
                    lost.add(d.name + ": " + d.failure);
                }
            }
        }
        return lost;
    }

    /** Each disk as it is now, in the order given. */
    public List<DiskState> disks() {
        List<DiskState> out = new ArrayList<>();
        for (Disk d : disks) {
            out.add(d.works() ? new DiskState(d.name, null, d.store.stored(), d.store.space())
                    : new DiskState(d.name, d.failure, StoredBlocks.NONE, DiskSpace.UNKNOWN));
        }
        return out;
    }
}
