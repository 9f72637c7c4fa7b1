package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.net.NetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Uploads and downloads on a fake node whose transfer memory is full: they wait in the admission
 * queue instead of being refused, go on in order once memory frees, and are refused as busy only
 * after the queue's deadline (10 s on the fake node).
 */
class AdmissionWaitTest {
    private static final long MS = FakeNode.MS;
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final NetAddress OTHER_CLIENT = NetAddress.of("127.0.0.1", 9001);
    private static final int BLOCK = 1 << 20;
    /** The client share of the fake node's 64 MiB budget. */
    private static final long SHARE = 48L << 20;

    private static Uploads uploads(FakeNode node) {
        return new Uploads(node, new Replicator(node, ReplicationQueueStore.inMemory(), List.of(),
                new ReplicaCopy(node, null)));
    }

    private static <T extends FileOp> List<T> sentTo(FakeNode node, NetAddress to, Class<T> type) {
        return node.sent.stream().filter(s -> s[0].equals(to) && type.isInstance(s[1])).map(s -> type.cast(s[1])).toList();
    }

    /** Replicas of blocks sent to peers (first chunks). */
    private static long replicasSent(FakeNode node) {
        return node.sent.stream().map(s -> s[1]).filter(op -> op instanceof ReplicaData r && r.offset() == 0).count();
    }

    private static void pump(FakeNode node) {
        node.admission().pump(node.now);
    }

