package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.ReplicationQueue.Copy;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.blockstore.wire.PeerOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The replication queue's drain on a fake node (saopaulo, which holds every block): copies owed
 * after {@code put --ack local} are read here and sent to their target (background TCP replica
 * messages: no LEDBAT here), leave the queue only when the target confirms them, wait their backoff
 * after a failure and while the target is down, and are dropped when the manifest no longer names
 * the target. The queue is saved before {@code enqueue} returns, its removals on the next tick.
 */
class ReplicatorTest {
    private static final int BLOCK = 100;
    private static final int BLOCKS = 6;

    private final FakeNode node = new FakeNode();
    private final ReplicationQueueStore store = ReplicationQueueStore.inMemory();
    private final Manifest file;
    private final Replicator replicator;

    ReplicatorTest() throws IOException {
        node.disk = new MemoryBlockStorage(() -> 1_000L);
        List<Manifest.BlockRef> refs = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            byte[] data = block(b);
            int crc = Checksums.crc32c(data);
            node.disk.put(BlockId.ofFileBlock("fq", b), data, crc);
            refs.add(new Manifest.BlockRef(BLOCK, crc, List.of("saopaulo", "dublin")));
        }
        file = new Manifest("f", "fq", BLOCK * BLOCKS, BLOCK, "tworandom", "saopaulo", 500, refs,
                new Version(HybridClock.of(500, 0), "saopaulo"), 0, false);
        node.manifests().save(file);
        replicator = new Replicator(node, store, List.of(), new ReplicaCopy(node, null));
    }

    private static byte[] block(int b) {
        byte[] data = new byte[BLOCK];
        Arrays.fill(data, (byte) (b + 1));
        return data;
    }

    private static Copy toDublin(int block) {
        return new Copy("f", "fq", block, "dublin");
    }

    /** The replica messages sent and not answered yet. */
    private List<ReplicaData> unanswered() {
        List<ReplicaData> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[1] instanceof ReplicaData d && node.waiting.containsKey(d.req())) {
                assertEquals(node.addressOf("dublin"), s[0]);
                out.add(d);
            }
        }
        return out;
    }

    private void answer(ReplicaData d, boolean stored) {
        node.waiting.remove(d.req()).onReply(stored ? new ReplicaStored(d.req(), d.blockId())
                : new Failed(d.req(), FailureCode.UNAVAILABLE, "disk full"));
    }

    @Test
    void aQueuedCopy_isSavedAtOnce_sentAsBackgroundData_andLeavesTheQueueWhenStored() throws IOException {
        replicator.enqueue(List.of(toDublin(2)));
        assertEquals(List.of(toDublin(2)), store.load(), "durable before the put is acknowledged");
        assertEquals(Map.of(2, List.of("dublin")), replicator.pending(file));
        assertTrue(replicator.owes("fq"));

        replicator.pump();
        List<ReplicaData> sent = unanswered();
        assertEquals(1, sent.size());
        ReplicaData d = sent.get(0);
        assertEquals("b-fq-2", d.blockId());
        assertTrue(d.background(), "counted as background traffic at both ends");
        assertArrayEquals(block(2), d.data());
        assertEquals(Checksums.crc32c(block(2)), d.crc());

        answer(d, true);
        assertEquals(0, replicator.size());
        assertFalse(replicator.owes("fq"), "the block collector may now judge its blocks");
        assertEquals(List.of(toDublin(2)), store.load(), "the removal waits for the next tick");
        replicator.tick();
        assertEquals(List.of(), store.load());
        assertEquals(0, node.budget.used(), "the memory for the block is returned");
    }

    @Test
    void atMostFourCopiesAreInFlight_andTheNextStartsWhenOneEnds() throws IOException {
        List<Copy> all = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            all.add(toDublin(b));
        }
        replicator.enqueue(all);
        replicator.pump();
        List<ReplicaData> sent = unanswered();
        assertEquals(Replicator.MAX_IN_FLIGHT, sent.size());
        answer(sent.get(0), true);
        assertEquals(Replicator.MAX_IN_FLIGHT, unanswered().size(), "one ended, the next started");
        assertEquals(BLOCKS - 1, replicator.size());
    }

    @Test
    void aFailedCopy_staysQueued_andIsSentAgainOnlyAfterItsBackoff() throws IOException {
        replicator.enqueue(List.of(toDublin(0)));
        replicator.pump();
        answer(unanswered().get(0), false);
        assertEquals(1, replicator.size(), "not confirmed: still owed");
        replicator.tick();
        assertEquals(List.of(), unanswered(), "waits out its backoff");
        node.now += Replicator.BACKOFF_BASE_NANOS - 1;
        replicator.tick();
        assertEquals(List.of(), unanswered());
        node.now += 1;
        replicator.tick();
        assertEquals(1, unanswered().size(), "tried again after " + Replicator.BACKOFF_BASE_NANOS / FakeNode.MS + " ms");
        answer(unanswered().get(0), false);
        node.now += Replicator.BACKOFF_BASE_NANOS;
        replicator.tick();
        assertEquals(List.of(), unanswered(), "the second backoff is twice the first");
        node.now += Replicator.BACKOFF_BASE_NANOS;
        replicator.tick();
        assertEquals(1, unanswered().size());
    }

    @Test
    void aCopyToATargetThatIsDown_waitsUntilItIsUp() throws IOException {
        RttTable up = node.rtt;
        node.rtt = new RttTable("saopaulo", Map.of("mumbai", 300.0, "seoul", 400.0), Set.of("dublin"));
        replicator.enqueue(List.of(toDublin(0)));
        replicator.tick();
        assertEquals(List.of(), unanswered());
        assertEquals(1, replicator.size());
        node.rtt = up;
        replicator.tick();
        assertEquals(1, unanswered().size());
    }

    @Test
    void aCopyTheManifestNoLongerNames_isDropped_withoutSending() throws IOException {
        replicator.enqueue(List.of(new Copy("f", "fq", 0, "seoul"), new Copy("gone", "fgone", 0, "dublin")));
        replicator.pump();
        assertEquals(List.of(), node.sent);
        assertEquals(0, replicator.size());
        replicator.tick();
        assertEquals(List.of(), store.load(), "and the drop is saved");
    }

    @Test
    void copiesKeptByAnEarlierRun_resumeAtStart() throws IOException {
        Replicator restarted = new Replicator(node, store, List.of(toDublin(1)), new ReplicaCopy(node, null));
        assertEquals(1, restarted.size());
        restarted.pump();
        List<ReplicaData> sent = unanswered();
        assertEquals(1, sent.size());
        assertEquals("b-fq-1", sent.get(0).blockId());
        NetAddress to = node.addressOf("dublin");
        assertEquals(to, node.sent.get(0)[0]);
    }
}
