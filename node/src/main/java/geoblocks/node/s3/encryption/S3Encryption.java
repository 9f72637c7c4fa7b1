package geoblocks.node.s3.encryption;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.bucket.BucketDocument;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.w3c.dom.Element;

/**
 * Server-side encryption at the gateway (docs/s3.md "Encryption at rest"): which key a new object is
 * encrypted with ({@link #plan}: the request's SSE-C key, SSE-S3 asked or the bucket's default, or none),
 * which key opens a stored one ({@link #readKey}, refusing a missing or wrong SSE-C key with 400 before
 * any data is read), the SSE answer headers, and Put/Get/DeleteBucketEncryption. The bytes are
 * encrypted before they enter the node and decrypted after they leave it ({@link SseStreams}), so
 * every replica, wherever it is stored, holds ciphertext only.
 */
public final class S3Encryption {
    private final S3Settings.Sse config;
    private final S3Buckets buckets;
    private final SecureRandom random = new SecureRandom();

    /** How a new object is encrypted: its parameters (kept in its metadata) and its data key (never kept). */
    public record Plan(SseParams params, byte[] dataKey) {
        public SseCipher cipher() {
            return new SseCipher(dataKey);
        }

        public boolean customer() {
            return params.mode() == SseParams.Mode.C;
        }

        /** The ETag the object shows for the plaintext's ETag: keyed for SSE-C ({@link SseParams#keyedEtag}). */
        public String etag(String plainEtag) {
            return customer() ? SseParams.keyedEtag(plainEtag, dataKey) : plainEtag;
        }

        @Override
        public String toString() {
            return "Plan[" + params + "]"; // never the key
        }
    }

    public S3Encryption(S3Settings.Sse config, S3Buckets buckets) {
        this.config = config;
        this.buckets = buckets;
    }

    static Function<String, String> headers(S3Call call) {
        return n -> call.headers().get(n);
    }

    /** What a write asks (the request's SSE headers), checked, HTTPS required for an SSE-C key. */
    public SseRequest writeRequest(S3Call call) throws S3Exception {
        SseRequest r = SseRequest.write(headers(call));
        requireSecure(call, r);
        if (r.kind() == SseRequest.Kind.S3 && !config.keys().configured()) {
            throw notConfigured();
        }
        return r;
    }

    /** What a read sends (an SSE-C key or none), checked, HTTPS required for an SSE-C key. */
    public SseRequest readRequest(S3Call call) throws S3Exception {
        SseRequest r = SseRequest.read(headers(call));
        requireSecure(call, r);
        return r;
    }

    /** A copy's source key ({@code x-amz-copy-source-server-side-encryption-customer-*}), checked. */
    public SseRequest copySourceRequest(S3Call call) throws S3Exception {
        SseRequest r = SseRequest.copySource(headers(call));
        requireSecure(call, r);
        return r;
    }

