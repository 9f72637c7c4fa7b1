package geoblocks.node.s3.encryption;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.ETags;
import java.util.Base64;
import java.util.function.Function;

/**
 * What a request's server-side encryption headers ask, checked as S3 checks them. For a write:
 * {@code x-amz-server-side-encryption: AES256} (SSE-S3) or the three SSE-C headers
 * {@code x-amz-server-side-encryption-customer-algorithm: AES256}, {@code -customer-key} (base64 of 32
 * bytes) and {@code -customer-key-md5} (base64 of the key's MD5). A copy's source key comes in the
 * same three headers under {@code x-amz-copy-source-server-side-encryption-customer-}. SSE-KMS
 * ({@code aws:kms}, {@code aws:kms:dsse}) is NotImplemented; both SSE-S3 and SSE-C, another value, a
 * KMS key id without {@code aws:kms}, a missing or malformed key or MD5, or an MD5 that is not the key's
 * are InvalidArgument; an algorithm other than AES256 is InvalidEncryptionAlgorithmError. Pure.
 */
public record SseRequest(Kind kind, byte[] customerKey, String customerKeyMd5) {
    public enum Kind { NONE, S3, C }
    static final SseRequest NONE = new SseRequest(Kind.NONE, null, null);
    static final String SSE = "x-amz-server-side-encryption";
    static final String CUSTOMER = "x-amz-server-side-encryption-customer-";
    static final String COPY_CUSTOMER = "x-amz-copy-source-server-side-encryption-customer-";

    /** What a PutObject, CreateMultipartUpload, CopyObject's destination, UploadPart or Complete asks. */
    public static SseRequest write(Function<String, String> headers) throws S3Exception {
        String sse = trimmed(headers.apply(SSE));
        byte[] key = customerKey(headers, CUSTOMER);
        if (sse != null && (sse.equals("aws:kms") || sse.equals("aws:kms:dsse"))) {
            if (key != null) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "SSE-KMS and SSE-C (a customer key) cannot both be asked");
            }
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "SSE-KMS (x-amz-server-side-encryption: " + sse
                    + ") is not supported: use SSE-S3 (AES256) or SSE-C");
        }
        if (headers.apply(SSE + "-aws-kms-key-id") != null || headers.apply(SSE + "-context") != null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-server-side-encryption-aws-kms-key-id and -context"
                    + " go only with x-amz-server-side-encryption: aws:kms");
        }
        if (sse != null && !sse.equals("AES256")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-server-side-encryption '" + sse
                    + "' is not supported: the value is AES256 (SSE-S3)");
        }
        if (sse != null && key != null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "SSE-S3 (x-amz-server-side-encryption) and SSE-C (a customer key)"
                    + " cannot both be asked");
        }
        if (key != null) {
            return new SseRequest(Kind.C, key, md5(key));
        }
        return sse != null ? new SseRequest(Kind.S3, null, null) : NONE;
    }

    /**
     * What a GetObject, HeadObject or GetObjectAttributes sends: an SSE-C key, or none. Asking for
     * SSE-S3 on a read ({@code x-amz-server-side-encryption}) is InvalidArgument, as S3 answers.
     */
    static SseRequest read(Function<String, String> headers) throws S3Exception {
        if (headers.apply(SSE) != null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-server-side-encryption is not sent on a read: an SSE-S3 object"
                    + " is decrypted without it");
        }
        byte[] key = customerKey(headers, CUSTOMER);
        return key == null ? NONE : new SseRequest(Kind.C, key, md5(key));
    }

    /** The copy source's SSE-C key ({@code x-amz-copy-source-server-side-encryption-customer-*}), or NONE. */
    static SseRequest copySource(Function<String, String> headers) throws S3Exception {
        byte[] key = customerKey(headers, COPY_CUSTOMER);
        return key == null ? NONE : new SseRequest(Kind.C, key, md5(key));
    }

    /**
     * The customer key in the three headers under {@code prefix}, checked; null when none of them is
     * sent.
     */
    static byte[] customerKey(Function<String, String> headers, String prefix) throws S3Exception {
        String alg = trimmed(headers.apply(prefix + "algorithm"));
        String key = trimmed(headers.apply(prefix + "key"));
        String md5 = trimmed(headers.apply(prefix + "key-md5"));
        if (alg == null && key == null && md5 == null) {
            return null;
        }
        if (alg == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Requests specifying Server Side Encryption with Customer provided"
                    + " keys must provide a valid encryption algorithm (" + prefix + "algorithm: AES256)");
        }
        if (!alg.equals("AES256")) {
            throw new S3Exception(S3Error.INVALID_ENCRYPTION_ALGORITHM, prefix + "algorithm '" + alg + "' is not AES256");
        }
        if (key == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Requests specifying Server Side Encryption with Customer provided"
                    + " keys must provide an appropriate secret key (" + prefix + "key)");
        }
        if (md5 == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Requests specifying Server Side Encryption with Customer provided"
                    + " keys must provide the client calculated MD5 of the secret key (" + prefix + "key-md5)");
        }
        byte[] k;
        try {
            k = Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, prefix + "key is not base64");
        }
        if (k.length != 32) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "The secret key was invalid for the specified algorithm: an AES256"
                    + " key has 32 bytes, " + prefix + "key has " + k.length);
        }
        if (!md5(k).equals(md5)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "The calculated MD5 hash of the key did not match the hash that was"
                    + " provided (" + prefix + "key-md5)");
        }
        return k;
    }

    /** Base64 of the key's MD5, as {@code x-amz-server-side-encryption-customer-key-md5} carries it. */
    static String md5(byte[] key) {
        return Base64.getEncoder().encodeToString(ETags.md5().digest(key));
    }

    private static String trimmed(String v) {
        return v == null ? null : v.trim();
    }

    @Override
    public String toString() {
        return "SseRequest[" + kind + (customerKeyMd5 == null ? "" : " key-md5=" + customerKeyMd5) + "]"; // never the key
    }
}
