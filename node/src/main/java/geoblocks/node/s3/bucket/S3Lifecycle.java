package geoblocks.node.s3.bucket;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.core.Owners;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.ObjectListing;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.multipart.S3Multipart;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.Preconditions;
import geoblocks.node.s3.object.S3Tagging;
import geoblocks.node.s3.object.TagSet;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bucket lifecycle: Put/Get/DeleteBucketLifecycleConfiguration (the configuration is a record of its
 * own, {@code .s3-lifecycle/BUCKET}, stored like bucket tags and ignored when older than the bucket)
 * and the periodic runner that applies it. Every {@code geoblocks.s3.lifecycle.interval} the runner
 * walks the buckets; a bucket's rules are applied to its keys only by the region that owns the
 * bucket's record ({@link Owners}), so regions never race over one bucket; every region applies the
 * AbortIncompleteMultipartUpload rules to the uploads in progress at its own gateway (an upload
 * lives where it was created). What to do is decided by {@link LifecycleRules} (pure); this class
 * reads versions and tags and applies the decisions: an expired current version is deleted as a
 * DeleteObject would (a delete marker in a versioned bucket), conditioned on its ETag so a version
 * written meanwhile is never deleted; noncurrent versions and expired delete markers are purged.
 */
public final class S3Lifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(S3Lifecycle.class);
    static final String PREFIX = ".s3-lifecycle/";
    static final int MAX_FILE = 256 * 1024;
    /** Keys whose versions are read per listing page (one page at a time). */
    static final int PAGE = 200;

    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Versioning versioning;
    private final S3Tagging tagging;
    private final S3Multipart multipart;
    private final String region;
    private final Collection<String> regions;
    private final LongSupplier clock;
    private final long dayMillis;
    /** Applied since start: versions expired, versions and markers purged, uploads aborted. */
    final AtomicLong expired = new AtomicLong();
    final AtomicLong purged = new AtomicLong();
    final AtomicLong aborted = new AtomicLong();
    /** Purges left undone because the version was under an object lock retention or legal hold. */
    final AtomicLong locked = new AtomicLong();
    private S3ObjectLock objectLock;

    /** The object lock check made before a version is purged. */
    public void objectLock(S3ObjectLock l) {
        this.objectLock = l;
    }

    public S3Lifecycle(NodeStore store, S3Buckets buckets, S3Versioning versioning, S3Tagging tagging, S3Multipart multipart,
            String region, Collection<String> regions, LongSupplier clock, Duration day) {
        this.store = store;
        this.buckets = buckets;
        this.versioning = versioning;
        this.tagging = tagging;
        this.multipart = multipart;
        this.region = region;
        this.regions = List.copyOf(regions);
        this.clock = clock;
        this.dayMillis = day.toMillis();
    }

    static String file(String bucket) {
        return PREFIX + bucket;
    }

    /** Put/Get/DeleteBucketLifecycleConfiguration: the configuration in its side record. */
    public BucketDocument<LifecycleConfig> document() {
        return new BucketDocument<>("lifecycle configuration", S3Error.NO_SUCH_LIFECYCLE_CONFIGURATION,
                (body, bucket) -> LifecycleConfig.parse(body), BucketDocument.Check.none(), LifecycleConfig::toXml, BucketDocument.XML,
                BucketDocument.Storage.of(b -> read(b.name(), b.createdMillis()), (b, c, body) -> c == null
                        ? SideRecords.delete(store, file(b.name()))
                        : store.put(file(b.name()), null, ByteSource.of(c.toXml()), "tworandom", MAX_FILE, "all", false, Map.of())),
                200);
    }

    /** The bucket's configuration, or null when it has none (or only one older than the bucket, {@code sinceMillis}). */
    CompletableFuture<LifecycleConfig> read(String bucket, long sinceMillis) {
        return SideRecords.read(store, file(bucket), sinceMillis, MAX_FILE, "lifecycle configuration of '" + bucket + "'", LifecycleConfig::parse);
    }

    /** Runs a pass every {@code interval} (the first one interval from now), each after the last one ended. */
    public void runEvery(Duration interval) {
        CompletableFuture.delayedExecutor(interval.toMillis(), TimeUnit.MILLISECONDS).execute(() ->
                pass().whenComplete((v, t) -> {
                    if (t != null) {
                        LOG.warn("lifecycle pass failed: {}", NodeStore.cause(t).toString());
                    }
                    runEvery(interval);
                }));
    }

    /** One pass over every bucket: its keys when this region owns its record, its uploads in progress here. */
    CompletableFuture<Void> pass() {
        return bucketNames(new ArrayList<>(), "").thenCompose(names -> {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (String b : names) {
                chain = chain.thenCompose(x -> bucket(b).exceptionally(t -> {
                    LOG.warn("lifecycle of bucket '{}' failed (tried again next pass): {}", b, NodeStore.cause(t).toString());
                    return null;
                }));
            }
            return chain;
        });
    }

    private CompletableFuture<List<String>> bucketNames(List<String> out, String after) {
        return store.listPage(S3Names.BUCKETS_PREFIX, after, ObjectListing.FETCH).thenCompose(page -> {
            for (ListEntry e : page.entries()) {
                String b = S3Names.bucketOfRecord(e.name());
                if (b != null) {
                    out.add(b);
                }
            }
            return page.more() ? bucketNames(out, page.last()) : CompletableFuture.completedFuture(out);
        });
    }

    private CompletableFuture<Void> bucket(String bucket) {
        boolean owner = Owners.ownerOf(S3Names.bucketFile(bucket), regions).equals(region);
        boolean uploadsHere = multipart.uploadsInProgress().stream().anyMatch(u -> u.bucket().equals(bucket));
        if (!owner && !uploadsHere) {
            return CompletableFuture.completedFuture(null);
        }
        return buckets.find(bucket).thenCompose(b -> read(bucket, b.createdMillis()).thenCompose(c -> {
            if (c == null) {
                return CompletableFuture.completedFuture(null);
            }
            long now = clock.getAsLong();
            aborted.addAndGet(multipart.abortWhere(u -> u.bucket().equals(bucket)
                    && LifecycleRules.abort(c, u.key(), u.startedMillis(), now, dayMillis) != null));
            return owner ? keys(b, c, "") : CompletableFuture.<Void>completedFuture(null);
        }));
    }

    /** Applies {@code c} to the bucket's keys (those whose newest version is a tombstone included), a page at a time. */
    private CompletableFuture<Void> keys(BucketMeta b, LifecycleConfig c, String after) {
        String base = b.name() + "/";
        boolean anyPrefixless = c.rules().stream().anyMatch(r -> r.enabled() && r.prefix().isEmpty());
        String common = anyPrefixless ? "" : commonPrefix(c);
        return store.listPage(base + common, after, PAGE, true).thenCompose(page -> {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (ListEntry e : page.entries()) {
                if (e.name().startsWith(base)) {
                    String key = e.name().substring(base.length());
                    chain = chain.thenCompose(x -> key(b, c, key).exceptionally(t -> {
                        LOG.debug("lifecycle of '{}' in '{}': {}", key, b.name(), NodeStore.cause(t).toString());
                        return null;
                    }));
                }
            }
            return chain.thenCompose(x -> page.more() ? keys(b, c, page.last()) : CompletableFuture.completedFuture(null));
        });
    }

    /** The longest prefix every enabled rule's prefix starts with (the listing needs nothing outside it). */
    static String commonPrefix(LifecycleConfig c) {
        String p = null;
        for (LifecycleConfig.Rule r : c.rules()) {
            if (!r.enabled()) {
                continue;
            }
            if (p == null) {
                p = r.prefix();
            } else {
                int i = 0;
                while (i < p.length() && i < r.prefix().length() && p.charAt(i) == r.prefix().charAt(i)) {
                    i++;
                }
                p = p.substring(0, i);
            }
        }
        return p == null ? "" : p;
    }

    private CompletableFuture<Void> key(BucketMeta b, LifecycleConfig c, String key) {
        String name = S3Names.fileName(b.name(), key);
        return versioning.versions(name).thenCompose(vs -> {
            List<ObjectVersions.V> shown = ObjectVersions.visible(key, vs, b.versioning());
            if (shown.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            ObjectVersions.V head = shown.get(0);
            CompletableFuture<TagSet> tags = c.needsTags() && head.latest() && !head.deleteMarker()
                    ? tagging.read(S3Tagging.objectFile(b.name(), key, head.nodeVersion()))
                    : CompletableFuture.completedFuture(TagSet.EMPTY);
            return tags.thenCompose(ts -> {
                List<LifecycleRules.Action> actions = LifecycleRules.decide(c, key, shown, ts.tags(), clock.getAsLong(), dayMillis);
                CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
                for (LifecycleRules.Action a : actions) {
                    chain = chain.thenCompose(x -> apply(b, key, name, vs, a));
                }
                return chain;
            });
        });
    }

    private CompletableFuture<Void> apply(BucketMeta b, String key, String name,
            List<ClientOp.VersionEntry> vs, LifecycleRules.Action a) {
        if (a.kind() == LifecycleRules.Kind.EXPIRE_CURRENT) {
            WriteCondition onlyIfUnchanged;
            try {
                onlyIfUnchanged = Preconditions.write(a.version().etag() == null ? "*" : ETags.quote(a.version().etag()), null);
            } catch (S3Exception e) {
                return CompletableFuture.failedFuture(e);
            }
            return ignoreGone(store.delete(name, onlyIfUnchanged, ObjectVersions.marks(b.versioning())), expired);
        }
        ObjectVersions.Purge p = ObjectVersions.purge(key, vs, b.versioning(), a.version().versionId());
        if (p == null) {
            return CompletableFuture.completedFuture(null);
        }
        // a version under an object lock retention or legal hold stays (it is tried again on a later pass)
        return objectLock.deleteRefusal(b, key, vs, p.nodeVersions(), false).thenCompose(refused -> {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            if (refused != null) {
                locked.incrementAndGet();
                return chain;
            }
            for (String v : p.nodeVersions()) {
                chain = chain.thenCompose(x -> ignoreGone(store.purge(name, v), purged));
            }
            return chain;
        });
    }

    /** Counts a done change; a version gone or changed meanwhile (NOT_FOUND, a failed condition) is left as it is. */
    private static CompletableFuture<Void> ignoreGone(CompletableFuture<?> f, AtomicLong done) {
        return f.handle((w, t) -> {
            Throwable c = t == null ? null : NodeStore.cause(t);
            if (c == null) {
                done.incrementAndGet();
            } else if (!(c instanceof NodeStore.StoreException s && (s.notFound() || s.preconditionFailed()))) {
                throw new CompletionException(c);
            }
            return null;
        });
    }
}
