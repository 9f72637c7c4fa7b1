package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.network.frame.Control;
import geoblocks.network.session.Handshake;
import geoblocks.network.udp.DatagramSealer;
import geoblocks.network.udp.PairKeys;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A hand-written peer on one port for TCP and UDP, like a GeoNetwork in security "auth": it
 * accepts a node's connection, runs the handshake as acceptor with the cluster secret, derives the
 * datagram keys of the session as the node does, and then seals and opens datagrams itself, so
 * tests can capture, replay and tamper with real datagrams.
 */
final class RawUdpPeer implements AutoCloseable {
    final NetAddress self;
    private final ServerSocket server;
    private final DatagramSocket udp;
    RawPeer tcp;
    private PairKeys keys;
    private long nextSeq;

    RawUdpPeer() throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        ServerSocket s = null;
        DatagramSocket d = null;
        for (int attempt = 0; d == null; attempt++) {
            s = new ServerSocket(0, 8, lo);
            try {
                d = new DatagramSocket(new InetSocketAddress(lo, s.getLocalPort()));
            } catch (BindException e) { // the UDP port of that number is taken: try another
                s.close();
                if (attempt == 10) {
                    throw e;
                }
            }
        }
        server = s;
        udp = d;
        server.setSoTimeout(RawPeer.TIMEOUT_MS);
        udp.setSoTimeout(RawPeer.TIMEOUT_MS);
        self = new NetAddress(lo, server.getLocalPort());
    }

    /** Accepts the node's connection (the test made it dial us) and authenticates it. */
    void acceptSession(NetAddress node, String secret) throws Exception {
        tcp = new RawPeer(server.accept());
        Handshake h = new Handshake(Handshake.Role.ACCEPTOR, self, null, secret.getBytes(StandardCharsets.UTF_8),
                new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, new byte[0], new byte[0]);
        Control.Hello theirs = tcp.readControl(Control.Hello.class);
        tcp.writeControl(h.hello());
        tcp.writeControl(h.onHello(theirs));
        assertTrue(h.onProof(tcp.readControl(Control.Proof.class)), "the node proved the secret");
        keys = PairKeys.derive(h.sessionSecret(), self.toString(), node.toString(), true);
        nextSeq = 0;
    }

    /** A datagram as the node expects it from us: codec id, codec bytes, sealed under the next seq. */
    byte[] seal(int codecId, TestMsg m) {
        ByteBuffer body = ByteBuffer.allocate(1 + TestMsg.CODEC.encodedSize(m));
        body.put((byte) codecId);
        TestMsg.CODEC.encode(m, body);
        body.flip();
        ByteBuffer out = ByteBuffer.allocate(body.remaining() + DatagramSealer.OVERHEAD);
        int n = keys.sender().seal(nextSeq++, body, out);
        return Arrays.copyOf(out.array(), n);
    }

    void sendTo(NetAddress node, byte[] datagram) throws IOException {
        udp.send(new DatagramPacket(datagram, datagram.length, node.asSocket()));
    }

    /** Receives and opens one datagram from the node; returns [codec id, codec bytes...]. */
    byte[] receive() throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[65_536], 65_536);
        udp.receive(p);
        ByteBuffer out = ByteBuffer.allocate(p.getLength());
        keys.receiver().open(ByteBuffer.wrap(p.getData(), 0, p.getLength()), out);
        return Arrays.copyOf(out.array(), out.position());
    }

    @Override
    public void close() throws IOException {
        if (tcp != null) {
            tcp.close();
        }
        server.close();
        udp.close();
    }
}
