package geoblocks.node.s3;

import geoblocks.blockstore.component.GatewayNames;
import geoblocks.blockstore.core.Manifest;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * How S3 names map to geoblocks file names, and which names are valid. A bucket name follows S3's
 * rules (3..63 characters of a-z, 0-9, '.', '-', starting and ending with a letter or digit, not an
 * IPv4 address). An object is the file {@code bucket/key}; its key must not be empty, must not hold
 * control characters, a backslash, or a {@code .} or {@code ..} path segment (path traversal), and it
 * holds at most {@value #MAX_KEY_BYTES} UTF-8 bytes (S3's limit), so that under any valid bucket name
 * the file name fits geoblocks' limit of {@value #MAX_FILE_NAME_BYTES} bytes. A bucket's own record is
 * the file {@code .s3-buckets/NAME}: no bucket name starts with a dot, so it never collides with an
 * object.
 */
public final class S3Names {
    /** S3's longest key, in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;
    /** Longest bucket name. */
    public static final int MAX_BUCKET_BYTES = 63;
    /** Longest file name an object takes: the longest bucket, '/', the longest key (= Manifest.MAX_NAME_BYTES). */
    public static final int MAX_FILE_NAME_BYTES = MAX_BUCKET_BYTES + 1 + MAX_KEY_BYTES;

    static {
        if (MAX_FILE_NAME_BYTES > Manifest.MAX_NAME_BYTES) {
            throw new AssertionError("an S3 object's file name may not fit a geoblocks file name");
        }
    }
    public static final String BUCKETS_PREFIX = ".s3-buckets/";
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private S3Names() {}

    /** Null when {@code bucket} is a valid bucket name, else why not. */
    public static String bucketProblem(String bucket) {
        if (!BUCKET.matcher(bucket).matches() || bucket.contains("..") || bucket.contains(".-") || bucket.contains("-.")
                || IPV4.matcher(bucket).matches()) {
            return "bucket name '" + bucket + "' must be 3..63 characters of a-z, 0-9, '.', '-', start and end with a"
                    + " letter or digit, have no '..', '.-' or '-.' (each dot-separated part is a DNS label, as"
                    + " virtual-hosted addressing needs), and not look like an IP address";
        }
        return null;
    }

    /** Null when {@code key} is a valid object key in {@code bucket}, else the error (and why, in the exception text). */
    public static S3Exception keyProblem(String bucket, String key) {
        if (key.isEmpty()) {
            return new S3Exception(S3Error.INVALID_ARGUMENT, "the object key must not be empty");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return new S3Exception(S3Error.INVALID_ARGUMENT,
                        "object key must not contain control characters or '\\' (character " + i + ")");
            }
        }
        for (String seg : key.split("/", -1)) {
            if (seg.equals(".") || seg.equals("..")) {
                return new S3Exception(S3Error.INVALID_ARGUMENT,
                        "object key must not contain '.' or '..' path segments (path traversal): '" + key + "'");
            }
        }
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            return new S3Exception(S3Error.KEY_TOO_LONG, "the object key takes " + bytes + " UTF-8 bytes; keys hold at most "
                    + MAX_KEY_BYTES + " (S3's limit)");
        }
        return null;
    }

    /**
     * The file names the gateway keeps, which no file-protocol client by access key reaches: every dotted name
     * ({@code .s3-buckets/}, {@code .s3-keys/}, {@code .admin/}, ...), and every name whose part before its first
     * '/' is a valid bucket name (an object of that bucket, or one it may hold once it is made). A name with no '/',
     * or whose first part no bucket may have (upper case, '_', ...), is never the gateway's.
     */
    public static final GatewayNames GATEWAY = new GatewayNames() {
        @Override
        public boolean holds(String name) {
            int slash = name.indexOf('/');
            return name.startsWith(".") || slash > 0 && bucketProblem(name.substring(0, slash)) == null;
        }

        @Override
        public boolean mayHoldUnder(String prefix) {
            int slash = prefix.indexOf('/');
            if (prefix.isEmpty() || prefix.startsWith(".")) {
                return true;
            }
            if (slash >= 0) {
                return holds(prefix);
            }
            // every name under it starts a bucket name, or could, until a character no bucket name holds
            return prefix.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-');
        }
    };

    public static String fileName(String bucket, String key) {
        return bucket + "/" + key;
    }

    public static String bucketFile(String bucket) {
        return BUCKETS_PREFIX + bucket;
    }

    /** The bucket a {@link #bucketFile} names, or null when {@code file} is not one. */
    public static String bucketOfRecord(String file) {
        return file.startsWith(BUCKETS_PREFIX) ? file.substring(BUCKETS_PREFIX.length()) : null;
    }
}
