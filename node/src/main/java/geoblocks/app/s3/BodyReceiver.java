package geoblocks.app.s3;

import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.util.Base64;

/**
 * Receives the body of a PutObject or UploadPart: checks what the request announces, spools the body
 * ({@link BodySpool}) while the bucket is checked, and verifies it against Content-Length, Content-MD5
 * and the signed payload hash before handing it on.
 */
final class BodyReceiver {
    /** Small PutObject bodies kept in memory at once (64 of 64 KiB, or 4,096 of 1 KiB). */
    static final long MEMORY_BODIES = 4L << 20;
    private final S3Settings settings;
    private final BodySpool.MemoryGrant memory = new BodySpool.MemoryGrant(MEMORY_BODIES);

    BodyReceiver(S3Settings settings) {
        this.settings = settings;
    }

    /** A spooled body checked against Content-Length, Content-MD5 and the signed payload hash. */
    private static void verify(S3Call call, BodySpool spool, long declared) throws S3Exception {
        if (spool.size() != declared) {
            throw new S3Exception(S3Error.INCOMPLETE_BODY, "received " + spool.size() + " bytes, Content-Length was " + declared);
        }
        String md5 = call.headers().get("Content-MD5");
        if (md5 != null) {
            byte[] want;
            try {
                want = Base64.getDecoder().decode(md5.trim());
            } catch (IllegalArgumentException e) {
                want = new byte[0];
            }
            if (want.length != 16) {
                throw new S3Exception(S3Error.INVALID_DIGEST, "Content-MD5 must be the base64 of 16 bytes, was '" + md5 + "'");
            }
            if (!java.security.MessageDigest.isEqual(want, spool.md5())) {
                throw new S3Exception(S3Error.BAD_DIGEST, "Content-MD5 " + md5 + " does not match the body's MD5 "
                        + Base64.getEncoder().encodeToString(spool.md5()));
            }
        }
        String hash = call.payloadHash;
        if (signedPayload(call) && !hash.equalsIgnoreCase(spool.sha256Hex())) {
            throw new S3Exception(S3Error.SHA256_MISMATCH, "x-amz-content-sha256 " + hash + " does not match the body's "
                    + spool.sha256Hex());
        }
    }

    /** Whether the request signs a payload hash (not UNSIGNED-PAYLOAD) that the body must match. */
    private static boolean signedPayload(S3Call call) {
        return call.payloadHash != null && call.payloadHash.length() == 64;
    }

    /** Checks the announced body of a PutObject or UploadPart; returns its length. */
    private long announced(S3Call call) throws S3Exception {
        if (call.payloadHash != null && call.payloadHash.startsWith("STREAMING-")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "aws-chunked payloads (" + call.payloadHash
                    + ") are not supported: sign the payload or send UNSIGNED-PAYLOAD");
        }
        long declared = HttpUtil.getContentLength(call.ex.request(), -1L);
        if (declared < 0) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH, "PUT needs a Content-Length header");
        }
        if (declared > settings.maxObjectSize()) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE, declared + " bytes exceed the gateway's limit of "
                    + settings.maxObjectSize());
        }
        return declared;
    }

    /**
     * Receives a body into a spool while the bucket (and for a part, the upload) is checked; the client
     * that expects 100-continue is told to send only when the checks pass. {@code then} runs on the
     * event loop with both. {@code inMemory}: whether a small body may stay in memory (a PutObject, used
     * within the request) rather than a file (a part, kept until the upload completes).
     */
    void receive(S3Call call, java.util.concurrent.CompletableFuture<BucketMeta> check, boolean inMemory,
            java.util.function.BiConsumer<BucketMeta, BodySpool> then) {
        long declared;
        BodySpool spool;
        Object[] state = new Object[2]; // [0] bucket when checked, [1] spool when ended
        try {
            declared = announced(call);
            spool = new BodySpool(settings, declared, signedPayload(call), inMemory ? memory : null, s -> {
                state[1] = s;
                if (state[0] != null) {
                    ready(call, (BucketMeta) state[0], s, declared, then);
                }
            });
        } catch (S3Exception e) {
            call.fail(e);
            return;
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        call.ex.onBody(spool);
        check.whenComplete((m, t) -> call.later(() -> {
            if (t != null) {
                spool.discard();
                call.ex.onBody(null); // the rest of the body, if it comes, is read and dropped
                call.fail(t);
                return;
            }
            state[0] = m;
            call.ex.sendContinue();
            if (state[1] != null) {
                ready(call, m, spool, declared, then);
            }
        }));
    }

    private static void ready(S3Call call, BucketMeta m, BodySpool spool, long declared,
            java.util.function.BiConsumer<BucketMeta, BodySpool> then) {
        try {
            verify(call, spool, declared);
        } catch (S3Exception e) {
            spool.discard();
            call.fail(e);
            return;
        }
        then.accept(m, spool);
    }
}
