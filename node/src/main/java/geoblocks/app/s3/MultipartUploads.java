package geoblocks.app.s3;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The multipart uploads in progress at one gateway: per upload id its bucket, key, start time and the
 * parts received (number 1..10000, size, ETag, the spool file holding its bytes; a part sent again
 * replaces the earlier one). Completing checks the client's part list the way S3 does: ascending part
 * numbers, each received with that ETag, every part but the last at least {@link #MIN_PART} bytes;
 * then it yields the parts in order and the multipart ETag. Uploads live in memory: a restart of the
 * node forgets them (their spool files are removed at start). Time is passed in. Thread-safe.
 */
public final class MultipartUploads {
    public static final long MIN_PART = 5L * 1024 * 1024;
    public static final int MAX_PARTS = 10_000;
    private final Supplier<String> ids;
    private final Map<String, Upload> uploads = new HashMap<>();

    /** One received part. */
    public record Part(int number, long size, String etag, Path file) {}

    /** An upload in progress. */
    public record Upload(String id, String bucket, String key, String contentType, long startedMillis,
            TreeMap<Integer, Part> parts) {}

    /** A completed upload's parts in order, its total size and ETag. */
    public record Completed(Upload upload, List<Part> parts, long size, String etag) {}

    /** {@code ids} makes unguessable, unique upload ids. */
    public MultipartUploads(Supplier<String> ids) {
        this.ids = ids;
    }

    public synchronized Upload create(String bucket, String key, String contentType, long nowMillis) {
        Upload u = new Upload(ids.get(), bucket, key, contentType, nowMillis, new TreeMap<>());
        uploads.put(u.id(), u);
        return u;
    }

    /** The upload {@code id} of {@code bucket}/{@code key}, or NoSuchUpload. */
    public synchronized Upload find(String id, String bucket, String key) throws S3Exception {
        Upload u = uploads.get(id);
        if (u == null || !u.bucket().equals(bucket) || !u.key().equals(key)) {
            throw new S3Exception(S3Error.NO_SUCH_UPLOAD, "no multipart upload '" + id + "' for " + bucket + "/" + key);
        }
        return u;
    }

    /** Checks a part number from the query (1..10000). */
    public static int partNumber(String value) throws S3Exception {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1 && n <= MAX_PARTS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "partNumber must be an integer 1.." + MAX_PARTS + ", was '" + value + "'");
    }

    /** Records {@code part} of upload {@code id}; returns the part it replaces (whose file the caller removes), or null. */
    public synchronized Part addPart(String id, Part part) throws S3Exception {
        Upload u = uploads.get(id);
        if (u == null) {
            throw new S3Exception(S3Error.NO_SUCH_UPLOAD, "multipart upload '" + id + "' was aborted or completed meanwhile");
        }
        return u.parts().put(part.number(), part);
    }

    /**
     * Checks the client's list ({@code numbers} and {@code etags}, in its order) against upload {@code id}
     * and removes the upload; on a refusal the upload stays as it was.
     */
    public synchronized Completed complete(String id, String bucket, String key, List<Integer> numbers, List<String> etags)
            throws S3Exception {
        Upload u = find(id, bucket, key);
        if (numbers.isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML, "CompleteMultipartUpload lists no parts");
        }
        List<Part> parts = new ArrayList<>();
        List<String> partEtags = new ArrayList<>();
        long size = 0;
        for (int i = 1; i < numbers.size(); i++) {
            if (numbers.get(i) <= numbers.get(i - 1)) {
                throw new S3Exception(S3Error.INVALID_PART_ORDER, "part " + numbers.get(i) + " follows part " + numbers.get(i - 1));
            }
        }
        for (int i = 0; i < numbers.size(); i++) {
            int n = numbers.get(i);
            Part p = u.parts().get(n);
            if (p == null || !p.etag().equals(ETags.unquote(etags.get(i)))) {
                throw new S3Exception(S3Error.INVALID_PART, "part " + n + " with ETag " + etags.get(i) + " was not uploaded");
            }
            if (i < numbers.size() - 1 && p.size() < MIN_PART) {
                throw new S3Exception(S3Error.ENTITY_TOO_SMALL, "part " + n + " has " + p.size()
                        + " bytes; every part but the last needs at least " + MIN_PART);
            }
            parts.add(p);
            partEtags.add(p.etag());
            size += p.size();
        }
        uploads.remove(id);
        return new Completed(u, parts, size, ETags.multipart(partEtags));
    }

    /** Removes upload {@code id}; returns its parts (whose files the caller removes). */
    public synchronized List<Part> abort(String id, String bucket, String key) throws S3Exception {
        Upload u = find(id, bucket, key);
        uploads.remove(id);
        return new ArrayList<>(u.parts().values());
    }

    /** Removes uploads started before {@code cutoffMillis}; returns their parts. */
    public synchronized List<Part> expire(long cutoffMillis) {
        List<Part> gone = new ArrayList<>();
        uploads.values().removeIf(u -> {
            if (u.startedMillis() < cutoffMillis) {
                gone.addAll(u.parts().values());
                return true;
            }
            return false;
        });
        return gone;
    }

    public synchronized int size() {
        return uploads.size();
    }

    /** Parts of every upload in progress, for listing (a copy). */
    public synchronized Map<String, Upload> snapshot() {
        return new HashMap<>(uploads);
    }
}
