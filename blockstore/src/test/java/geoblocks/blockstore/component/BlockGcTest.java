package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.meta.MetaGcTotals;
import geoblocks.blockstore.port.BlockStorePort.BlockFilesListed;
import geoblocks.blockstore.port.BlockStorePort.BlocksCollected;
import geoblocks.blockstore.port.BlockStorePort.CollectBlocks;
import geoblocks.blockstore.port.BlockStorePort.ListBlockFiles;
import geoblocks.blockstore.wire.ClientOp.Gc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import se.sics.kompics.KompicsEvent;

/**
 * The block collector's sweep as the file service runs it, on a {@link FakeNode} whose block store
 * is the test: it waits until the node has been settled for a grace, lists one shard at a time,
 * asks the block store to delete only the unreferenced blocks that nothing in flight names, keeps
 * lifetime totals in the engine, and stops (and starts its grace over) when a peer goes down.
 */
class BlockGcTest {
    private static final long S = 1_000;
    private static final long GRACE = 60 * S;
    private static final long T0 = 1_800_000_000_000L;
    private final FakeNode node = new FakeNode();
    private final List<KompicsEvent> toStore = new ArrayList<>();
    private long wall = T0;
    /** When anti-entropy last completed an exchange with every peer (node.now()); the test moves it. */
    private long syncedAt = Long.MIN_VALUE / 2;
    private boolean trackSync;
    private BlockGc gc;

    @BeforeEach
    void start() throws IOException {
        Version v = new Version(HybridClock.of(T0 - 1000 * S, 0), "seoul");
        node.manifests().save(new Manifest("kept", "fkept", 10, 10, "local", "saopaulo", T0 - 1000 * S,
                List.of(new Manifest.BlockRef(10, 1, List.of("saopaulo"))), v, 0, false));
        node.manifests().save(new Manifest("away", "faway", 10, 10, "local", "saopaulo", T0 - 1000 * S,
                List.of(new Manifest.BlockRef(10, 1, List.of("dublin"))), v, 1, false));
        gc = new BlockGc(node, new GcSettings(GRACE, 120 * S), () -> wall, toStore::add,
                new MetaGcTotals(node.manifests().engine()), "fqueued"::equals,
                since -> !trackSync || syncedAt - since >= 0);
    }

    /** Moves both clocks on by {@code ms} and ticks. */
    private void after(long ms) {
        wall += ms;
        node.now += ms * FakeNode.MS;
        gc.tick(node.now);
    }

    private <T> T last(Class<T> type) {
        KompicsEvent e = toStore.get(toStore.size() - 1);
        assertInstanceOf(type, e, toStore.toString());
        return type.cast(e);
    }

    private static BlockFile old(String fileId) {
        return new BlockFile(BlockId.ofFileBlock(fileId, 0), 10, T0 - 500 * S);
    }

    @Test
    void pass_collectsOnlyUnreferencedBlocksNothingInFlightNames_afterTheGrace() throws IOException {
        node.inFlight().hold("fmoving");
        after(0);
        after(GRACE - 1);
        assertTrue(toStore.isEmpty(), "settled for less than a grace: no pass yet");
        after(1);
        ListBlockFiles list = last(ListBlockFiles.class);
        assertEquals(0, list.shard());
        assertEquals(wall - GRACE, list.writtenBeforeMillis());
        gc.onListed(new BlockFilesListed(list.req(), 0, 2, List.of(old("fkept"), old("faway"), old("fmoving"),
                old("ffailed"), old("fqueued")), null));
        after(250);
        CollectBlocks collect = last(CollectBlocks.class);
        assertEquals(List.of(old("faway"), old("ffailed")), collect.blocks());
        assertEquals(new Gc(0, 0, 0, true, 5, 0, 2, -1, T0, 0), gc.status(0));
        gc.onCollected(new BlocksCollected(collect.req(), 2, 20, null));
        after(250);
        ListBlockFiles second = last(ListBlockFiles.class);
        assertEquals(1, second.shard());
        gc.onListed(new BlockFilesListed(second.req(), 1, 2, List.of(), null));
        after(250);
        Gc done = gc.status(3);
        assertEquals(1, done.passes());
        assertEquals(false, done.running());
        assertEquals(new Gc(2, 20, 1, false, 5, 2, 2, wall, T0, 3), done);
        assertEquals(2, new MetaGcTotals(node.manifests().engine()).blocks(), "lifetime totals are kept in the engine");

        int sent = toStore.size();
        after(60 * S);
        assertEquals(sent, toStore.size(), "the next pass waits for the interval");
        after(60 * S);
        assertEquals(0, last(ListBlockFiles.class).shard());
    }

