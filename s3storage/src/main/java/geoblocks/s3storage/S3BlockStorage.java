package geoblocks.s3storage;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.DiskFullException;
import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.NoSuchBlockException;
import geoblocks.blockstore.core.StoredBlocks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link BlockStorage} in an S3-compatible bucket (AWS S3, Ceph RGW, Garage, SeaweedFS…), through
 * the AWS SDK for Java v2 over its URL-connection client, path-style. One object per block at
 * {@code PREFIX blocks/S/ID}, S the shard (a hex digit of the id's hash), with two metadata entries:
 * the data's CRC32C ({@value #CRC}), checked on every read, and when this store wrote it
 * ({@value #WRITTEN}, epoch ms of the injected clock, strictly increasing: what
 * {@link #deleteIfUnchanged} compares, as object times have only second precision on some servers).
 *
 * <p>A PUT replaces an object atomically, so readers see the old or the new block; it is durable
 * when the server answers. The counts of {@link #stored()} come from a listing when the store opens,
 * then from each put and delete (a HEAD tells whether a put replaces a block); every change of a
 * block holds its stripe lock, so this node must be the only writer under the prefix. Errors of the
 * server or the network become {@link IOException}s naming the endpoint and bucket, never the
 * secret. A GC listing ({@link #listShard}) costs a HEAD per block.
 */
public final class S3BlockStorage implements BlockStorage, AutoCloseable {
    static final String CRC = "geoblocks-crc32c";
    static final String WRITTEN = "geoblocks-written";
    static final int SHARDS = 16;

    private final S3StorageSettings settings;
    private final S3Client s3;
    private final LongSupplier clockMillis;
    private final AtomicLong lastStamp = new AtomicLong();
    private final Object[] stripes = new Object[256];
    private long blocks;
    private long bytes;

    private S3BlockStorage(S3StorageSettings settings, S3Client s3, LongSupplier clockMillis) {
        this.settings = settings;
        this.s3 = s3;
        this.clockMillis = clockMillis;
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
    }

    /** The object under the prefix that names the region whose blocks live there. */
    static final String OWNER = "geoblocks-owner";

    /** As {@link #open(S3StorageSettings, LongSupplier, String)} for region {@code test} (tests). */
    public static S3BlockStorage open(S3StorageSettings settings, LongSupplier clockMillis) throws IOException {
        return open(settings, clockMillis, "test");
    }

    /**
     * Connects, checks that the bucket answers, claims its prefix for region {@code owner} and counts the
     * blocks already there; an unreachable endpoint, a missing bucket, refused credentials, or a prefix another
     * region claimed (its {@value #OWNER} object names it: two regions in one place would collect each other's
     * blocks) fail here with an {@link IOException} saying so. A prefix nobody claimed is claimed now, blocks
     * already there included (a region from before claims).
     */
    public static S3BlockStorage open(S3StorageSettings settings, LongSupplier clockMillis, String owner) throws IOException {
        S3Client client = S3Client.builder()
                .endpointOverride(settings.endpoint())
                .region(Region.of(settings.signingRegion()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(settings.accessKey(), settings.secretKey())))
                .forcePathStyle(true)
                // our CRC32C covers the data; the SDK's own checksums need aws-chunked uploads not every server takes
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(3)).socketTimeout(Duration.ofSeconds(30)))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(120)))
                .build();
        S3BlockStorage store = new S3BlockStorage(settings, client, clockMillis);
        try {
            client.headBucket(b -> b.bucket(settings.bucket()));
            store.claim(owner);
            long n = 0;
            long total = 0;
            for (S3Object o : store.objects(settings.prefix() + "blocks/")) {
                n++;
                total += o.size();
            }
            store.blocks = n;
            store.bytes = total;
            return store;
        } catch (SdkException e) {
            client.close();
            throw store.failure("opening bucket " + settings.bucket(), e);
        }
    }

    /** Claims the prefix for {@code owner}, or throws naming the region that has it. */
    private void claim(String owner) throws IOException {
        String key = settings.prefix() + OWNER;
        String holder = ownerOf(key);
        if (holder == null) {
            s3.putObject(p -> p.bucket(settings.bucket()).key(key).contentType("text/plain"),
                    RequestBody.fromString(owner + "\n", StandardCharsets.UTF_8));
            holder = ownerOf(key); // read back: of two regions starting at once, the later write wins and the other stops
        }
        if (!owner.equals(holder)) {
            throw new IOException("s3://" + settings.bucket() + "/" + settings.prefix() + " holds region " + holder
                    + "'s blocks (" + key + " names it), not region " + owner + "'s: give region " + owner
                    + " a prefix or bucket of its own (geoblocks.s3-storage." + owner + ".prefix): two regions in one"
                    + " place would collect each other's blocks");
        }
    }

    /** The region {@code key} names, or null when there is no such object. */
    private String ownerOf(String key) {
        try {
            return s3.getObjectAsBytes(g -> g.bucket(settings.bucket()).key(key)).asUtf8String().trim();
        } catch (SdkException e) {
            if (notFound(e)) {
                return null;
            }
            throw e;
        }
    }

    String key(BlockId id) {
        return settings.prefix() + "blocks/" + Integer.toHexString(shardOf(id)) + "/" + id.value();
    }

    private static int shardOf(BlockId id) {
        return (id.value().hashCode() >>> 4) & (SHARDS - 1);
    }

    private Object stripe(BlockId id) {
        return stripes[(id.value().hashCode() * 0x9E3779B9 >>> 24) & (stripes.length - 1)];
    }

    private IOException failure(String what, SdkException e) {
        if (e instanceof S3Exception s && s.awsErrorDetails() != null) {
            return new IOException(what + " in " + settings + ": S3 answered " + s.statusCode() + " "
                    + s.awsErrorDetails().errorCode() + ": " + s.awsErrorDetails().errorMessage(), e);
        }
        return new IOException(what + " in " + settings + ": " + e.getMessage(), e);
    }

    private static boolean notFound(SdkException e) {
        return e instanceof NoSuchKeyException || e instanceof S3Exception s && s.statusCode() == 404;
    }

    /** The object of {@code id} as HEAD sees it, or null when there is none. */
    private HeadObjectResponse head(BlockId id) throws IOException {
        try {
            return s3.headObject(h -> h.bucket(settings.bucket()).key(key(id)));
        } catch (SdkException e) {
            if (notFound(e)) {
                return null;
            }
            throw failure("looking up block " + id, e);
        }
    }

    private static long written(HeadObjectResponse h) {
        try {
            return Long.parseLong(h.metadata().getOrDefault(WRITTEN, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void put(BlockId id, byte[] data, int crc) throws IOException {
        int actual = Checksums.crc32c(data);
        if (actual != crc) {
            throw new CorruptBlockException(id, "received checksum " + Checksums.hex(actual) + " != expected "
                    + Checksums.hex(crc) + "; not stored");
        }
        synchronized (stripe(id)) {
            HeadObjectResponse old = head(id);
            long previous = old == null ? -1 : old.contentLength();
            if (settings.capacityBytes() > 0) {
                long after = stored().bytes() - Math.max(0, previous) + data.length;
                if (after > settings.capacityBytes()) {
                    throw new DiskFullException("disk full: the S3 storage's capacity of " + (settings.capacityBytes() >> 20)
                            + " MiB is used up; block " + id + " needs " + data.length + " bytes");
                }
            }
            long stamp = lastStamp.updateAndGet(p -> Math.max(p + 1, clockMillis.getAsLong()));
            try {
                s3.putObject(p -> p.bucket(settings.bucket()).key(key(id)).contentLength((long) data.length)
                        .metadata(Map.of(CRC, Checksums.hex(crc), WRITTEN, Long.toString(stamp))),
                        RequestBody.fromBytes(data));
            } catch (SdkException e) {
                throw failure("writing block " + id, e);
            }
            counted(previous, data.length);
        }
    }

    private synchronized void counted(long previousBytes, long newBytes) {
        if (previousBytes < 0) {
            blocks++;
        } else {
            bytes = Math.max(0, bytes - previousBytes);
        }
        bytes += newBytes;
    }

    private synchronized void uncounted(long deletedBytes) {
        blocks = Math.max(0, blocks - 1);
        bytes = Math.max(0, bytes - deletedBytes);
    }

    @Override
    public Block get(BlockId id) throws IOException {
        ResponseBytes<GetObjectResponse> r;
        try {
            r = s3.getObjectAsBytes(g -> g.bucket(settings.bucket()).key(key(id)));
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new NoSuchBlockException(id);
            }
            throw failure("reading block " + id, e);
        }
        byte[] data = r.asByteArray();
        String stored = r.response().metadata().get(CRC);
        int crc;
        try {
            crc = Integer.parseUnsignedInt(String.valueOf(stored), 16);
        } catch (NumberFormatException e) {
            throw new CorruptBlockException(id, "object " + key(id) + " has no valid " + CRC + " metadata: " + stored);
        }
        if (r.response().contentLength() != null && r.response().contentLength() != data.length) {
            throw new CorruptBlockException(id, "object says " + r.response().contentLength() + " bytes, "
                    + data.length + " arrived");
        }
        int actual = Checksums.crc32c(data);
        if (actual != crc) {
            throw new CorruptBlockException(id, "data checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(crc));
        }
        return new Block(data, crc);
    }

    @Override
    public boolean delete(BlockId id) throws IOException {
        synchronized (stripe(id)) {
            HeadObjectResponse old = head(id);
            if (old == null) {
                return false;
            }
            deleteObject(id);
            uncounted(old.contentLength());
            return true;
        }
    }

    private void deleteObject(BlockId id) throws IOException {
        try {
            s3.deleteObject(d -> d.bucket(settings.bucket()).key(key(id)));
        } catch (SdkException e) {
            throw failure("deleting block " + id, e);
        }
    }

    /** True when the block's object is there; false too when the server cannot be asked (reads then fail clearly). */
    @Override
    public boolean contains(BlockId id) {
        try {
            return head(id) != null;
        } catch (IOException e) {
            return false;
        }
    }

    private Iterable<S3Object> objects(String prefix) {
        return s3.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(settings.bucket()).prefix(prefix).build())
                .contents();
    }

    private static BlockId idOf(String key) {
        try {
            return new BlockId(key.substring(key.lastIndexOf('/') + 1));
        } catch (IllegalArgumentException e) {
            return null; // not a block this store wrote
        }
    }

    @Override
    public List<BlockId> list() throws IOException {
        List<BlockId> ids = new ArrayList<>();
        try {
            for (S3Object o : objects(settings.prefix() + "blocks/")) {
                BlockId id = idOf(o.key());
                if (id != null) {
                    ids.add(id);
                }
            }
        } catch (SdkException e) {
            throw failure("listing blocks", e);
        }
        ids.sort(null);
        return ids;
    }

    @Override
    public synchronized StoredBlocks stored() {
        return new StoredBlocks(blocks, bytes);
    }

    @Override
    public int shards() {
        return SHARDS;
    }

    @Override
    public List<BlockFile> listShard(int shard, long writtenBeforeMillis) throws IOException {
        if (shard < 0 || shard >= SHARDS) {
            throw new IllegalArgumentException("shard must be in 0.." + (SHARDS - 1) + ", was " + shard);
        }
        List<BlockFile> out = new ArrayList<>();
        try {
            for (S3Object o : objects(settings.prefix() + "blocks/" + Integer.toHexString(shard) + "/")) {
                BlockId id = idOf(o.key());
                HeadObjectResponse h = id == null ? null : head(id);
                if (h != null && written(h) <= writtenBeforeMillis) {
                    out.add(new BlockFile(id, h.contentLength(), written(h)));
                }
            }
        } catch (SdkException e) {
            throw failure("listing shard " + shard, e);
        }
        return out;
    }

    @Override
    public long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException {
        synchronized (stripe(id)) {
            HeadObjectResponse h = head(id);
            if (h == null || written(h) != modifiedMillis) {
                return -1;
            }
            deleteObject(id);
            uncounted(h.contentLength());
            return h.contentLength();
        }
    }

    /** With a capacity: that and what it leaves (no reserve); without: unknown, as a bucket has no size. */
    @Override
    public DiskSpace space() {
        long cap = settings.capacityBytes();
        return cap > 0 ? new DiskSpace(cap, Math.max(0, cap - stored().bytes()), 0) : DiskSpace.UNKNOWN;
    }

    @Override
    public void close() {
        s3.close();
    }
}
