package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.blockstore.wire.PeerOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replica copy arriving at a node whose transfer memory is spent: a block that came whole in one
 * message is stored (its bytes are in memory already; refusing it would only fail the upload that
 * sent it), while one announced in parts is still refused as busy before its buffer is reserved.
 */
class ReplicaMemoryTest {
    private static final NetAddress DUBLIN = NetAddress.of("127.0.0.1", 7001);

    private static List<FileOp> sentTo(FakeNode node, NetAddress to) {
        return node.sent.stream().filter(s -> s[0].equals(to)).map(s -> (FileOp) s[1]).toList();
    }

    @Test
    void aWholeBlockInOneMessage_isStoredEvenWithTheBudgetSpent_andItsBytesCountUntilStored() throws Exception {
        FakeNode node = new FakeNode();
        node.disk = new MemoryBlockStorage(() -> 0L);
        long capacity = node.budget().capacity();
        assertTrue(node.budget().tryReserve(capacity)); // other transfers hold everything
        byte[] block = new byte[1 << 20];
        Arrays.fill(block, (byte) 3);
        new ReplicaServer(node).onReplicaData(DUBLIN, new ReplicaData(5, "b-f1-0", 0, block.length,
                Checksums.crc32c(block), false, block));
        assertEquals(List.of(new ReplicaStored(5, "b-f1-0")), sentTo(node, DUBLIN));
        assertArrayEquals(block, node.disk.get(BlockId.of("b-f1-0")).data());
        assertEquals(capacity, node.budget().used(), "counted while held, released once stored");
    }

    @Test
    void whileHeldBytesTakeTheBudgetOverItsCapacity_newReservationsFail_untilTheyAreReleased() {
        FakeNode node = new FakeNode();
        long capacity = node.budget().capacity();
        assertTrue(node.budget().tryReserve(capacity - 10));
        node.budget().reserveHeld(1000);
        assertEquals(capacity + 990, node.budget().used());
        assertFalse(node.budget().tryReserve(1));
        node.budget().release(1000);
        assertTrue(node.budget().tryReserve(10));
        assertFalse(node.budget().tryReserve(1));
    }

    @Test
    void aBlockAnnouncedInParts_isStillRefusedAsBusy_whenItsBufferDoesNotFit() {
        FakeNode node = new FakeNode();
        node.disk = new MemoryBlockStorage(() -> 0L);
        long capacity = node.budget().capacity();
        assertTrue(node.budget().tryReserve(capacity - 1000));
        byte[] half = new byte[4096];
        new ReplicaServer(node).onReplicaData(DUBLIN, new ReplicaData(6, "b-f1-1", 0, 2 * half.length, 0, false, half));
        List<FileOp> sent = sentTo(node, DUBLIN);
        assertEquals(1, sent.size());
        Failed f = (Failed) sent.get(0);
        assertEquals(FailureCode.BUSY, f.code(), f.error());
        assertEquals(capacity - 1000, node.budget().used(), "nothing reserved for it");
    }
}
