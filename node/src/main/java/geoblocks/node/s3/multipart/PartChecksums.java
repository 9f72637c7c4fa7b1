package geoblocks.node.s3.multipart;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.body.SmallRecord;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.HeaderRecords;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The additional checksums of a multipart object's parts, kept after CompleteMultipartUpload so that
 * GET {@code partNumber} and GetObjectAttributes' ObjectParts can answer them. Stored as
 * {@link HeaderRecords} are: a record {@code .s3-parts/ID} whose ID is 20 hex digits of the SHA-256 of its
 * content (the algorithm, then one base64 checksum per part), written before the version that names it
 * in its metadata ({@link #META}), so a version never names a missing record; policy {@code tworandom},
 * every region acknowledging; never changed nor deleted. A version whose metadata has no room for the
 * name keeps none (the reads then answer without part checksums).
 */
public final class PartChecksums {
    public static final String META = "pck";
    static final String PREFIX = ".s3-parts/";
    /** 10,000 parts of a SHA-256 (44 base64 characters and a newline) fit. */
    static final int MAX_FILE = 512 * 1024;

    private final NodeStore store;

    public PartChecksums(NodeStore store) {
        this.store = store;
    }

    /** The parts' checksums of one object, in part order (base64), and their algorithm. */
    public record Parts(Checksums.Algorithm algorithm, List<String> values) {
        byte[] encode() {
            return (algorithm.lower() + "\n" + String.join("\n", values) + "\n").getBytes(StandardCharsets.UTF_8);
        }

        static Parts decode(byte[] b) {
            String[] lines = new String(b, StandardCharsets.UTF_8).split("\n");
            Checksums.Algorithm a = Checksums.Algorithm.parse(lines[0]);
            if (a == null) {
                throw new IllegalArgumentException("part checksums of unknown algorithm '" + lines[0] + "'");
            }
            return new Parts(a, List.of(lines).subList(1, lines.length));
        }

        String id() {
            try {
                return ETags.hex(MessageDigest.getInstance("SHA-256").digest(encode())).substring(0, 20);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Part {@code n}'s checksum (1-based), or null. */
        public String part(int n) {
            return n >= 1 && n <= values.size() ? values.get(n - 1) : null;
        }
    }

    /** The checksums of a completed upload's parts, or null unless every part has one of the upload's algorithm. */
    static Parts of(MultipartUploads.Completed done) {
        Checksums.Algorithm a = done.upload().checksum();
        if (a == null) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (MultipartUploads.Part p : done.parts()) {
            if (p.checksumAlgorithm() != a || p.checksum() == null) {
                return null;
            }
            values.add(Checksums.base64(p.checksum()));
        }
        return new Parts(a, values);
    }

    /** Stores {@code parts} (when not null) and gives the metadata naming them. */
    CompletableFuture<Map<String, String>> write(Parts parts) {
        if (parts == null) {
            return CompletableFuture.completedFuture(Map.of());
        }
        String id = parts.id();
        return store.put(PREFIX + id, null, ByteSource.of(parts.encode()), "tworandom", MAX_FILE, "all", false, Map.of())
                .thenApply(w -> Map.of(META, id));
    }

    /** The part checksums a version with metadata {@code meta} names; null when it names none. */
    public CompletableFuture<Parts> read(Map<String, String> meta) {
        String id = meta.get(META);
        if (id == null) {
            return CompletableFuture.completedFuture(null);
        }
        SmallRecord sink = new SmallRecord(MAX_FILE, "part checksums " + id);
        return store.get(PREFIX + id, "", sink).thenApply(m -> {
            try {
                return Parts.decode(sink.bytes());
            } catch (IllegalArgumentException e) {
                throw new CompletionException(e);
            }
        });
    }
}
