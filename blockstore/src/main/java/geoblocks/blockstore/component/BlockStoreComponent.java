package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockBytes;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.NoSuchBlockException;
import geoblocks.blockstore.core.placement.LoadMeter;
import geoblocks.blockstore.meta.MetaEngine;
import geoblocks.blockstore.port.BlockStorePort;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.port.BlockStorePort.BlockFilesListed;
import geoblocks.blockstore.port.BlockStorePort.BlocksCollected;
import geoblocks.blockstore.port.BlockStorePort.CollectBlocks;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.port.BlockStorePort.ListBlockFiles;
import geoblocks.blockstore.port.BlockStorePort.ReadBlock;
import geoblocks.blockstore.port.BlockStorePort.StoreBlock;
import geoblocks.blockstore.wire.Failure;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;

/**
 * The BlockStore component: serves {@link BlockStorePort} from a {@link BlockStorage} (files in
 * production, memory in the simulator). Each request runs on the injected I/O executor: in
 * production a pool, so many blocks are written and fsync'ed at once and the file system commits
 * them together (one fsync'ed 1 MiB block at a time reached 77 MB/s on our disk, eight at once
 * 150 MB/s); in the simulator and unit tests a direct executor, which runs it in the handler.
 * Answers are triggered when the I/O is done. Errors become answers with a {@link Failure} typed by
 * the exception ({@link Failure#ofStorage}: a full disk, a missing block, a corrupt block and another
 * I/O error each keep their code); nothing here crashes the node. The bytes of every block written or read are counted in the node's
 * {@link LoadMeter} (its recent load, which the RTT probes carry).
 */
public final class BlockStoreComponent extends ComponentDefinition {
    private static final Logger LOG = LoggerFactory.getLogger(BlockStoreComponent.class);
    private final Negative<BlockStorePort> port = provides(BlockStorePort.class);
    private final BlockStorage storage;
    private final Executor io;
    private final LoadMeter meter;
    /** The metadata engine whose writes {@link BlockStorePort.SyncMeta} makes durable (null: none). */
    private final MetaEngine meta;
    /** A disk check is running: the next one waits (a hung disk must not pile checks onto the I/O threads). */
    private final AtomicBoolean checking = new AtomicBoolean();

    public BlockStoreComponent(BlockStoreInit init) {
        this.storage = init.storage;
        this.io = init.io;
        this.meter = init.meter;
        this.meta = init.meta;
        handle(port, StoreBlock.class, this::onStore);
        handle(port, ReadBlock.class, this::onRead);
        handle(port, DeleteBlocks.class, this::onDelete);
        handle(port, BlockStorePort.SyncMeta.class, s -> io.execute(() -> syncMeta(s)));
        handle(port, ListBlockFiles.class, l -> io.execute(() -> list(l)));
        handle(port, CollectBlocks.class, c -> io.execute(() -> collect(c)));
        handle(port, BlockStorePort.CheckDisks.class, c -> {
            if (checking.compareAndSet(false, true)) {
                io.execute(this::checkDisks);
            }
        });
    }

    /** Probes the disks; those that failed since the last check are logged and reported to the file service. */
    private void checkDisks() {
        try {
            List<String> lost = storage.checkDisks();
            for (String d : lost) {
                LOG.error("data directory failed: {}", d);
            }
            if (!lost.isEmpty()) {
                trigger(new BlockStorePort.DisksLost(List.copyOf(lost)), port);
            }
        } catch (RuntimeException e) {
            LOG.warn("checking the data directories failed: {}", e.toString());
        } finally {
            checking.set(false);
        }
    }

    private void syncMeta(BlockStorePort.SyncMeta s) {
        Failure failure = null;
        try {
            if (meta != null) {
                meta.sync();
            }
        } catch (IOException | RuntimeException e) {
            failure = Failure.ofStorage(e);
            LOG.warn("metadata sync failed: {}", failure.text());
        }
        trigger(new BlockStorePort.MetaSynced(s.req(), failure), port);
    }

