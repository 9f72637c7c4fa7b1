package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.FetchBlock;
import geoblocks.blockstore.wire.FileOp.GetBegin;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpHandlersTest {
    private static final NetAddress MEMBER = NetAddress.of("127.0.0.1", 7000);
    private static final NetAddress STRANGER = NetAddress.of("127.0.0.1", 9000);

    private final List<String> log = new ArrayList<>();
    private final OpHandlers handlers = new OpHandlers()
            .client(GetBegin.class, (from, g) -> log.add("get " + g.name() + " from " + from.getPort()))
            .peer(FetchBlock.class, (from, f) -> log.add("fetch " + f.blockId()))
            .peer(ManifestPart.class, ManifestPart::publish, (from, p) -> log.add("publish " + p.req()));

    private boolean dispatch(NetAddress from, FileOp op) {
        return handlers.dispatch(from, op, MEMBER::equals, (peer, o) -> log.add("refused " + o.getClass().getSimpleName()));
    }

    @Test
    void clientRequest_reachesItsHandler_fromAnyone() {
        assertTrue(dispatch(STRANGER, new GetBegin(1, "a")));
        assertEquals(List.of("get a from 9000"), log);
    }

    @Test
    void peerRequest_fromAMember_reachesItsHandler_fromAnyoneElse_isRefused() {
        assertTrue(dispatch(MEMBER, new FetchBlock(1, "b-1-0")));
        assertTrue(dispatch(STRANGER, new FetchBlock(2, "b-1-0")));
        assertEquals(List.of("fetch b-1-0", "refused FetchBlock"), log);
    }

    @Test
    void opsWithoutAHandler_orOutsideItsCondition_areReplies() {
        assertFalse(dispatch(MEMBER, new Done(1, "ok")));
        assertFalse(dispatch(MEMBER, new ManifestPart(2, false, 0, 1, new byte[1])), "a lookup's answer");
        assertTrue(dispatch(MEMBER, new ManifestPart(3, true, 0, 1, new byte[1])));
        assertEquals(List.of("publish 3"), log);
        assertTrue(handlers.handles(GetBegin.class));
        assertFalse(handlers.handles(Done.class));
    }

    @Test
    void aSecondHandlerForOneClass_isRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> handlers.client(GetBegin.class, (from, g) -> { }));
        assertTrue(e.getMessage().contains("GetBegin"), e.getMessage());
    }
}
