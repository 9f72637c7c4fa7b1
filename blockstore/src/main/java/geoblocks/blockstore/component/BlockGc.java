package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockCollector;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockReferences;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.port.BlockStorePort.BlockFilesListed;
import geoblocks.blockstore.port.BlockStorePort.BlocksCollected;
import geoblocks.blockstore.port.BlockStorePort.CollectBlocks;
import geoblocks.blockstore.port.BlockStorePort.ListBlockFiles;
import geoblocks.blockstore.wire.ClientOp.Gc;
import geoblocks.blockstore.meta.MetaGcTotals;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import se.sics.kompics.KompicsEvent;

/**
 * The block collector's sweep, as glue: every {@code gc-interval} it walks this node's block store
 * one shard at a time (listed on the block store's I/O pool, only blocks older than the grace),
 * asks {@link BlockCollector} about {@link #PAGE} blocks per tick on the file service's thread
 * (lookups in the manifest store and the in-flight registry) and has the block store delete the
 * collectable ones, each only if it is still the copy listed. Nothing is collected while a peer is
 * down, nor until every peer has been up for a whole grace ({@code settledSince}) and anti-entropy
 * has completed an exchange with each since, so manifests a partition, a restart or a lost
 * metadata directory held back reach this node before its blocks are judged. What it collected is added to
 * lifetime totals in the metadata engine ({@link MetaGcTotals}).
 */
final class BlockGc {
    /** Blocks judged per tick (250 ms): about 2,000 a second. */
    static final int PAGE = 500;
    /**
     * Shards listed in a row, a tick apart at most, while each listing comes back empty: a store of few blocks in
     * its 256 fan-out directories is swept in about 16 ticks instead of 256; a listing with blocks waits for the
     * next tick as before.
     */
    static final int EMPTY_RUN = 16;

    private final Node node;
    private final GcSettings settings;
    private final BlockCollector collector;
    private final LongSupplier clockMillis;
    private final Consumer<KompicsEvent> store;
    private final MetaGcTotals totals;
    /** Other reasons a file is in flight (the replication queue owes a copy of it). */
    private final Predicate<String> alsoInFlight;
    /** Whether anti-entropy has completed an exchange with every peer since a time (node.now()). */
    private final LongPredicate syncedSince;
    private long settledSinceNanos;
    private final ArrayDeque<BlockFile> todo = new ArrayDeque<>();
    private long settledSince = BlockCollector.UNSETTLED;
    private long nextPassAt;
    private boolean running;
    private int shard;
    private int shards = 1;
    private long listReq;
    private boolean listing;
    /** Empty shards listed one after the other since the last tick (see {@link #EMPTY_RUN}). */
    private int emptyRun;
    private int collecting;
    private long reqSeq;
    private long passes;
    private long passChecked;
    private long passCollected;
    private long passInFlight;
    private long lastPassEndMillis = -1;

    BlockGc(Node node, GcSettings settings, LongSupplier clockMillis, Consumer<KompicsEvent> store, MetaGcTotals totals,
            Predicate<String> alsoInFlight, LongPredicate syncedSince) {
        this.syncedSince = syncedSince;
        this.node = node;
        this.settings = settings;
        this.clockMillis = clockMillis;
        this.collector = new BlockCollector(settings.graceMs(), clockMillis);
        this.store = store;
        this.totals = totals;
        this.alsoInFlight = alsoInFlight;
        this.nextPassAt = node.now();
    }

