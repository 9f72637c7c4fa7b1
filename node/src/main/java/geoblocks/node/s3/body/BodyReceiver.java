package geoblocks.node.s3.body;

import geoblocks.node.http.Exchange;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.auth.AwsChunked;
import geoblocks.node.s3.object.ChecksumRequest;
import geoblocks.node.s3.object.Checksums;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Receives the body of a PutObject or UploadPart: checks what the request announces, spools the body
 * ({@link BodySpool}) while the bucket is checked, and verifies it against Content-Length, Content-MD5
 * and the signed payload hash before handing it on.
 */
public final class BodyReceiver {
    /** Small PutObject bodies kept in memory at once (64 of 64 KiB, or 4,096 of 1 KiB). */
    static final long MEMORY_BODIES = 4L << 20;
    private final S3Settings settings;
    private final BodySpool.MemoryGrant memory = new BodySpool.MemoryGrant(MEMORY_BODIES);
    private final SpoolSpace space;

    public BodyReceiver(S3Settings settings, SpoolSpace space) {
        this.settings = settings;
        this.space = space;
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
            if (!MessageDigest.isEqual(want, spool.md5())) {
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
    static boolean signedPayload(S3Call call) {
        return call.payloadHash != null && call.payloadHash.length() == 64;
    }

    /**
     * Checks the announced body of a PutObject or UploadPart; returns its length (for an aws-chunked
     * body, {@code x-amz-decoded-content-length}: the object's, not the encoding's).
     */
    private long announced(S3Call call, AwsChunked.Mode chunked) throws S3Exception {
        long declared;
        if (chunked != null) {
            String decoded = call.headers().get("x-amz-decoded-content-length");
            try {
                declared = decoded == null ? -1 : Long.parseLong(decoded.trim());
            } catch (NumberFormatException e) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-decoded-content-length '" + decoded + "' is not a number");
            }
            if (declared < 0) {
                throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH, "an aws-chunked PUT needs an x-amz-decoded-content-length header");
            }
        } else {
            declared = HttpUtil.getContentLength(call.ex.request(), -1L);
            if (declared < 0) {
                throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH, "PUT needs a Content-Length header");
            }
        }
        if (declared > settings.maxObjectSize()) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE, declared + " bytes exceed the gateway's limit of "
                    + settings.maxObjectSize());
        }
        return declared;
    }

    /** The request's headers by lower-case name (repeated ones joined with ','). */
    public static Map<String, String> headerMap(S3Call call) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : call.headers()) {
            out.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b);
        }
        return out;
    }

    /**
     * Receives a body into a spool while the bucket (and for a part, the upload) is checked; the client
     * that expects 100-continue is told to send only when the checks pass. {@code then} runs on the
     * event loop with both. {@code inMemory}: whether a small body may stay in memory (a PutObject, used
     * within the request) rather than a file (a part, kept until the upload completes).
     */
    public void receive(S3Call call, CompletableFuture<BucketMeta> check, boolean inMemory,
            BiConsumer<BucketMeta, BodySpool> then) {
        receive(call, check, inMemory, null, then);
    }

    /**
     * As above, for a part of a multipart upload created with checksum algorithm {@code upload} (or
     * null): the body's additional checksum ({@link ChecksumRequest}) is computed on the way and checked
     * against the value sent in a header or an aws-chunked trailer; an aws-chunked body
     * ({@link AwsChunked}) is decoded as it streams, its chunk signatures checked.
     */
    public void receive(S3Call call, CompletableFuture<BucketMeta> check, boolean inMemory,
            Checksums.Algorithm upload, BiConsumer<BucketMeta, BodySpool> then) {
        long declared;
        BodySpool spool;
        Object[] state = new Object[2]; // [0] bucket when checked, [1] spool when ended
        ChunkedSink chunked = null;
        ChecksumRequest checksum;
        try {
            AwsChunked.Mode mode = AwsChunked.mode(call.payloadHash);
            checksum = ChecksumRequest.of(headerMap(call), mode != null && mode.trailer, upload);
            declared = announced(call, mode);
            ChecksumRequest wanted = checksum;
            ChunkedSink[] sink = new ChunkedSink[1];
            spool = new BodySpool(settings, declared, signedPayload(call), inMemory ? memory : null, space, s -> {
                state[1] = s;
                if (state[0] != null) {
                    ready(call, (BucketMeta) state[0], s, declared, wanted, sink[0], then);
                }
            });
            spool.checksum(checksum.algorithm());
            if (mode != null) {
                // on an encoding error the sink answers at once and drops the rest of the body itself
                chunked = new ChunkedSink(new AwsChunked(mode, mode.signed() ? call.chunkSeed : null, declared), spool,
                        call::fail);
                sink[0] = chunked;
            }
        } catch (S3Exception e) {
            call.fail(e);
            return;
        } catch (BodySpool.SpoolFull e) {
            call.fail(e.error());
            return;
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        ChunkedSink decoder = chunked;
        ChecksumRequest wanted = checksum;
        call.ex.onBody(chunked != null ? chunked : spool);
        check.whenComplete((m, t) -> call.later(() -> {
            if (call.ex.answered()) {
                spool.discard(); // the body was refused already (e.g. a bad aws-chunked signature)
                return;
            }
            if (t != null) {
                spool.discard();
                call.ex.onBody(null); // the rest of the body, if it comes, is read and dropped
                call.fail(t);
                return;
            }
            state[0] = m;
            call.ex.sendContinue();
            if (state[1] != null) {
                ready(call, m, spool, declared, wanted, decoder, then);
            }
        }));
    }

    private static void ready(S3Call call, BucketMeta m, BodySpool spool, long declared, ChecksumRequest checksum,
            ChunkedSink chunked, BiConsumer<BucketMeta, BodySpool> then) {
        try {
            verify(call, spool, declared);
            checksum.verify(spool.checksumValue(), chunked == null ? null : chunked.trailers);
        } catch (S3Exception e) {
            spool.discard();
            call.fail(e);
            return;
        }
        then.accept(m, spool);
    }

    /** An aws-chunked body: decoded as it streams into the spool; an encoding error answers at once. */
    static final class ChunkedSink implements Exchange.BodySink {
        private final AwsChunked decoder;
        private final BodySpool spool;
        private final Consumer<S3Exception> onError;
        private boolean failed;
        Map<String, String> trailers;

        ChunkedSink(AwsChunked decoder, BodySpool spool, Consumer<S3Exception> onError) {
            this.decoder = decoder;
            this.spool = spool;
            this.onError = onError;
        }

        @Override
        public void onChunk(ByteBuf chunk) throws Exception {
            if (failed) {
                return;
            }
            try {
                decoder.feed(chunk.nioBuffer(), b -> spool.onChunk(Unpooled.wrappedBuffer(b)));
            } catch (S3Exception e) {
                failed(e);
            }
        }

        @Override
        public void onEnd() throws Exception {
            if (failed) {
                return;
            }
            try {
                trailers = decoder.finish();
            } catch (S3Exception e) {
                failed(e);
                return;
            }
            spool.onEnd();
        }

        private void failed(S3Exception e) {
            failed = true;
            spool.discard();
            onError.accept(e);
        }

        @Override
        public void onAbort() {
            spool.onAbort();
        }
    }
}