    @Test
    void emptyShards_areListedOneAfterTheOther_atMostARunATick_andAShardWithBlocksWaitsForTheTick() {
        after(0);
        after(GRACE);
        ListBlockFiles list = last(ListBlockFiles.class);
        assertEquals(0, list.shard());
        int shards = 64;
        for (int i = 1; i < BlockGc.EMPTY_RUN; i++) {
            gc.onListed(new BlockFilesListed(list.req(), list.shard(), shards, List.of(), null));
            ListBlockFiles next = last(ListBlockFiles.class);
            assertEquals(i, next.shard(), "an empty shard's listing asks for the next at once");
            list = next;
        }
        int sent = toStore.size();
        gc.onListed(new BlockFilesListed(list.req(), list.shard(), shards, List.of(), null));
        assertEquals(sent, toStore.size(), "a run of " + BlockGc.EMPTY_RUN + " empty shards waits for the tick");
        after(250);
        list = last(ListBlockFiles.class);
        assertEquals(BlockGc.EMPTY_RUN, list.shard(), "the tick lists the next shard");
        gc.onListed(new BlockFilesListed(list.req(), list.shard(), shards, List.of(old("ffailed")), null));
        assertEquals(list, last(ListBlockFiles.class), "a shard with blocks is judged before the next is listed");
        after(250);
        assertEquals(List.of(old("ffailed")), last(CollectBlocks.class).blocks());
        after(250);
        assertEquals(BlockGc.EMPTY_RUN + 1, last(ListBlockFiles.class).shard());
    }

    @Test
    void peerDown_pausesThePass_andTheGraceStartsOverWhenItIsBack() {
        after(0);
        after(GRACE);
        ListBlockFiles list = last(ListBlockFiles.class);
        gc.onListed(new BlockFilesListed(list.req(), 0, 1, List.of(old("ffailed")), null));
        node.up.remove("mumbai");
        after(250);
        assertEquals(-1, gc.status(0).settledSinceMillis());
        assertInstanceOf(ListBlockFiles.class, toStore.get(toStore.size() - 1), "nothing collected while a peer is down");
        node.up.add("mumbai");
        after(250);
        long back = wall;
        after(GRACE - 250);
        assertEquals(1, toStore.size(), "nothing within a grace of the peer's return");
        after(250);
        ListBlockFiles again = last(ListBlockFiles.class);
        assertEquals(0, again.shard(), "the interrupted shard is listed again");
        assertEquals(back, gc.status(0).settledSinceMillis());
        gc.onListed(new BlockFilesListed(list.req(), 0, 1, List.of(old("fkept")), null));
        after(250);
        assertEquals(again, last(ListBlockFiles.class), "a stale listing is ignored");
        gc.onListed(new BlockFilesListed(again.req(), 0, 1, List.of(old("ffailed")), null));
        after(250);
        assertEquals(List.of(old("ffailed")), last(CollectBlocks.class).blocks());
    }

    @Test
    void off_doesNothing() throws IOException {
        BlockGc off = new BlockGc(node, GcSettings.OFF, () -> wall, toStore::add,
                new MetaGcTotals(node.manifests().engine()), Set.of()::contains, since -> true);
        for (int i = 0; i < 10; i++) {
            wall += GRACE;
            off.tick(node.now += GRACE * FakeNode.MS);
        }
        assertTrue(toStore.isEmpty());
    }

    @Test
    void noPass_untilAntiEntropyHasComparedWithEveryPeerSinceTheNodeSettled() {
        trackSync = true;
        after(0);
        after(2 * GRACE);
        assertTrue(toStore.isEmpty(), "settled long enough, but no exchange with every peer since");
        syncedAt = node.now;
        after(250);
        assertEquals(0, last(ListBlockFiles.class).shard());
    }
}