    /** Follows the peers (settled or not), starts passes when due, judges a page, lists the next shard. */
    void tick(long now) {
        emptyRun = 0;
        if (node.upPeers().size() < node.peerRegions().size()) {
            if (settledSince != BlockCollector.UNSETTLED && settings.enabled()) {
                Logs.info(node.region() + ": block collection paused: a peer is down");
            }
            settledSince = BlockCollector.UNSETTLED;
            if (!todo.isEmpty()) {
                shard--; // its blocks are judged again when the pass lists this shard again
                todo.clear();
            }
            listing = false; // a listing still out is ignored when it arrives
            return;
        }
        if (settledSince == BlockCollector.UNSETTLED) {
            settledSince = clockMillis.getAsLong();
            settledSinceNanos = now;
        }
        if (!settings.enabled()) {
            return; // off: status still says whether every peer is up
        }
        if (collector.cutoffMillis(settledSince) == Long.MIN_VALUE || !syncedSince.test(settledSinceNanos)) {
            return; // settled for less than a grace, or not compared with every peer since: manifests may be missing
        }
        if (!running) {
            if (now - nextPassAt < 0) {
                return;
            }
            running = true;
            shard = 0;
            passChecked = 0;
            passCollected = 0;
            passInFlight = 0;
            nextPassAt = now + settings.intervalMs() * 1_000_000L;
        }
        if (!todo.isEmpty()) {
            judge(now);
        } else if (!listing && shard < shards) {
            listNext();
        } else if (!listing && collecting == 0) {
            running = false;
            passes++;
            lastPassEndMillis = clockMillis.getAsLong();
            if (passCollected > 0) {
                Logs.info(node.region() + ": block collection pass " + passes + ": " + passChecked + " blocks older than the"
                        + " grace checked, " + passCollected + " collected, " + passInFlight + " kept in flight");
            }
        }
    }

    /** Judges up to {@link #PAGE} listed blocks and sends the collectable ones to the block store. */
    private void judge(long now) {
        List<BlockFile> collect = new ArrayList<>();
        BlockCollector.Lookups lookups = new BlockCollector.Lookups() {
            @Override
            public BlockCollector.Reference reference(String fileId, int index) {
                return BlockReferences.of(node.manifests(), node.region(), fileId, index);
            }

            @Override
            public boolean inFlight(String fileId) {
                return node.inFlight().inFlight(fileId, now) || alsoInFlight.test(fileId);
            }
        };
        for (int i = 0; i < PAGE && !todo.isEmpty(); i++) {
            BlockFile f = todo.poll();
            BlockCollector.Verdict v = collector.decide(f, settledSince, lookups);
            passChecked++;
            if (v == BlockCollector.Verdict.IN_FLIGHT) {
                passInFlight++;
            } else if (v.collect()) {
                collect.add(f);
            }
        }
        if (!collect.isEmpty()) {
            collecting++;
            store.accept(new CollectBlocks(++reqSeq, List.copyOf(collect)));
        }
    }

    /** A shard's listing: its blocks older than the grace are judged over the next ticks. */
    void onListed(BlockFilesListed l) {
        if (!listing || l.req() != listReq) {
            return;
        }
        listing = false;
        shards = Math.max(1, l.shards());
        shard++;
        if (l.failure() != null) {
            Logs.warn(node.region() + ": block collection could not list shard " + l.shard() + ": " + l.failure().text());
            return;
        }
        todo.addAll(l.files());
        if (l.files().isEmpty() && running && shard < shards && ++emptyRun < EMPTY_RUN) {
            listNext(); // nothing to judge: the next shard at once, not a tick later
        }
    }

    private void listNext() {
        listing = true;
        listReq = ++reqSeq;
        store.accept(new ListBlockFiles(listReq, shard, collector.cutoffMillis(settledSince)));
    }

    /** What the block store deleted: added to the totals. */
    void onCollected(BlocksCollected c) {
        collecting = Math.max(0, collecting - 1);
        passCollected += c.blocks();
        if (c.failure() != null) {
            Logs.warn(node.region() + ": block collection: " + c.failure().text());
        }
        if (c.blocks() == 0) {
            return;
        }
        try {
            totals.add(c.blocks(), c.bytes());
        } catch (IOException e) {
            Logs.warn(node.region() + ": saving the block collection totals failed: " + e.getMessage());
        }
    }

    /** For status and metrics; {@code moves}: moves this node coordinates, kept in the engine. */
    Gc status(int moves) {
        return new Gc(totals.blocks(), totals.bytes(), passes, running, passChecked, passCollected, passInFlight,
                lastPassEndMillis, settledSince == BlockCollector.UNSETTLED ? -1 : settledSince, moves);
    }
}
