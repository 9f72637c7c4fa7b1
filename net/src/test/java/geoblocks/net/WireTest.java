package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

class WireTest {

    static ByteBuffer header(NetHeader h) {
        ByteBuffer b = ByteBuffer.allocate(64);
        Wire.writeHeader(h, b);
        return b.flip();
    }

    @Test
    void headers_roundTrip_andARepeatedAddressIsTheSameInstance() throws Exception {
        NetAddress a = NetAddress.of("10.1.2.3", 4000);
        NetAddress b = NetAddress.of("::1", 65535);
        NetHeader first = Wire.readHeader(header(new NetHeader(a, b, Transport.UDP)));
        assertEquals(new NetHeader(a, b, Transport.UDP), first);
        NetHeader second = Wire.readHeader(header(new NetHeader(a, b, Transport.UDP)));
        assertSame(first.source(), second.source(), "decoded once, then reused");
        assertSame(first.destination(), second.destination());
        NetHeader back = Wire.readHeader(header(new NetHeader(b, a, Transport.TCP)));
        assertEquals(new NetHeader(b, a, Transport.TCP), back);
    }

    @Test
    void anotherPortOrIp_isNotTakenForACachedOne() throws Exception {
        NetAddress a = NetAddress.of("10.1.2.3", 4000);
        NetHeader h1 = Wire.readHeader(header(new NetHeader(a, a, Transport.UDP)));
        NetHeader h2 = Wire.readHeader(header(new NetHeader(a.withPort(4001), NetAddress.of("10.1.2.4", 4000),
                Transport.UDP)));
        assertEquals(4001, h2.source().getPort());
        assertEquals("10.1.2.4", h2.destination().getIp().getHostAddress());
        assertNotSame(h1.source(), h2.source());
        // more addresses than the cache holds: each still decodes to itself
        for (int i = 0; i < 10; i++) {
            NetAddress x = NetAddress.of("192.168.0." + i, 1000 + i);
            assertEquals(x, Wire.readHeader(header(new NetHeader(x, a, Transport.UDP))).source());
        }
    }

    @Test
    void badTransportOrIpLength_isMalformed() {
        ByteBuffer b = header(new NetHeader(NetAddress.of("10.0.0.1", 1), NetAddress.of("10.0.0.2", 2), Transport.UDP));
        b.put(b.limit() - 1, (byte) 99);
        assertThrows(MalformedMessageException.class, () -> Wire.readHeader(b));
        ByteBuffer c = ByteBuffer.wrap(new byte[] {5, 1, 2, 3, 4, 5, 0, 1});
        assertThrows(MalformedMessageException.class, () -> Wire.readHeader(c));
    }
}
