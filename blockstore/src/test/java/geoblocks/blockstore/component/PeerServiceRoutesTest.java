package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOps;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.PeerOp.FetchCancel;
import geoblocks.blockstore.wire.PeerOp.FetchMore;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.net.NetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The peer service's door: which peer requests the ingress sends it ({@link RequestRoutes#PEER_SERVICE}: block
 * fetches, plain and paced), that its table handles each of them, and that the memory its paced fetches hold (which it announces to the file
 * service as it falls) is what they reserved.
 */
class PeerServiceRoutesTest {
    private static final NetAddress PEER = NetAddress.of("127.0.0.1", 7001);
    private static final BlockId ID = BlockId.of("f-1-0");

    @Test
    void blockFetches_goToThePeerService_theirAnswersAndOtherPeerOpsDoNot() {
        assertTrue(RequestRoutes.toPeerService(new FetchBlock(1, "f-1-0")));
        assertTrue(RequestRoutes.toPeerService(new FetchPaced(1, "f-1-0")));
        assertTrue(RequestRoutes.toPeerService(new FetchMore(1, 10)));
        assertTrue(RequestRoutes.toPeerService(new FetchCancel(1)));
        assertFalse(RequestRoutes.toPeerService(new LookupManifest(1, "a")), "the replica server's");
        assertFalse(RequestRoutes.toPeerService(new BlockData(1, 0, 0, 0, new byte[0])),
                "a reply: back to the request waiting for it, in the file service");
        for (Class<? extends FileOp> c : RequestRoutes.PEER_SERVICE) {
            assertEquals(OpFamily.PEER, OpFamily.of(c), c.getSimpleName());
            assertTrue(FileOps.handled().contains(c), c.getSimpleName() + " is a request a node handles");
        }
    }

    @Test
    void peerServiceTable_handlesEachOfItsOps() {
        FakeNode node = new FakeNode();
        OpHandlers routes = RequestRoutes.peerService(new BlockFetches(node), new PacedFetches(node));
        for (Class<? extends FileOp> c : RequestRoutes.PEER_SERVICE) {
            assertTrue(routes.handles(c), c.getSimpleName());
        }
        assertFalse(routes.handles(LookupManifest.class));
    }

    @Test
    void heldBytes_areTheServedBlocks_untilCancelled() throws Exception {
        FakeNode node = new FakeNode();
        MemoryBlockStorage disk = new MemoryBlockStorage(System::currentTimeMillis);
        byte[] data = new byte[5000];
        disk.put(ID, data, Checksums.crc32c(data));
        node.disk = disk;
        PacedFetches paced = new PacedFetches(node);

        paced.onFetch(PEER, new FetchPaced(7, ID.toString()));
        assertEquals(5000, paced.heldBytes());
        assertEquals(5000, node.budget().used());
        assertTrue(paced.active());
        assertEquals(List.of(BlockData.class), node.sent.stream().map(s -> s[1].getClass()).distinct().toList());

        paced.onCancel(PEER, new FetchCancel(7));
        assertEquals(0, paced.heldBytes());
        assertEquals(0, node.budget().used());
        assertFalse(paced.active());
    }
}