    @Test
    void anUploadFindingNoMemory_waits_andBeginsOnceMemoryFrees() {
        FakeNode node = new FakeNode();
        node.budget().tryReserve(SHARE - 1000); // other work holds the client share
        Uploads up = uploads(node);
        up.onBegin(CLIENT, new PutBegin(1, "a", 2 * BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        assertEquals(List.of(), sentTo(node, CLIENT, PutProgress.class), "not accepted yet");
        assertEquals(List.of(), sentTo(node, CLIENT, Failed.class), "and not refused");
        assertEquals(1, node.admission().stats().waiting());

        node.now += 500 * MS;
        node.budget().release(SHARE - 1000);
        pump(node);
        assertEquals(List.of(0L), sentTo(node, CLIENT, PutProgress.class).stream().map(PutProgress::durableBytes).toList());
        assertEquals(500 * MS, node.admission().stats().waitedNanos());
        assertTrue(node.budget().used() >= BLOCK, "its metadata and first block are reserved: " + node.budget().used());
    }

    @Test
    void anUploadWaitingPastTheDeadline_isRefusedAsBusy() {
        FakeNode node = new FakeNode();
        node.budget().tryReserve(SHARE);
        uploads(node).onBegin(CLIENT, new PutBegin(1, "a", BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        node.now += 10_000 * MS;
        node.admission().expire(node.now);
        assertEquals(List.of(), sentTo(node, CLIENT, Failed.class), "not before the deadline");
        node.now += 1 * MS;
        node.admission().expire(node.now);
        List<Failed> failed = sentTo(node, CLIENT, Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.BUSY, failed.get(0).code(), failed.get(0).error());
    }

    @Test
    void anUploadWhoseNextBlockFindsNoMemory_keepsThePieces_andGoesOnBeforeNewerUploads() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("dublin", "mumbai");
        Uploads up = uploads(node);
        byte[] block = new byte[BLOCK];
        Arrays.fill(block, (byte) 7);
        int crc = Checksums.crc32c(block);
        up.onBegin(CLIENT, new PutBegin(1, "a", 2L * BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        up.onData(CLIENT, new PutData(1, 0, 0, crc, true, block)); // block 0: prepaid at admission
        assertEquals(2, replicasSent(node), "block 0 went to both replicas");

        long held = node.budget().used();
        node.budget().tryReserve(SHARE - held); // the share is full now
        up.onBegin(OTHER_CLIENT, new PutBegin(1, "b", BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        byte[] half = Arrays.copyOf(block, BLOCK / 2);
        up.onData(CLIENT, new PutData(1, 1, 0, 0, false, half)); // block 1 needs a buffer: it waits
        up.onData(CLIENT, new PutData(1, 1, BLOCK / 2, crc, true, half));
        assertEquals(2, node.admission().stats().waiting());
        assertEquals(List.of(), sentTo(node, CLIENT, Failed.class));

        node.budget().release(BLOCK); // room for one block: the older upload's, not the newer upload's
        pump(node);
        assertEquals(4, replicasSent(node), "block 1 went out from the kept pieces");
        assertEquals(List.of(), sentTo(node, OTHER_CLIENT, PutProgress.class), "the newer upload still waits");
        assertEquals(1, node.admission().stats().waiting());
    }

    @Test
    void aDownloadFindingNoMemory_waits_thenFetches() throws Exception {
        FakeNode node = new FakeNode();
        byte[] data = new byte[1000];
        Manifest m = new Manifest("f.bin", "f1", data.length, BLOCK, "local", "dublin", 1L,
                List.of(new Manifest.BlockRef(data.length, Checksums.crc32c(data), List.of("dublin"))));
        node.manifests().save(m);
        node.budget().tryReserve(SHARE);
        Downloads down = new Downloads(node);
        down.onBegin(CLIENT, new GetBegin(1, "f.bin"));
        assertTrue(node.sent.stream().noneMatch(s -> s[1] instanceof FetchBlock), "no fetch without memory");
        assertEquals(List.of(), sentTo(node, CLIENT, Failed.class));

        node.budget().release(SHARE);
        pump(node);
        long fetch = node.sent.stream().map(s -> s[1]).filter(op -> op instanceof FetchBlock).map(op -> ((FetchBlock) op).req())
                .findFirst().orElseThrow();
        assertTrue(node.waiting.remove(fetch).onReply(new BlockData(fetch, 0, data.length, 0, data)));
        assertEquals(1, sentTo(node, CLIENT, ClientOp.GetData.class).size(), "the block went to the client");
        assertEquals(List.of(), sentTo(node, CLIENT, Failed.class));
    }

    /**
     * The clients of waiting requests hear {@code Waiting} with how long they have waited, at each
     * reminder, so a wait longer than a client's silence timeout does not end it; admitted or
     * refused requests are not reminded.
     */
    @Test
    void waitingRequests_areReminded_untilAdmittedOrRefused() throws Exception {
        FakeNode node = new FakeNode();
        byte[] data = new byte[1000];
        node.manifests().save(new Manifest("f.bin", "f1", data.length, BLOCK, "local", "dublin", 1L,
                List.of(new Manifest.BlockRef(data.length, Checksums.crc32c(data), List.of("dublin")))));
        node.budget().tryReserve(SHARE);
        Uploads up = uploads(node);
        Downloads down = new Downloads(node);
        up.onBegin(CLIENT, new PutBegin(1, "a", BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        node.now += 1000 * MS;
        down.onBegin(OTHER_CLIENT, new GetBegin(2, "f.bin"));
        node.now += 2000 * MS;
        up.remindWaiting(node.now);
        down.remindWaiting(node.now);
        assertEquals(List.of(new ClientOp.Waiting(1, 3000)), sentTo(node, CLIENT, ClientOp.Waiting.class));
        assertEquals(List.of(new ClientOp.Waiting(2, 2000)), sentTo(node, OTHER_CLIENT, ClientOp.Waiting.class));

        node.budget().release(SHARE); // both are admitted: no more reminders
        pump(node);
        assertEquals(List.of(0L), sentTo(node, CLIENT, PutProgress.class).stream().map(PutProgress::durableBytes).toList());
        node.now += 2000 * MS;
        up.remindWaiting(node.now);
        down.remindWaiting(node.now);
        assertEquals(1, sentTo(node, CLIENT, ClientOp.Waiting.class).size());
        assertEquals(1, sentTo(node, OTHER_CLIENT, ClientOp.Waiting.class).size());
    }
}
