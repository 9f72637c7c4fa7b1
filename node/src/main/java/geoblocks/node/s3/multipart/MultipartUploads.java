package geoblocks.node.s3.multipart;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

    /**
     * One received part: its additional checksum ({@code checksumAlgorithm}, raw {@code checksum})
     * when one was computed, else nulls; {@code addedMillis}: when it was received.
     */
    public record Part(int number, long size, String etag, Path file, Checksums.Algorithm checksumAlgorithm,
            byte[] checksum, long addedMillis) {
        public Part(int number, long size, String etag, Path file) {
            this(number, size, etag, file, null, null, 0L);
        }
    }

    /**
     * An upload in progress; {@code checksum}/{@code checksumType}: the algorithm and type it was created with, or null;
     * {@code initiator}: the key id that created it (null: unknown, an unsigned or config-key request).
     */
    public record Upload(String id, String bucket, String key, String contentType, long startedMillis,
            TreeMap<Integer, Part> parts, Checksums.Algorithm checksum, Checksums.Type checksumType, String initiator) {
        public Upload(String id, String bucket, String key, String contentType, long startedMillis, TreeMap<Integer, Part> parts) {
            this(id, bucket, key, contentType, startedMillis, parts, null, null, null);
        }
    }

    /**
     * A completed upload's parts in order, its total size and ETag, its additional checksum (base64,
     * null when the upload has none or a part lacks it) and whether this is a repeated Complete of an
     * upload completed before with the same parts (then nothing is to be stored again).
     */
    public record Completed(Upload upload, List<Part> parts, long size, String etag, String checksum, boolean repeat) {
        public Completed(Upload upload, List<Part> parts, long size, String etag) {
            this(upload, parts, size, etag, null, false);
        }
    }

    /** Uploads completed lately, remembered so a Complete sent again gets the same answer (S3 is idempotent there). */
    static final int RECENT = 256;
    private final LinkedHashMap<String, Completed> recent = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Completed> e) {
            return size() > RECENT;
        }
    };

    /** {@code ids} makes unguessable, unique upload ids. */
    public MultipartUploads(Supplier<String> ids) {
        this.ids = ids;
    }

    public synchronized Upload create(String bucket, String key, String contentType, long nowMillis) {
        return create(bucket, key, contentType, nowMillis, null, null, null);
    }

    /**
     * An upload whose parts carry additional checksums of {@code checksum} (null: none), of {@code type}, created by
     * the key {@code initiator} (null: unknown).
     */
    public synchronized Upload create(String bucket, String key, String contentType, long nowMillis,
            Checksums.Algorithm checksum, Checksums.Type type, String initiator) {
        Upload u = new Upload(ids.get(), bucket, key, contentType, nowMillis, new TreeMap<>(), checksum, type, initiator);
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
        return complete(id, bucket, key, numbers, etags, null, null);
    }

    /**
     * As above, also checking the parts' additional checksums the client listed ({@code partChecksums}:
     * base64 per part, null entries for none; a part whose checksum differs is InvalidPart) and the
     * object's checksum it expects ({@code expected}, from {@code x-amz-checksum-ALG}, or null):
     * BadDigest when it is not the one computed, or when the upload has no checksum to compare with.
     */
    public synchronized Completed complete(String id, String bucket, String key, List<Integer> numbers, List<String> etags,
            List<String> partChecksums, String expected) throws S3Exception {
        Completed before = recent.get(id);
        if (before != null && !uploads.containsKey(id) && before.upload().bucket().equals(bucket)
                && before.upload().key().equals(key) && sameParts(before, numbers, etags)) {
            return new Completed(before.upload(), before.parts(), before.size(), before.etag(), before.checksum(), true);
        }
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
        for (int i = 0; partChecksums != null && i < parts.size(); i++) {
            Part p = parts.get(i);
            String sent = partChecksums.get(i);
            if (sent != null && p.checksum() != null && !Checksums.matches(p.checksumAlgorithm(), sent, p.checksum())) {
                throw new S3Exception(S3Error.INVALID_PART, "part " + p.number() + " was uploaded with checksum "
                        + Checksums.base64(p.checksum()) + ", not " + sent);
            }
        }
        String checksum = null;
        if (u.checksum() != null && parts.stream().allMatch(p -> p.checksumAlgorithm() == u.checksum())) {
            List<Checksums.Part> sums = new ArrayList<>();
            for (Part p : parts) {
                sums.add(new Checksums.Part(p.checksum(), p.size()));
            }
            checksum = Checksums.multipart(u.checksum(), u.checksumType(), sums);
        }
        if (expected != null && !expected.trim().equals(checksum)) {
            throw new S3Exception(S3Error.BAD_DIGEST, "the checksum sent (" + expected + ") is not the upload's "
                    + (checksum == null ? "(it has none: create it with x-amz-checksum-algorithm and send each part's)"
                            : "(" + checksum + ")"));
        }
        uploads.remove(id);
        Completed c = new Completed(u, parts, size, ETags.multipart(partEtags), checksum, false);
        recent.put(id, c);
        return c;
    }

    private static boolean sameParts(Completed c, List<Integer> numbers, List<String> etags) {
        if (c.parts().size() != numbers.size()) {
            return false;
        }
        for (int i = 0; i < numbers.size(); i++) {
            Part p = c.parts().get(i);
            if (p.number() != numbers.get(i) || !p.etag().equals(ETags.unquote(etags.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes back a Complete that failed after {@link #complete} accepted it (the object was not stored): the
     * upload is open again with every part it had, so the client may complete it again, or abort it, as S3
     * allows; a retry is not answered as done.
     */
    public synchronized void reopen(Completed c) {
        recent.remove(c.upload().id());
        uploads.putIfAbsent(c.upload().id(), c.upload());
    }

    /** Puts back an upload read from its journal at start (see {@link MultipartJournal}). */
    public synchronized void restore(Upload u) {
        uploads.put(u.id(), u);
    }

    /** A copy of upload {@code id} as it is now, parts included, or null when it is not in progress. */
    public synchronized Upload copy(String id) {
        Upload u = uploads.get(id);
        return u == null ? null : new Upload(u.id(), u.bucket(), u.key(), u.contentType(), u.startedMillis(),
                new TreeMap<>(u.parts()), u.checksum(), u.checksumType(), u.initiator());
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

    /** The parts of upload {@code u} received so far (a copy). */
    public synchronized List<Part> partsOf(Upload u) {
        return new ArrayList<>(u.parts().values());
    }

    /** Parts of every upload in progress, for listing (a copy). */
    public synchronized Map<String, Upload> snapshot() {
        return new HashMap<>(uploads);
    }
}
