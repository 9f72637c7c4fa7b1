package geoblocks.node.s3.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.http.TestExchanges;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.auth.SigV4;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The small request bodies the gateway reads whole (policies, ACLs, lifecycle, DeleteObjects, ...). */
class SmallBodyTest {
    static final byte[] POLICY = "{\"Statement\":[]}".getBytes(StandardCharsets.UTF_8);

    /** Feeds {@code body} to a SmallBody of a call whose signature covers {@code payloadHash}; what reached the route. */
    static byte[] feed(EmbeddedChannel ch, String payloadHash, byte[] body) throws Exception {
        S3Call call = new S3Call(TestExchanges.of(ch, new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.PUT,
                "/b?policy")), "b", null, Map.of(), "r1");
        call.payloadHash = payloadHash;
        AtomicReference<byte[]> got = new AtomicReference<>();
        SmallBody sink = new SmallBody(call, got::set);
        sink.onChunk(Unpooled.wrappedBuffer(body));
        sink.onEnd();
        return got.get();
    }

    static String sha256(byte[] b) {
        return HexFormat.of().formatHex(SigV4.SHA256.get().digest(b));
    }

    @Test
    void aBodyMatchingItsSignedHash_reachesTheRoute() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertEquals(new String(POLICY, StandardCharsets.UTF_8),
                new String(feed(ch, sha256(POLICY), POLICY), StandardCharsets.UTF_8));
        assertNull(ch.readOutbound(), "nothing answered yet: the route answers");
    }

    @Test
    void aReplayedSignedRequest_withAnotherBody_isRefused_beforeTheRouteSeesIt() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel();
        byte[] other = "{\"Statement\":[{\"Effect\":\"Allow\"}]}".getBytes(StandardCharsets.UTF_8);
        assertNull(feed(ch, sha256(POLICY), other));
        FullHttpResponse r = ch.readOutbound();
        assertEquals(400, r.status().code());
        assertTrue(r.content().toString(StandardCharsets.UTF_8).contains("<Code>XAmzContentSHA256Mismatch</Code>"),
                r.content().toString(StandardCharsets.UTF_8));
        r.release();
    }

    @Test
    void anUnsignedPayload_isTakenAsItCame() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertEquals(POLICY.length, feed(ch, SigV4.UNSIGNED, POLICY).length);
        assertEquals(POLICY.length, feed(new EmbeddedChannel(), null, POLICY).length); // anonymous
    }
}
