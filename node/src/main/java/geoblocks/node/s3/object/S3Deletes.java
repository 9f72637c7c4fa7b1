package geoblocks.node.s3.object;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3Xml;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * DeleteObject and DeleteObjects. Without a {@code versionId} a delete stores a tombstone (the
 * delete marker of a versioned bucket), with {@code If-Match} decided by the name's owner region.
 * With a {@code versionId} it purges that version in the node ({@link ObjectVersions#purge},
 * {@link NodeStore#purge}): the version is taken out of the name's history in every region, the
 * version below it becomes current, and its blocks are left to the block collector, which keeps
 * every block a kept version still names. Deleting a delete marker by its id makes the key readable
 * again, as in S3. Conditions (If-Match, last-modified time, size) are decided by {@link DeleteConditions};
 * a version under an object lock retention or legal hold is refused AccessDenied ({@link S3ObjectLock}).
 */
public final class S3Deletes {
    /** Keys of one DeleteObjects deleted at once. */
    static final int DELETE_BATCH = 16;

    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Versioning versioning;
    private final S3ObjectLock objectLock;

    public S3Deletes(NodeStore store, S3Buckets buckets, S3Versioning versioning, S3ObjectLock objectLock) {
        this.store = store;
        this.buckets = buckets;
        this.versioning = versioning;
        this.objectLock = objectLock;
    }

    /**
     * What one delete did, as S3 reports it: the key, the version id asked for (or null), whether a
     * delete marker was made or deleted, and the marker's version id when one was made.
     */
    public record Deleted(String key, String versionId, boolean deleteMarker, String markerVersionId) {}

    public void delete(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        DeleteConditions conditions;
        String versionId;
        try {
            conditions = DeleteConditions.parse(call.headers().get("If-Match"),
                    call.headers().get("x-amz-if-match-last-modified-time"), call.headers().get("x-amz-if-match-size"));
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        buckets.find(call.bucket).thenCompose(b -> one(b, call.key, name, versionId, conditions, objectLock.bypass(call, b)))
                .whenComplete((d, t) -> call.later(() -> {
                    if (t != null) {
                        call.fail(S3Objects.writeFailure(call, NodeStore.cause(t)));
                        return;
                    }
                    if (d.deleteMarker()) {
                        call.ex.header("x-amz-delete-marker", "true");
                    }
                    String shown = d.versionId() != null ? d.versionId() : d.markerVersionId();
                    if (shown != null) {
                        call.ex.header("x-amz-version-id", shown);
                    }
                    call.empty(204); // S3 answers 204 whether or not the key existed
                }));
    }

    /**
     * One delete: a tombstone (a delete marker when the bucket's versioning was set), or with
     * {@code versionId} a purge. A key or version that is not there is deleted already. With
     * conditions ({@link DeleteConditions}) the current version is read and decided on first, and the
     * tombstone is stored only if the current version's ETag is still the one decided on (the name's
     * owner region checks it, as for If-Match on a PUT).
     */
    private CompletableFuture<Deleted> one(BucketMeta b, String key, String name, String versionId,
            DeleteConditions conditions, boolean bypass) {
        if (versionId != null) {
            return purge(b, key, name, versionId, conditions, bypass);
        }
        if (!conditions.any()) {
            return tombstone(b, key, name, WriteCondition.NONE);
        }
        return versioning.versions(name).thenCompose(vs -> {
            List<ObjectVersions.V> shown = ObjectVersions.visible(key, vs, b.versioning());
            ObjectVersions.V head = shown.isEmpty() || !shown.get(0).latest() ? null : shown.get(0);
            WriteCondition unchanged;
            try {
                unchanged = head == null || head.deleteMarker() ? WriteCondition.NONE
                        : Preconditions.write(head.etag() == null ? "*" : ETags.quote(head.etag()), null);
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
            return switch (conditions.decide(head)) {
                case GONE -> CompletableFuture.completedFuture(new Deleted(key, null, false, null));
                case FAILED -> throw new CompletionException(new S3Exception(S3Error.PRECONDITION_FAILED,
                        "the current version of '" + key + "' does not meet the delete's conditions"));
                case PASSED -> tombstone(b, key, name, unchanged);
            };
        });
    }

    private CompletableFuture<Deleted> tombstone(BucketMeta b, String key, String name, WriteCondition condition) {
        // in a bucket with versioning Enabled a delete marker is a version in its own right: kept, and made
        // even when the key has no live version (the node stores a tombstone marked keep in any case)
        return store.delete(name, condition, ObjectVersions.marks(b.versioning())).handle((w, t) -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    return new Deleted(key, null, false, null); // nothing there: deleted already
                }
                throw new CompletionException(c);
            }
            boolean marker = b.versioning() != ObjectVersions.Status.OFF; // the tombstone is the delete marker
            return new Deleted(key, null, marker, marker ? w.version() : null);
        });
    }

    /**
     * Purges the version(s) {@code versionId} names; If-Match is checked against that version's ETag, and
     * the versions' object lock ({@link S3ObjectLock#deleteRefusal}: AccessDenied while retained or held).
     */
    private CompletableFuture<Deleted> purge(BucketMeta b, String key, String name, String versionId,
            DeleteConditions conditions, boolean bypass) {
        return versioning.versions(name).thenCompose(vs -> {
            ObjectVersions.Purge p = ObjectVersions.purge(key, vs, b.versioning(), versionId);
            if (p == null) {
                return CompletableFuture.completedFuture(new Deleted(key, versionId, false, null));
            }
            if (conditions.decide(p.shown()) == DeleteConditions.Verdict.FAILED) {
                throw new CompletionException(new S3Exception(S3Error.PRECONDITION_FAILED,
                        "version '" + versionId + "' of '" + key + "' does not meet the delete's conditions"));
            }
            CompletableFuture<Void> all = objectLock.deleteRefusal(b, key, vs, p.nodeVersions(), bypass).thenAccept(refused -> {
                if (refused != null) {
                    throw new CompletionException(new S3Exception(S3Error.ACCESS_DENIED,
                            "version '" + versionId + "' of '" + key + "' cannot be deleted: " + refused));
                }
            });
            for (String node : p.nodeVersions()) {
                all = all.thenCompose(x -> store.purge(name, node).handle((w, t) -> {
                    Throwable c = t == null ? null : NodeStore.cause(t);
                    if (c != null && !(c instanceof NodeStore.StoreException s && s.notFound())) {
                        throw new CompletionException(c);
                    }
                    return null;
                }));
            }
            return all.thenApply(x -> new Deleted(key, versionId, p.shown().deleteMarker(), null));
        });
    }

    /** DeleteObjects ({@code POST /BUCKET?delete}): up to 1000 keys, deleted {@value #DELETE_BATCH} at a time. */
    public void deleteMany(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            S3Xml.DeleteRequest req;
            try {
                req = S3Xml.deleteObjects(body);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            Deleted[] done = new Deleted[req.keys().size()];
            List<String[]> errors = Collections.synchronizedList(new ArrayList<>());
            buckets.find(call.bucket).thenCompose(b -> batch(call, b, req, 0, done, errors, objectLock.bypass(call, b)))
                    .whenComplete((v, t) -> call.later(() -> {
                        if (t != null) {
                            call.fail(t);
                            return;
                        }
                        List<Deleted> deleted = new ArrayList<>();
                        for (Deleted d : done) { // in the order the request listed them
                            if (d != null) {
                                deleted.add(d);
                            }
                        }
                        call.xml(200, S3Xml.deleteResult(req.quiet() ? List.of() : deleted, errors));
                    }));
        }));
        call.ex.sendContinue();
    }

    private CompletableFuture<Void> batch(S3Call call, BucketMeta bucket, S3Xml.DeleteRequest req, int from,
            Deleted[] done, List<String[]> errors, boolean bypass) {
        List<String> keys = req.keys();
        if (from >= keys.size()) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<?>> batch = new ArrayList<>();
        for (int i = from; i < Math.min(keys.size(), from + DELETE_BATCH); i++) {
            String key = keys.get(i);
            String version = req.versionId(i);
            DeleteConditions conditions;
            try {
                S3Exception bad = S3Names.keyProblem(call.bucket, key);
                if (bad != null) {
                    throw bad;
                }
                version = version == null ? null : ObjectVersions.parseId(version);
                conditions = DeleteConditions.parse(req.etag(i), req.modified(i), req.size(i));
            } catch (S3Exception e) {
                errors.add(new String[] {key, e.error().code(), e.getMessage(), req.versionId(i)});
                continue;
            }
            int at = i;
            batch.add(one(bucket, key, S3Names.fileName(call.bucket, key), version, conditions, bypass).handle((d, t) -> {
                if (t == null) {
                    done[at] = d;
                    return null;
                }
                Throwable c = S3Objects.writeFailure(call, NodeStore.cause(t));
                if (c instanceof S3Exception e && e.error() == S3Error.NO_SUCH_KEY) {
                    done[at] = new Deleted(key, req.versionId(at), false, null);
                } else if (c instanceof S3Exception e) {
                    errors.add(new String[] {key, e.error().code(), e.getMessage(), req.versionId(at)});
                } else {
                    errors.add(new String[] {key, S3Error.INTERNAL_ERROR.code(), String.valueOf(c.getMessage()), req.versionId(at)});
                }
                return null;
            }));
        }
        return CompletableFuture.allOf(batch.toArray(new CompletableFuture[0]))
                .thenCompose(v -> batch(call, bucket, req, from + DELETE_BATCH, done, errors, bypass));
    }
}
