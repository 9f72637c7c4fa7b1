package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.body.SmallRecord;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Object and bucket tagging. A version's metadata is fixed when it is stored (and small), so tags live
 * beside it, in a file of their own: {@code .s3-tags/BUCKET/SHA256(KEY)/VERSION} for a version of an
 * object (the node's version id, so a later version of the key starts untagged) and
 * {@code .s3-tags/BUCKET} for a bucket, holding the tag set URL-encoded ({@link TagSet}). Tag files are
 * stored like bucket records (policy {@code tworandom}, every region acknowledged); a newer write of
 * one wins. They are not listed (no bucket name starts with a dot) and stay when their object
 * version is deleted (small; a new version of the key has another file).
 */
public final class S3Tagging {
    public static final String PREFIX = ".s3-tags/";
    /** Largest tag file read (ten tags of 128 + 256 characters, URL-encoded, fit well below). */
    static final int MAX_FILE = 64 * 1024;

    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Versioning versioning;

    public S3Tagging(NodeStore store, S3Buckets buckets, S3Versioning versioning) {
        this.store = store;
        this.buckets = buckets;
        this.versioning = versioning;
    }

    public static String objectFile(String bucket, String key, String nodeVersion) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return PREFIX + bucket + "/" + ETags.hex(h) + "/" + nodeVersion;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String bucketFile(String bucket) {
        return PREFIX + bucket;
    }

    /** The tag set in {@code file}; EMPTY when there is none (or it was deleted). */
    public CompletableFuture<TagSet> read(String file) {
        return read(file, Long.MIN_VALUE);
    }

    /** As above, EMPTY also when the file was written before {@code sinceMillis} (a bucket of the same name before). */
    public CompletableFuture<TagSet> read(String file, long sinceMillis) {
        SmallRecord sink = new SmallRecord(MAX_FILE, "tag file " + file);
        return store.get(file, "", sink).handle((m, t) -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    return TagSet.EMPTY;
                }
                throw new CompletionException(c);
            }
            if (m.createdMillis() < sinceMillis) {
                return TagSet.EMPTY;
            }
            try {
                return TagSet.decode(sink.bytes());
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    /** The tags of the current version of {@code key}; EMPTY when it has none or there is no such object. */
    public CompletableFuture<TagSet> current(String bucket, String key) {
        return store.stat(S3Names.fileName(bucket, key)).handle((st, t) -> t == null ? st.manifest().version().id() : null)
                .thenCompose(v -> v == null ? CompletableFuture.completedFuture(TagSet.EMPTY) : read(objectFile(bucket, key, v)));
    }

    /** Stores {@code tags} as {@code file} (an empty set deletes it). */
    CompletableFuture<Void> write(String file, TagSet tags) {
        if (tags.size() == 0) {
            return store.delete(file).handle((w, t) -> {
                Throwable c = t == null ? null : NodeStore.cause(t);
                if (c != null && !(c instanceof NodeStore.StoreException s && s.notFound())) {
                    throw new CompletionException(c);
                }
                return null;
            });
        }
        byte[] b = tags.encode();
        return store.put(file, null, ByteSource.of(b), "tworandom", MAX_FILE, "all", false, Map.of())
                .thenApply(w -> null);
    }

    /** The node version of the object version a tagging request names ({@code versionId}, else the current one). */
    private CompletableFuture<String> version(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        String versionId;
        try {
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        return buckets.find(call.bucket).thenCompose(b -> {
            if (versionId == null) {
                return store.stat(name).thenApply(st -> {
                    ClientPort.FileStat s = st;
                    if (b.versioning() != ObjectVersions.Status.OFF) {
                        call.ex.header("x-amz-version-id", ObjectVersions.id(false, s.manifest().meta(),
                                s.manifest().version().id()));
                    }
                    return s.manifest().version().id();
                });
            }
            return versioning.versions(name).thenApply(vs -> {
                ObjectVersions.V v = ObjectVersions.find(call.key, vs, b.versioning(), versionId);
                if (v == null || v.deleteMarker()) {
                    throw new CompletionException(new S3Exception(v == null ? S3Error.NO_SUCH_VERSION
                            : S3Error.METHOD_NOT_ALLOWED, "version '" + versionId + "' of '" + call.key + "' "
                            + (v == null ? "does not exist" : "is a delete marker")));
                }
                call.ex.header("x-amz-version-id", v.versionId());
                return v.nodeVersion();
            });
        });
    }

    public void getObject(S3Call call) {
        version(call).thenCompose(v -> read(objectFile(call.bucket, call.key, v))).whenComplete((tags, t) -> call.later(() -> {
            if (t != null) {
                call.fail(call.missingObject(t));
            } else {
                call.xml(200, tags.xml());
            }
        }));
    }

    public void putObject(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            TagSet tags;
            try {
                tags = TagSet.fromXml(body, TagSet.MAX_OBJECT_TAGS);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            version(call).thenCompose(v -> write(objectFile(call.bucket, call.key, v), tags)).whenComplete((x, t) -> call.later(() -> {
                if (t != null) {
                    call.fail(call.missingObject(t));
                } else {
                    call.empty(200);
                }
            }));
        }));
        call.ex.sendContinue();
    }

    public void deleteObject(S3Call call) {
        version(call).thenCompose(v -> write(objectFile(call.bucket, call.key, v), TagSet.EMPTY)).whenComplete((x, t) -> call.later(() -> {
            if (t != null) {
                call.fail(call.missingObject(t));
            } else {
                call.empty(204);
            }
        }));
    }

    /** Stores the tags of a version just written (x-amz-tagging on PutObject, CreateMultipartUpload, CopyObject). */
    public CompletableFuture<Void> tagWritten(String bucket, String key, String nodeVersion, TagSet tags) {
        return tags == null || tags.size() == 0 ? CompletableFuture.completedFuture(null)
                : write(objectFile(bucket, key, nodeVersion), tags);
    }

    public void getBucket(S3Call call) {
        buckets.find(call.bucket).thenCompose(b -> read(bucketFile(call.bucket), b.createdMillis()))
                .whenComplete((tags, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else if (tags.size() == 0) {
                call.fail(S3Error.NO_SUCH_TAG_SET, "bucket '" + call.bucket + "' has no tags");
            } else {
                call.xml(200, tags.xml());
            }
        }));
    }

    public void putBucket(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            TagSet tags;
            try {
                tags = TagSet.fromXml(body, TagSet.MAX_BUCKET_TAGS);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            buckets.find(call.bucket).thenCompose(b -> write(bucketFile(call.bucket), tags)).whenComplete(call.emptyWhenDone(204));
        }));
        call.ex.sendContinue();
    }

    public void deleteBucket(S3Call call) {
        buckets.find(call.bucket).thenCompose(b -> write(bucketFile(call.bucket), TagSet.EMPTY)).whenComplete(call.emptyWhenDone(204));
    }
}
