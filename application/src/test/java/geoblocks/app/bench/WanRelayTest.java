package geoblocks.app.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WanRelayTest {
    /** An echo server on loopback: sends back every byte it reads, then closes. */
    private static ServerSocket echo() throws Exception {
        ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket c = s.accept(); InputStream in = c.getInputStream(); OutputStream out = c.getOutputStream()) {
                in.transferTo(out);
            } catch (Exception e) {
                // test ends
            }
        });
        t.setDaemon(true);
        t.start();
        return s;
    }

    @Test
    void bytesCrossBothWaysIntact_andNeverBeforeTheRoundTrip() throws Exception {
        byte[] data = new byte[3 << 20];
        new Random(3).nextBytes(data);
        try (ServerSocket server = echo();
                WanRelay relay = new WanRelay(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
                        40, 0);
                Socket c = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            long t0 = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    c.getOutputStream().write(data);
                    c.shutdownOutput();
                } catch (Exception e) {
                    // read side fails the test
                }
            });
            writer.start();
            byte[] back = new byte[data.length];
            new DataInputStream(c.getInputStream()).readFully(back);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertArrayEquals(data, back);
            assertTrue(ms >= 40, "an echo through a 40 ms RTT came back after " + ms + " ms");
            assertTrue(c.getInputStream().read() < 0, "the relay passes the end of the stream on");
        }
    }

    @Test
    void badPath_isRefused() {
        InetSocketAddress a = new InetSocketAddress(InetAddress.getLoopbackAddress(), 1);
        assertThrows(IllegalArgumentException.class, () -> new WanRelay(a, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new WanRelay(a, 100, 1));
    }
}
