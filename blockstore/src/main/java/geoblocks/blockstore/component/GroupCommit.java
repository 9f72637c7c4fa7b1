package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MetaSyncHealth;
import geoblocks.blockstore.core.OutputGate;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.port.BlockStorePort;
import java.util.function.Consumer;
import se.sics.kompics.KompicsEvent;

/**
 * Group commit, as glue (the rules are in {@link OutputGate} and {@link MetaSyncHealth}): with a metadata
 * engine whose syncs cost (RocksDB), manifest writes are made visible at once and synced together; a
 * message or block deletion that follows a write waits until a sync covers that write, so nothing unsynced
 * is ever revealed. It asks the block store for a sync ({@link BlockStorePort.SyncMeta}, a request id) and
 * takes its answer ({@link BlockStorePort.MetaSynced}); a failed sync is tried again after a delay.
 */
final class GroupCommit {
    private final NodeContext node;
    private final ManifestStore manifests;
    private final OutputGate<KompicsEvent> gate;
    private final Consumer<KompicsEvent> emit;
    /** Where a sync request goes (the block store). */
    private final Consumer<KompicsEvent> toStore;
    /** Whether the metadata engine's syncs work (readiness), and when to try a failed one again. */
    private final MetaSyncHealth health = new MetaSyncHealth();
    /** The ids of this gate's syncs: another component's syncs, answered on the same port, are not its own. */
    private final RequestIds syncIds;

    /**
     * {@code emit}: where what passed the gate goes. The manifests defer their syncs already when their engine's
     * syncs cost ({@link ManifestStore#deferSyncs}), before anything is written.
     */
    GroupCommit(NodeContext node, ManifestStore manifests, Consumer<KompicsEvent> emit, Consumer<KompicsEvent> toStore,
            RequestIds syncIds) {
        this.node = node;
        this.syncIds = syncIds;
        this.manifests = manifests;
        this.emit = emit;
        this.gate = new OutputGate<>(emit);
        this.toStore = toStore;
    }

    /** Emits {@code e} now, or once a sync covers the manifest writes made before it. */
    void gated(KompicsEvent e) {
        if (!manifests.defersSyncs()) {
            emit.accept(e);
        } else if (gate.offer(e, manifests.writes())) {
            toStore.accept(new BlockStorePort.SyncMeta(syncIds.next()));
        }
    }

    /** The block store's answer to a sync; one that this gate did not ask for is left to its owner. */
    void onSynced(BlockStorePort.MetaSynced s) {
        if (!syncIds.mine(s.req())) {
            return;
        }
        long now = node.now();
        long delay = 0;
        if (s.failure() != null) {
            MetaSyncHealth.Retry r = health.failed(now, s.failure().text());
            delay = r.delayNanos();
            if (r.log()) {
                Logs.warn(node.region() + ": syncing the metadata engine failed (" + health.failures() + " in a row),"
                        + " trying again in " + delay / 1_000_000 + " ms; answers after metadata writes are held: " + s.failure().text());
            }
        } else {
            long was = health.succeeded(now);
            if (was >= 0) {
                Logs.info(node.region() + ": syncing the metadata engine works again, after " + was / 1_000_000 + " ms");
            }
        }
        long next = gate.synced(s.failure() == null, manifests.writes());
        manifests.synced(gate.synced());
        if (next >= 0) {
            if (delay == 0) {
                toStore.accept(new BlockStorePort.SyncMeta(syncIds.next()));
            } else {
                node.schedule(delay, () -> toStore.accept(new BlockStorePort.SyncMeta(syncIds.next())));
            }
        }
    }

    /** Why the metadata engine is not healthy at {@code now} (for readiness), or null. */
    String fault(long now) {
        return health.fault(now);
    }
}
