package geoblocks.app.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server's bounds on clients: head deadline, connection cap, incomplete bodies, 100-continue and the override route. */
class HttpLimitsTest {
    private HttpServer server;
    private final AtomicLong received = new AtomicLong();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CountDownLatch aborted = new CountDownLatch(1);
    private final HttpRefusals refusals = new HttpRefusals();

    @BeforeEach
    void start() throws Exception {
        Router router = new Router()
                .add("GET", "/", true, ex -> ex.respondText(200, "dashboard\n"))
                .add("PUT", "/up", false, ex -> {
                    ex.onBody(new Exchange.BodySink() {
                        @Override
                        public void onChunk(io.netty.buffer.ByteBuf chunk) {
                            received.addAndGet(chunk.readableBytes());
                        }

                        @Override
                        public void onEnd() {
                            ended.set(true);
                            ex.respondText(200, "got " + received.get() + "\n");
                        }

                        @Override
                        public void onAbort() {
                            aborted.countDown();
                        }
                    });
                    ex.sendContinue();
                })
                .override(req -> req.headers().contains("X-Signed"), ex -> ex.respondText(200, "override\n"));
        server = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), router, new BasicAuth("k", "secret"),
                new HttpServer.Limits(300, 3), refusals);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout(5000);
        return s;
    }

    private static String read(InputStream in, int n) throws IOException {
        return new String(in.readNBytes(n), StandardCharsets.US_ASCII);
    }

    @Test
    void aHeadThatDoesNotArriveInTime_closesTheConnection() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET / HTT".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, s.getInputStream().read(), "the server closes a connection whose head stalls");
        }
        assertEquals(1L, refusals.counts().get(HttpRefusals.HEAD_TIMEOUT));
    }

    @Test
    void connectionsAboveTheCap_areClosedAtOnce() throws Exception {
        try (Socket a = connect(); Socket b = connect(); Socket c = connect()) {
            for (Socket s : new Socket[] {a, b, c}) {
                s.getOutputStream().write("GET / HTTP/1.1\r\nX-Signed: 1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals("HTTP/1.1 200", read(s.getInputStream(), 12));
            }
            try (Socket d = connect()) {
                assertEquals(-1, d.getInputStream().read());
            }
            assertEquals(1L, refusals.counts().get(HttpRefusals.CONNECTION_LIMIT));
            assertEquals(0L, refusals.counts().get(HttpRefusals.HEAD_TIMEOUT));
        }
    }

    @Test
    void aBodyShorterThanItsContentLength_isAbortedNotEnded() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /up HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789".getBytes(StandardCharsets.US_ASCII));
            s.shutdownOutput();
            assertTrue(aborted.await(5, TimeUnit.SECONDS), "the sink hears that the body was cut short");
        }
        assertFalse(ended.get());
        assertEquals(10, received.get());
    }

    @Test
    void expectContinue_isAnsweredWhenTheRouteAsksForTheBody() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /up HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", read(s.getInputStream(), 25));
            s.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 200", read(s.getInputStream(), 12));
        }
        assertTrue(ended.get());
    }

    @Test
    void theOverrideRoute_takesRequestsItPicks_withoutBasicCredentials() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 401", read(s.getInputStream(), 12));
        }
        try (Socket s = connect()) {
            s.getOutputStream().write("DELETE /anything HTTP/1.1\r\nX-Signed: 1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 200", read(s.getInputStream(), 12));
        }
    }
}