    private void list(ListBlockFiles l) {
        try {
            List<BlockFile> files = storage.listShard(l.shard(), l.writtenBeforeMillis());
            trigger(new BlockFilesListed(l.req(), l.shard(), storage.shards(), List.copyOf(files), null), port);
        } catch (IOException | RuntimeException e) {
            LOG.warn("listing block shard {} failed: {}", l.shard(), e.getMessage());
            trigger(new BlockFilesListed(l.req(), l.shard(), storage.shards(), List.of(), Failure.ofStorage(e)), port);
        }
    }

    private void collect(CollectBlocks c) {
        long blocks = 0;
        long bytes = 0;
        Failure failure = null;
        for (BlockFile f : c.blocks()) {
            try {
                long deleted = storage.deleteIfUnchanged(f.id(), f.modifiedMillis());
                if (deleted >= 0) {
                    blocks++;
                    bytes += deleted;
                }
            } catch (IOException | RuntimeException e) {
                if (failure == null) {
                    failure = Failure.ofStorage(e).prefixed(f.id() + ": ");
                }
                LOG.warn("collecting {} failed: {}", f.id(), e.getMessage());
            }
        }
        trigger(new BlocksCollected(c.req(), blocks, bytes, failure), port);
    }

    private void onStore(StoreBlock s) {
        io.execute(() -> store(s));
    }

    private void onRead(ReadBlock r) {
        io.execute(() -> read(r));
    }

    private void onDelete(DeleteBlocks d) {
        io.execute(() -> delete(d));
    }

    private void store(StoreBlock s) {
        Failure failure = null;
        try {
            storage.put(s.id(), s.data(), s.crc());
            meter.recordIo(s.data().length);
        } catch (IOException | RuntimeException e) {
            failure = Failure.ofStorage(e);
            LOG.warn("store of {} failed: {}", s.id(), failure.text());
        }
        trigger(new BlockStored(s.req(), s.id(), failure), port);
    }

    private void read(ReadBlock r) {
        try {
            if (r.into() != null) {
                BlockBytes b = storage.read(r.id(), r.into());
                meter.recordIo(b.length());
                trigger(new BlockRead(r.req(), r.id(), null, null, b), port);
                return;
            }
            Block b = storage.get(r.id());
            meter.recordIo(b.length());
            trigger(new BlockRead(r.req(), r.id(), b, null), port);
        } catch (IOException | RuntimeException e) {
            if (e instanceof NoSuchBlockException) {
                LOG.debug("read of {}: {}", r.id(), e.getMessage()); // an answer, not a fault (moves ask first)
            } else {
                LOG.warn("read of {} failed: {}", r.id(), e.getMessage());
            }
            trigger(new BlockRead(r.req(), r.id(), null, Failure.ofStorage(e)), port);
        }
    }

    private void delete(DeleteBlocks d) {
        for (BlockId id : d.ids()) {
            try {
                storage.delete(id);
            } catch (IOException e) {
                LOG.warn("delete of {} failed: {}", id, e.getMessage());
            }
        }
    }

    public static final class BlockStoreInit extends Init<BlockStoreComponent> {
        final BlockStorage storage;
        final Executor io;
        final LoadMeter meter;
        /** Whose writes a SyncMeta makes durable; null (the default): none, a sync succeeds at once. */
        MetaEngine meta;

        /** Runs I/O in the handler (simulator, tests). */
        public BlockStoreInit(BlockStorage storage) {
            this(storage, Runnable::run);
        }

        /** Runs I/O on {@code io}; answers are triggered from its threads. */
        public BlockStoreInit(BlockStorage storage, Executor io) {
            this(storage, io, new LoadMeter(storage::space));
        }

        /** As above, counting block bytes in {@code meter}. */
        public BlockStoreInit(BlockStorage storage, Executor io, LoadMeter meter) {
            this.storage = storage;
            this.io = io;
            this.meter = meter;
        }

        /** This init syncing {@code engine} on each {@link BlockStorePort.SyncMeta} (the node's metadata engine). */
        public BlockStoreInit withMeta(MetaEngine engine) {
            this.meta = Objects.requireNonNull(engine, "engine");
            return this;
        }
    }
}
