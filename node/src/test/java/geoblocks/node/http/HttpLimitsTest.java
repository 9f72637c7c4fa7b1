package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server's bounds on clients: head deadline, slow bodies, connection cap, incomplete bodies,
 * 100-continue and the override route.
 */
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
                    ex.onBody(counting(ex));
                    ex.sendContinue();
                })
                .add("PUT", "/custom", false, ex -> {
                    ex.onBodyTimeout(why -> ex.respondText(400, "custom: " + why + "\n"));
                    ex.onBody(counting(ex));
                })
                .add("PUT", "/late", false, ex -> {
                    ex.onBody(counting(ex));
                    // the route takes longer than the body's grace to let the client send
                    ex.context().executor().schedule(ex::sendContinue, 4 * GRACE_MS, TimeUnit.MILLISECONDS);
                })
                .add("PUT", "/own/*", false, new Route() {
                    @Override
                    public void handle(Exchange ex) {
                        ex.respondText(200, "own\n");
                    }

                    @Override
                    public void malformed(Exchange ex, Throwable why) {
                        ex.respond(400, "application/xml", ("<Error>" + why.getMessage() + "</Error>")
                                .getBytes(StandardCharsets.UTF_8));
                    }
                })
                .override(req -> req.headers().contains("X-Signed"), ex -> ex.respondText(200, "override\n"));
        server = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), router, new BasicAuth("k", "secret"),
                new HttpServer.Limits(300, 3, new BodyDeadline(GRACE_MS, MIN_RATE, 0)), refusals);
    }

    /** Bodies here: 200 ms of grace, then 1000 bytes/s. */
    private static final long GRACE_MS = 200;
    private static final long MIN_RATE = 1000;

    private Exchange.BodySink counting(Exchange ex) {
        return new Exchange.BodySink() {
            @Override
            public void onChunk(ByteBuf chunk) {
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
        };
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
    void aRequestStillBeingAnswered_outlivesTheIdleTime_whileAnIdleConnectionIsClosed() throws Exception {
        Router router = new Router().add("GET", "/slow", false, ex -> ex.context().executor().schedule(
                () -> ex.respondText(200, "late\n"), 1_500, TimeUnit.MILLISECONDS));
        HttpServer idle = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), router, null,
                new HttpServer.Limits(10_000, 8, BodyDeadline.DEFAULT, 500), new HttpRefusals());
        try {
            try (Socket s = new Socket("127.0.0.1", idle.address().getPort())) {
                s.setSoTimeout(5000);
                s.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readNBytes(15), StandardCharsets.US_ASCII);
                assertEquals("HTTP/1.1 200 OK", answer, "answered 1.5 s later, past the 0.5 s idle time");
                // answered and then quiet: closed after the idle time
                byte[] rest = new byte[4096];
                long t0 = System.nanoTime();
                while (s.getInputStream().read(rest) >= 0) {
                    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4), "not closed when idle");
                }
            }
        } finally {
            idle.close();
        }
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

    /** Writes {@code total} bytes, {@code each} at a time every {@code everyMs}, until done or the server closes. */
    private static Thread trickle(Socket s, int total, int each, long everyMs, AtomicReference<Exception> stopped) {
        Thread t = new Thread(() -> {
            try {
                for (int sent = 0; sent < total; sent += each) {
                    s.getOutputStream().write(new byte[Math.min(each, total - sent)]);
                    s.getOutputStream().flush();
                    Thread.sleep(everyMs);
                }
            } catch (IOException | InterruptedException e) {
                stopped.set(e);
            }
        }, "trickle");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aBodyThatTricklesBelowTheMinimumRate_isAnswered408_itsSinkAborted_andTheConnectionClosed() throws Exception {
        try (Socket s = connect()) {
            long start = System.nanoTime();
            s.getOutputStream().write("PUT /up HTTP/1.1\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // 1 byte per 50 ms is 20 bytes/s, far below 1000 bytes/s; each alone keeps the connection from idling
            trickle(s, 1000, 1, 50, new AtomicReference<>());
            String answer = readAll(s.getInputStream()); // up to the close
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout\r\n"), answer);
            assertTrue(answer.contains("connection: close"), answer);
            assertTrue(answer.contains("request body too slow: the request body came slower than 1000 bytes/s after a grace of 200 ms"),
                    answer);
            // never before the grace plus what the bytes bought; well before the body could have ended (50 s)
            assertTrue(tookMs >= GRACE_MS && tookMs < 5_000, "cut after " + tookMs + " ms");
        }
        assertTrue(aborted.await(5, TimeUnit.SECONDS), "the sink hears that the body was given up");
        assertFalse(ended.get());
        assertTrue(received.get() < 100, "received " + received.get());
        assertEquals(1L, refusals.counts().get(HttpRefusals.BODY_TIMEOUT));
        assertEquals(0L, refusals.counts().get("http_malformed"));
    }

    @Test
    void aRoute_saysHowASlowBodyIsAnswered_andItIsCountedAsABodyTimeoutNotByItsStatus() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /custom HTTP/1.1\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            trickle(s, 1000, 1, 50, new AtomicReference<>());
            String answer = readAll(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(answer.contains("custom: the request body came slower than 1000 bytes/s"), answer);
        }
        assertTrue(aborted.await(5, TimeUnit.SECONDS));
        assertEquals(1L, refusals.counts().get(HttpRefusals.BODY_TIMEOUT));
        assertEquals(0L, refusals.counts().get("http_malformed"));
    }

    @Test
    void aBodyAboveTheMinimumRate_takesLongerThanTheGrace_andIsServed() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /up HTTP/1.1\r\nContent-Length: 4000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            AtomicReference<Exception> stopped = new AtomicReference<>();
            // 200 bytes per 50 ms: about 4000 bytes/s, for about 1 s (five times the grace)
            trickle(s, 4000, 200, 50, stopped).join(10_000);
            assertEquals(null, stopped.get());
            assertEquals("HTTP/1.1 200", read(s.getInputStream(), 12));
        }
        assertTrue(ended.get());
        assertEquals(4000, received.get());
        assertEquals(0L, refusals.counts().get(HttpRefusals.BODY_TIMEOUT));
    }

    @Test
    void aClientWaitingFor100Continue_isTimedFromTheContinue_notWhileTheRouteHoldsItBack() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /late HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", read(s.getInputStream(), 25));
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMs >= 3 * GRACE_MS, "the route held the client back for " + waitedMs + " ms");
            s.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 200", read(s.getInputStream(), 12));
        }
        assertTrue(ended.get());
        assertEquals(0L, refusals.counts().get(HttpRefusals.BODY_TIMEOUT));
    }

    @Test
    void aMalformedHead_isAnsweredByItsRoute_whenTheRouteSaysHow_elseAsText_andTheConnectionCloses() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /own/k HTTP/1.1\r\nContent-Length: abc\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = readAll(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(answer.contains("content-type: application/xml"), answer);
            assertTrue(answer.endsWith("<Error>Content-Length value is not a number: abc</Error>"), answer);
        }
        try (Socket s = connect()) {
            s.getOutputStream().write("PUT /up HTTP/1.1\r\nContent-Length: abc\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = readAll(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(answer.endsWith("bad request: Content-Length value is not a number: abc\n"), answer);
        }
        assertEquals(2L, refusals.counts().get("http_malformed"));
    }
}
