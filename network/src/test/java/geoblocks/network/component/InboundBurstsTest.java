package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

class InboundBurstsTest {
    static final NetAddress SELF = NetAddress.of("127.0.0.1", 4000);
    static final NetAddress P = NetAddress.of("127.0.0.1", 4001);
    static final NetAddress Q = NetAddress.of("127.0.0.1", 4002);

    final List<NetMsg> out = new ArrayList<>();
    final InboundBursts bursts = new InboundBursts(out::add);

    static TestMsg from(NetAddress peer, long seq) {
        return new TestMsg(new NetHeader(peer, SELF, Transport.UDP), seq, new byte[0]);
    }

    static List<Long> seqs(NetMsg m) {
        List<Long> s = new ArrayList<>();
        for (NetMsg p : ((NetBurst) m).parts()) {
            s.add(((TestMsg) p).seq);
        }
        return s;
    }

    @Test
    void oneReadFromOnePeer_isOneBurstInOrder_deliveredOnlyAtFlush() {
        for (int i = 0; i < 5; i++) {
            bursts.add(from(P, i), true);
        }
        assertTrue(out.isEmpty(), "nothing leaves before the read ends");
        bursts.flush();
        assertEquals(1, out.size());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), seqs(out.get(0)));
        assertEquals(P, out.get(0).getHeader().source());
        bursts.flush();
        assertEquals(1, out.size(), "a second flush has nothing to deliver");
    }

    @Test
    void aLoneDatagram_isDeliveredAsItself() {
        TestMsg m = from(P, 7);
        bursts.add(m, true);
        bursts.flush();
        assertEquals(1, out.size());
        assertSame(m, out.get(0));
    }

    @Test
    void anotherPeer_endsTheRun() {
        bursts.add(from(P, 1), true);
        bursts.add(from(P, 2), true);
        bursts.add(from(Q, 3), true);
        bursts.add(from(Q, 4), true);
        bursts.add(from(P, 5), true);
        bursts.flush();
        assertEquals(3, out.size());
        assertEquals(List.of(1L, 2L), seqs(out.get(0)));
        assertEquals(List.of(3L, 4L), seqs(out.get(1)));
        assertEquals(Q, out.get(1).getHeader().source());
        assertEquals(5L, ((TestMsg) out.get(2)).seq);
    }

    @Test
    void aNonBurstingDatagram_goesAtOnce_aheadOfTheRunBeingGathered() {
        bursts.add(from(P, 1), true);
        bursts.add(from(P, 2), true);
        TestMsg probe = from(P, 99);
        bursts.add(probe, false);
        assertEquals(List.of(probe), out);
        bursts.add(from(P, 3), true);
        bursts.flush();
        assertEquals(2, out.size());
        assertEquals(List.of(1L, 2L, 3L), seqs(out.get(1)), "the run continues after the probe");
    }

    @Test
    void aRunReachingMaxParts_leavesAtOnce_andTheNextStartsAfresh() {
        int n = InboundBursts.MAX_PARTS + 3;
        for (int i = 0; i < n; i++) {
            bursts.add(from(P, i), true);
        }
        assertEquals(1, out.size(), "the full run left without waiting for the flush");
        assertEquals(InboundBursts.MAX_PARTS, ((NetBurst) out.get(0)).parts().size());
        bursts.flush();
        assertEquals(2, out.size());
        assertEquals(List.of((long) n - 3, (long) n - 2, (long) n - 1), seqs(out.get(1)));
        assertInstanceOf(NetBurst.class, out.get(1));
    }
}
