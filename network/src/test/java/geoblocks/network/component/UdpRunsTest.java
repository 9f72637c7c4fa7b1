package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.network.udp.DatagramSealer;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/** How UdpEndpoint cuts a batch into GSO runs, and which send failures mean "too big". */
class UdpRunsTest {
    static final NetAddress A = NetAddress.of("10.0.0.1", 1);
    static final NetAddress B = NetAddress.of("10.0.0.2", 2);
    static final NetAddress C = NetAddress.of("10.0.0.3", 3);

    /** A message that travels alone, as a path MTU probe does. */
    static final class Lone extends NetMsg {
        Lone(NetHeader h) {
            super(h);
        }

        @Override
        public boolean alone() {
            return true;
        }

        @Override
        public int wireSize() {
            return 0;
        }
    }

    static UdpEndpoint.Unsealed u(NetAddress to, int size) {
        return new UdpEndpoint.Unsealed(new TestMsg(new NetHeader(A, to, Transport.UDP), 0, new byte[0]), 7, size,
                null, to.asSocket());
    }

    static UdpEndpoint.Unsealed lone(NetAddress to, int size) {
        return new UdpEndpoint.Unsealed(new Lone(new NetHeader(A, to, Transport.UDP)), 7, size, null, to.asSocket());
    }

    static List<Integer> runs(List<Object> batch) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < batch.size();) {
            i = UdpEndpoint.runEnd(batch, i);
            ends.add(i);
        }
        return ends;
    }

    @Test
    void runs_areEqualSizesToOnePeer_endedByAShorterOne_orAnotherPeer() {
        List<Object> batch = List.of(u(B, 1300), u(B, 1300), u(B, 900), u(B, 1300), u(C, 1300), u(C, 1400));
        assertEquals(List.of(3, 4, 5, 6), runs(batch));
    }

    @Test
    void aDatagramThatTravelsAlone_isARunOfItsOwn_evenAmongEqualSizes() {
        List<Object> batch = List.of(u(B, 1300), lone(B, 1300), u(B, 1300), lone(B, 1400), u(B, 1300), u(B, 1300));
        assertEquals(List.of(1, 2, 3, 4, 6), runs(batch), "a refused probe must take no data with it");
    }

    @Test
    void tooBig_isEmsgsizeFromEpoll_orNioMessage_andNothingElse() {
        assertTrue(UdpEndpoint.tooBig(new SocketException("Message too long")));
        assertFalse(UdpEndpoint.tooBig(new SocketException("Connection refused")));
        assertFalse(UdpEndpoint.tooBig(new IllegalStateException("Message too long")));
        Assumptions.assumeTrue(Epoll.isAvailable(), "no epoll here");
        assertTrue(UdpEndpoint.tooBig(new Errors.NativeIoException("sendmmsg", -90)));
        assertFalse(UdpEndpoint.tooBig(new Errors.NativeIoException("sendmmsg", -111)));
    }

    @Test
    void datagramOverhead_isTheCodecIdPlusTheSealing() {
        assertEquals(1 + DatagramSealer.OVERHEAD, Wire.DATAGRAM_OVERHEAD);
    }
}
