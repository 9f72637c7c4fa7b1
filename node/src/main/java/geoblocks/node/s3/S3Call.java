package geoblocks.node.s3;

import geoblocks.node.http.Exchange;
import geoblocks.node.s3.access.S3Access;
import geoblocks.node.s3.auth.AwsChunked;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One S3 request being served: the exchange, the bucket and key from its path (null at the levels
 * above), its query, whether it was signed, and the answers every operation shares (XML, errors as
 * S3 error documents). Used on the connection's event loop; {@link #later} brings a completion from
 * another thread back there.
 */
public final class S3Call {
    private static final Logger LOG = LoggerFactory.getLogger(S3Call.class);
    /**
     * Retry-After of a 503 SlowDown: the node already kept the request waiting for memory up to
     * geoblocks.node.admission.wait, so a second is a polite pause, and SDKs add their own backoff.
     */
    static final long RETRY_AFTER_SECONDS = 1;
    public final Exchange ex;
    public final String bucket;
    public final String key;
    public final Map<String, List<String>> query;
    public final String requestId;
    /** The payload hash the signature covers (hex SHA-256, UNSIGNED-PAYLOAD), null for an anonymous request. */
    public String payloadHash;
    /** For a signed aws-chunked body: what its chunk signatures chain from (null otherwise). */
    public AwsChunked.Seed chunkSeed;
    /** The access key id that signed the request (its principal, see {@link S3Access}); null for an anonymous one. */
    public String requester;
    /** What the request is: its operation, or the error it is answered with ({@link S3Router#parse}). */
    S3Router.Route route;

    public S3Call(Exchange ex, String bucket, String key, Map<String, List<String>> query, String requestId) {
        this.ex = ex;
        this.bucket = bucket;
        this.key = key;
        this.query = query;
        this.requestId = requestId;
        ex.header("x-amz-request-id", requestId);
        // a body too slow for the server's bound (the server has aborted its sink: a spool is removed)
        ex.onBodyTimeout(why -> fail(S3Error.REQUEST_TIMEOUT, S3Error.REQUEST_TIMEOUT.message() + " (" + why + ")"));
    }

    public String method() {
        return ex.request().method().name();
    }

    public HttpHeaders headers() {
        return ex.request().headers();
    }

    public boolean has(String param) {
        return query.containsKey(param);
    }

    public String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    boolean anonymous() {
        return payloadHash == null;
    }

    public String resource() {
        return bucket == null ? "/" : key == null ? "/" + bucket : "/" + bucket + "/" + key;
    }

    public void xml(int status, byte[] body) {
        ex.respond(status, "application/xml", body);
    }

    public void empty(int status) {
        ex.respond(status, "application/xml", new byte[0]);
    }

    /** Runs {@code r} on the connection's event loop (from a Kompics thread, when a node request completes). */
    public void later(Runnable r) {
        ex.context().executor().execute(() -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                fail(e);
            }
        });
    }

    /** A completion handler for a node request: answers {@code status} with no body on the event loop, or the failure. */
    public <T> BiConsumer<T, Throwable> emptyWhenDone(int status) {
        return (x, t) -> later(() -> {
            if (t != null) {
                fail(t);
            } else {
                empty(status);
            }
        });
    }

    public void fail(S3Error e, String message) {
        fail(new S3Exception(e, message));
    }

    /** Answers with the S3 error a failure stands for; a node's refusal becomes the matching code. */
    /** As {@link #fail(Throwable)}, a name the node does not have being this call's key: NoSuchKey. */
    public void failObject(Throwable t) {
        fail(missingObject(t));
    }

    /** The failure {@code t} of a node request on this call's key: a name the node does not have is NoSuchKey. */
    public Throwable missingObject(Throwable t) {
        Throwable c = NodeStore.cause(t);
        if (c instanceof NodeStore.StoreException s && s.notFound()) {
            return new S3Exception(S3Error.NO_SUCH_KEY, "no object '" + key + "' in bucket '" + bucket + "'");
        }
        return c;
    }

    public void fail(Throwable t) {
        Throwable c = NodeStore.cause(t);
        S3Exception e;
        if (c instanceof S3Exception s) {
            e = s;
        } else if (c instanceof NodeStore.StoreException s) {
            e = new S3Exception(S3Error.forNode(s.code()), s.getMessage());
        } else {
            LOG.warn("S3 {} {} failed", method(), resource(), c);
            e = new S3Exception(S3Error.INTERNAL_ERROR, c.toString());
        }
        if (ex.answered()) {
            ex.context().close();
            return;
        }
        if (ex.expectsContinue()) {
            ex.closeAfterAnswer(); // the client may still send the body it announced: do not read it as a request
        }
        if (e.error() == S3Error.SLOW_DOWN) { // S3 itself sends none; it tells every client how long to back off
            ex.header("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
        }
        byte[] body = S3Xml.error(e.error(), e.getMessage(), resource(), requestId);
        if (method().equals("HEAD")) {
            ex.header("x-amz-error-code", e.error().code());
            ex.header("x-amz-error-message", e.getMessage().replaceAll("[\\r\\n]", " "));
        }
        ex.respond(e.error().status(), "application/xml", body);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