    private void requireSecure(S3Call call, SseRequest r) throws S3Exception {
        if (r.kind() == SseRequest.Kind.C && config.requireHttps()
                && call.ex.context().pipeline().get(SslHandler.class) == null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Requests specifying Server Side Encryption with Customer provided"
                    + " keys must be made over a secure connection (HTTPS; geoblocks.s3.sse.require-https)");
        }
    }

    private static S3Exception notConfigured() {
        return new S3Exception(S3Error.NOT_IMPLEMENTED, "SSE-S3 is not configured on this node: geoblocks.s3.sse.key-file"
                + " names no key file");
    }

    /** How a new object of {@code bucket} is encrypted for request {@code r}; null: stored unencrypted. */
    public Plan plan(SseRequest r, BucketMeta bucket) throws S3Exception {
        SseRequest.Kind kind = r.kind() == SseRequest.Kind.NONE && BucketMeta.SSE_S3.equals(bucket.encryption())
                ? SseRequest.Kind.S3 : r.kind();
        switch (kind) {
            case C -> {
                SseParams p = SseParams.newC(r.customerKey(), random);
                return new Plan(p, p.dataKey(r.customerKey()));
            }
            case S3 -> {
                if (!config.keys().configured()) {
                    throw notConfigured();
                }
                SseParams p = SseParams.newS3(config.keys().currentId(), random);
                return new Plan(p, p.dataKey(config.keys().key(p.keyId())));
            }
            default -> {
                return null;
            }
        }
    }

    /** The plan of an object written with parameters {@code p} chosen before (a multipart upload's, at Complete). */
    public Plan plan(SseParams p, SseRequest r) throws S3Exception {
        if (p.mode() == SseParams.Mode.C) {
            return new Plan(p, p.dataKey(r.customerKey()));
        }
        byte[] k = config.keys().key(p.keyId());
        if (k == null) {
            throw new S3Exception(S3Error.INTERNAL_ERROR, "SSE-S3 key '" + p.keyId() + "' is not in this node's key file");
        }
        return new Plan(p, p.dataKey(k));
    }

    /** New SSE parameters for a multipart upload begun with request {@code r} in {@code bucket}; null: unencrypted. */
    public SseParams uploadParams(SseRequest r, BucketMeta bucket) throws S3Exception {
        Plan p = plan(r, bucket);
        return p == null ? null : p.params();
    }

    /**
     * The SSE-C key an UploadPart, UploadPartCopy or CompleteMultipartUpload of an upload begun with
     * {@code p} (null: unencrypted) carries: an upload begun with a customer key needs that key on every
     * one of them (400 InvalidRequest without it or with another); one begun without refuses a key.
     */
    public SseRequest uploadRequest(S3Call call, SseParams p) throws S3Exception {
        byte[] key = SseRequest.customerKey(headers(call), SseRequest.CUSTOMER);
        SseRequest r = key == null ? SseRequest.NONE : new SseRequest(SseRequest.Kind.C, key, SseRequest.md5(key));
        requireSecure(call, r);
        boolean customer = p != null && p.mode() == SseParams.Mode.C;
        if (customer && key == null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "this multipart upload is encrypted with a customer key: every"
                    + " part and the Complete must carry it (" + SseRequest.CUSTOMER + "algorithm, key, key-md5)");
        }
        if (customer && !p.keyMatches(key)) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "the customer key is not the one this multipart upload was begun with");
        }
        if (!customer && key != null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "this multipart upload was not begun with a customer key");
        }
        return r;
    }

    /**
     * The data key that opens an object whose version metadata is {@code meta}, for a request that sent
     * {@code r}: null for an object stored unencrypted. An SSE-C object needs its key (400
     * InvalidRequest without it or with another one); an SSE-C key for an object not stored with one is
     * InvalidRequest too.
     */
    public byte[] readKey(Map<String, String> meta, SseRequest r, boolean copySource) throws S3Exception {
        SseParams p;
        try {
            p = SseParams.of(meta);
        } catch (IOException e) {
            throw new S3Exception(S3Error.INTERNAL_ERROR, e.getMessage());
        }
        String what = copySource ? "copy source" : "object";
        if (p == null) {
            if (r.kind() == SseRequest.Kind.C) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The encryption parameters are not applicable to this " + what
                        + ": it is not stored with a customer key");
            }
            return null;
        }
        if (p.mode() == SseParams.Mode.C) {
            if (r.kind() != SseRequest.Kind.C) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The " + what + " was stored using a form of Server Side"
                        + " Encryption. The correct parameters must be provided to retrieve the object ("
                        + (copySource ? SseRequest.COPY_CUSTOMER : SseRequest.CUSTOMER) + "algorithm, key, key-md5)");
            }
            if (!p.keyMatches(r.customerKey())) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The provided customer key is not the key the " + what
                        + " was encrypted with");
            }
            return p.dataKey(r.customerKey());
        }
        if (r.kind() == SseRequest.Kind.C) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The encryption parameters are not applicable to this " + what
                    + ": it is stored with SSE-S3");
        }
        return plan(p, r).dataKey();
    }

    /** The SSE headers of an answer about an object stored with {@code p} (null: none), for a request that sent {@code r}. */
    public static void answer(S3Call call, SseParams p, SseRequest r) {
        if (p == null) {
            return;
        }
        if (p.mode() == SseParams.Mode.S3) {
            call.ex.header(SseRequest.SSE, "AES256");
        } else {
            call.ex.header(SseRequest.CUSTOMER + "algorithm", "AES256");
            if (r != null && r.customerKeyMd5() != null) {
                call.ex.header(SseRequest.CUSTOMER + "key-md5", r.customerKeyMd5());
            }
        }
    }

    /** The SSE parameters kept in {@code meta}, or null (unencrypted, or damaged: reads then fail on their own). */
    public static SseParams params(Map<String, String> meta) {
        try {
            return SseParams.of(meta);
        } catch (IOException e) {
            return null;
        }
    }

    /** The plaintext size of a version stored as {@code stored} bytes with metadata {@code meta} (listings, attributes). */
    public static long plainSize(Map<String, String> meta, long stored) {
        if (meta == null || !meta.containsKey(SseParams.META)) {
            return stored;
        }
        try {
            return SseCipher.plainSize(stored);
        } catch (IOException e) {
            return stored;
        }
    }

    /**
     * Put/Get/DeleteBucketEncryption: SSE-S3 ({@code AES256}, {@link BucketMeta#SSE_S3}) as the bucket's default, a line
     * of its record (SSE-KMS is NotImplemented; none: 404 ServerSideEncryptionConfigurationNotFoundError).
     */
    public BucketDocument<String> document() {
        return new BucketDocument<>("default encryption", S3Error.NO_SUCH_ENCRYPTION_CONFIGURATION, (body, bucket) -> {
            parseConfiguration(body);
            if (!config.keys().configured()) {
                throw notConfigured();
            }
            return BucketMeta.SSE_S3;
        }, BucketDocument.Check.none(), e -> (S3Xml.HEAD + "<ServerSideEncryptionConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                        + "<Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm>"
                        + "</ApplyServerSideEncryptionByDefault><BucketKeyEnabled>false</BucketKeyEnabled></Rule>"
                        + "</ServerSideEncryptionConfiguration>").getBytes(StandardCharsets.UTF_8), BucketDocument.XML,
                BucketDocument.Storage.of(b -> CompletableFuture.completedFuture(b.encryption()),
                        (b, e, body) -> Objects.equals(b.encryption(), e) ? CompletableFuture.completedFuture(b)
                                : buckets.update(b.withEncryption(e))), 200);
    }

    /** Checks a {@code ServerSideEncryptionConfiguration}: one rule whose default algorithm is AES256. */
    static void parseConfiguration(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "ServerSideEncryptionConfiguration");
        String algorithm = null;
        int rules = 0;
        for (Element rule : S3Xml.children(root)) {
            if (!rule.getLocalName().equals("Rule")) {
                continue;
            }
            rules++;
            for (Element e : S3Xml.children(rule)) {
                if (e.getLocalName().equals("ApplyServerSideEncryptionByDefault")) {
                    for (Element a : S3Xml.children(e)) {
                        if (a.getLocalName().equals("SSEAlgorithm")) {
                            algorithm = a.getTextContent().trim();
                        }
                    }
                }
            }
        }
        if (rules != 1 || algorithm == null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a ServerSideEncryptionConfiguration has one Rule with"
                    + " ApplyServerSideEncryptionByDefault/SSEAlgorithm");
        }
        if (algorithm.startsWith("aws:kms")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "SSE-KMS (" + algorithm + ") is not supported: use AES256 (SSE-S3)");
        }
        if (!algorithm.equals("AES256")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "SSEAlgorithm '" + algorithm + "' is not AES256");
        }
    }
}
