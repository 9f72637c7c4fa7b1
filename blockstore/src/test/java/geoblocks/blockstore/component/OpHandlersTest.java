package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.blockstore.wire.ClientOp.ClusterReq;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import geoblocks.blockstore.wire.BenchOp.NetBenchData;
import geoblocks.blockstore.wire.BenchOp.NetBenchOpen;
import geoblocks.blockstore.wire.ClientOp.GetAck;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpHandlersTest {
    private static final NetAddress MEMBER = NetAddress.of("127.0.0.1", 7000);
    private static final NetAddress STRANGER = NetAddress.of("127.0.0.1", 9000);

    private final List<String> log = new ArrayList<>();
    private final OpHandlers client = new OpHandlers(OpFamily.CLIENT)
            .on(GetBegin.class, (from, g) -> log.add("get " + g.name() + " from " + from.getPort()));
    private final OpHandlers peer = new OpHandlers(OpFamily.PEER)
            .on(FetchBlock.class, (from, f) -> log.add("fetch " + f.blockId()))
            .on(ManifestPart.class, (from, p) -> log.add("publish " + p.req()));

    private boolean dispatch(NetAddress from, FileOp op) {
        return (OpFamily.of(op) == OpFamily.CLIENT ? client : peer).dispatch(from, op);
    }

    @Test
    void clientRequest_reachesItsHandler_fromAnyone() {
        assertTrue(dispatch(STRANGER, new GetBegin(1, "a")));
        assertEquals(List.of("get a from 9000"), log);
    }

    @Test
    void peerRequest_reachesItsHandler_whoMaySendItIsTheDoorsConcern() {
        assertTrue(dispatch(MEMBER, new FetchBlock(1, "b-1-0")));
        assertEquals(List.of("fetch b-1-0"), log);
    }

    @Test
    void replies_andManifestPartsThatAreNotPublications_goBackToTheCaller() {
        assertFalse(dispatch(MEMBER, new Done(1, "ok")));
        assertFalse(dispatch(MEMBER, new ManifestPart(2, false, 0, 1, new byte[1])), "a lookup's answer");
        assertTrue(dispatch(MEMBER, new ManifestPart(3, true, 0, 1, new byte[1])));
        assertEquals(List.of("publish 3"), log);
        assertTrue(client.handles(GetBegin.class));
        assertFalse(peer.handles(Done.class));
    }

    @Test
    void aSecondHandlerForOneClass_isRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> client.on(GetBegin.class, (from, g) -> { }));
        assertTrue(e.getMessage().contains("GetBegin"), e.getMessage());
    }

    @Test
    void anOpOfAnotherDoor_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> client.on(FetchBlock.class, (from, f) -> { }));
        assertTrue(e.getMessage().contains("FetchBlock") && e.getMessage().contains("PEER"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> client.elsewhere(LayoutSync.class));
    }

    @Test
    void opsHandledElsewhere_countAsHandled_andAreTakenWithoutAHandler() {
        OpHandlers admin = new OpHandlers(OpFamily.ADMIN).elsewhere(ClusterReq.class);
        ClusterReq show = new ClusterReq(1, "show", "", "", "", 0, false);
        assertTrue(admin.elsewhere(show));
        assertTrue(admin.dispatch(STRANGER, show));
        IllegalStateException e = assertThrows(IllegalStateException.class, admin::complete);
        assertTrue(e.getMessage().contains("MoveReq") && !e.getMessage().contains("ClusterReq"), e.getMessage());
    }

    @Test
    void complete_namesEveryHandledOpWithoutAHandler() {
        IllegalStateException e = assertThrows(IllegalStateException.class, client::complete);
        assertTrue(e.getMessage().contains("PutBegin"), e.getMessage());
        assertFalse(e.getMessage().contains("NetBenchOpen"), "another door's: " + e.getMessage());
        assertFalse(e.getMessage().contains("GetBegin"), "GetBegin has a handler: " + e.getMessage());
        IllegalStateException p = assertThrows(IllegalStateException.class, peer::complete);
        assertFalse(p.getMessage().contains("Done"), "a reply needs no handler: " + p.getMessage());
        assertTrue(p.getMessage().contains("ReplicaData"), p.getMessage());
    }

    @Test
    void aRequestWithoutAHandler_isAnError_notAReply() {
        assertThrows(IllegalStateException.class, () -> dispatch(STRANGER, new GetAck(1, 2)));
        assertThrows(IllegalStateException.class, () -> dispatch(MEMBER, new LookupManifest(1, "a")));
    }

    @Test
    void whoMaySend_followsTheFamily() {
        assertEquals(FileOp.Kind.CLIENT_REQUEST, new GetBegin(1, "a").kind());
        assertEquals(FileOp.Kind.PEER_REQUEST, new FetchBlock(1, "b").kind());
        assertEquals(FileOp.Kind.REPLY, new BlockData(1, 0, 0, 0, new byte[0]).kind());
        assertEquals(FileOp.Kind.PEER_REQUEST, new NetBenchOpen(1, 2, "tcp").kind());
        assertEquals(FileOp.Kind.CLIENT_REQUEST, new NetBenchData(1, 2, 0, 0, 0, new byte[0]).kind(),
                "bench data is counted from anyone, as before the families");
        assertEquals(FileOp.Kind.REPLY, new Failed(1, FailureCode.BUSY, "x").kind());
    }
}
