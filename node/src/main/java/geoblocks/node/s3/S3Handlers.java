package geoblocks.node.s3;

import geoblocks.net.ClusterConfig;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.access.S3Authorizer;
import geoblocks.node.s3.access.S3Ownership;
import geoblocks.node.s3.access.S3Policies;
import geoblocks.node.s3.auth.S3KeyStore;
import geoblocks.node.s3.body.BodyReceiver;
import geoblocks.node.s3.body.SpoolSpace;
import geoblocks.node.s3.bucket.BucketDocuments;
import geoblocks.node.s3.bucket.S3Cors;
import geoblocks.node.s3.bucket.S3Lifecycle;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.lock.ObjectLock;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.migration.Migration;
import geoblocks.node.s3.migration.MigrationSweep;
import geoblocks.node.s3.multipart.MultipartJournal;
import geoblocks.node.s3.multipart.MultipartUploads;
import geoblocks.node.s3.multipart.S3Multipart;
import geoblocks.node.s3.multipart.S3UploadListings;
import geoblocks.node.s3.object.S3Attributes;
import geoblocks.node.s3.object.S3Copy;
import geoblocks.node.s3.object.S3Deletes;
import geoblocks.node.s3.object.S3Objects;
import geoblocks.node.s3.object.S3Tagging;
import geoblocks.node.s3.post.S3PostObject;
import geoblocks.node.s3.versioning.S3Versioning;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's handlers, one per concern, wired together, and the one switch that sends each {@link S3Operation} to
 * its handler ({@link #dispatch}): where any S3 operation is served is found here by its name.
 */
final class S3Handlers {
    private static final Logger LOG = LoggerFactory.getLogger(S3Handlers.class);
    private final S3Buckets buckets;
    private final S3Objects objects;
    private final S3Deletes deletes;
    private final S3Lifecycle lifecycle;
    private final S3Multipart multipart;
    private final S3Versioning versioning;
    private final S3Tagging tagging;
    private final S3Attributes attributes;
    private final S3Acls acls;
    private final S3Authorizer authorizer;
    private final S3UploadListings uploadListings;
    private final S3Policies policies;
    private final S3Encryption encryption;
    private final S3ObjectLock objectLock;
    private final S3Ownership ownership;
    private final S3PostObject postObject;
    private final S3Cors cors;
    private final BucketDocuments documents;

    S3Handlers(S3Settings settings, ClusterConfig cluster, NodeStore store, S3KeyStore keys, LongSupplier clock) throws IOException {
        // multipart uploads in progress survive a restart: their journals and parts stay, the rest of the spool goes
        List<String> damaged = new ArrayList<>();
        List<MultipartJournal.Recovered> recovered = new MultipartJournal(settings.spoolDir()).recoverSpool(damaged);
        if (!recovered.isEmpty() || !damaged.isEmpty()) {
            LOG.info("{}: {} multipart upload(s) in progress resumed from the spool{}", settings.region(), recovered.size(),
                    damaged.isEmpty() ? "" : "; unreadable journals dropped: " + damaged);
        }
        SecureRandom random = new SecureRandom();
        MultipartUploads uploads = new MultipartUploads(() -> {
            byte[] b = new byte[16];
            random.nextBytes(b);
            return settings.region() + "." + HexFormat.of().formatHex(b); // the region: where its parts are
        });
        this.buckets = new S3Buckets(store, settings, cluster.regionIds(), clock);
        Migration migration = new Migration(store, cluster.rtt(), cluster.regionIds(), settings.migratedCopies(),
                new MigrationSweep(settings.region(), clock, settings.migrationRetryMin().toMillis(),
                        settings.migrationRetryMax().toMillis()));
        migration.sweepEvery(settings.migrationSweepInterval());
        SpoolSpace spool = settings.spoolSpace(clock);
        BodyReceiver receiver = new BodyReceiver(settings, spool);
        this.versioning = new S3Versioning(store, buckets);
        this.objectLock = new S3ObjectLock(store, buckets, versioning, new ObjectLock(clock),
                b -> b.access().ownerOr(settings.accessKey()));
        this.ownership = new S3Ownership(buckets);
        this.objects = new S3Objects(store, settings, buckets, receiver, migration, versioning, clock);
        objects.objectLock(objectLock);
        this.deletes = new S3Deletes(store, buckets, versioning, objectLock);
        this.multipart = new S3Multipart(store, settings, buckets, uploads, objects, receiver, clock);
        multipart.restore(recovered);
        this.uploadListings = new S3UploadListings(uploads, buckets);
        this.tagging = new S3Tagging(store, buckets, versioning);
        objects.tagging(tagging);
        this.encryption = new S3Encryption(settings.sse(), buckets);
        S3Copy copier = new S3Copy(store, settings, buckets, versioning, objects, encryption, clock);
        copier.tagging(tagging);
        objects.copyAndEncryption(copier, encryption);
        multipart.encryption(encryption);
        multipart.tagging(tagging);
        multipart.versioning(versioning);
        multipart.objectLock(objectLock);
        this.attributes = new S3Attributes(store, buckets, versioning, encryption);
        this.acls = new S3Acls(store, buckets, keys, settings.accessKey());
        buckets.displayNames(keys::displayName);
        objects.afterPut(acls::afterPut);
        this.lifecycle = new S3Lifecycle(store, buckets, versioning, tagging, multipart, settings.region(), cluster.regionIds(),
                clock, settings.lifecycleDay());
        lifecycle.objectLock(objectLock);
        lifecycle.runEvery(settings.lifecycleInterval());
        this.cors = new S3Cors(store, buckets, clock);
        this.documents = new BucketDocuments(buckets);
        this.policies = new S3Policies(store, buckets, tagging, clock);
        this.postObject = new S3PostObject(settings, buckets, objects, keys, acls, policies, encryption, clock, spool);
        this.authorizer = new S3Authorizer(buckets, acls, policies);
    }

    S3Cors cors() {
        return cors;
    }

    S3Authorizer authorizer() {
        return authorizer;
    }

    S3Buckets buckets() {
        return buckets;
    }

    /**
     * Calls the handler of the request's operation ({@link S3Router#parse}), or answers the error a request that is
     * no operation served here gets: the one place each S3 operation is sent to its handler.
     */
    void dispatch(S3Call call) {
        S3Router.Route route = call.route;
        if (!route.served()) {
            call.fail(route.error(), route.message());
            return;
        }
        switch (route.operation()) {
            case ListBuckets -> buckets.listBuckets(call);
            case PreflightCors -> cors.preflight(call); // unsigned, answered before authorization (handle)
            case PostObject -> postObject.post(call); // the form carries its own signature (proceed)
            case CreateBucket -> buckets.create(call);
            case HeadBucket -> buckets.head(call);
            case DeleteBucket -> buckets.delete(call);
            case ListObjects, ListObjectsV2 -> buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
                if (t != null) {
                    call.fail(t);
                } else {
                    buckets.listObjects(call);
                }
            }));
            case ListObjectVersions -> versioning.list(call);
            case ListMultipartUploads -> uploadListings.listUploads(call);
            case GetBucketLocation -> buckets.location(call);
            case DeleteObjects -> deletes.deleteMany(call);
            case GetBucketVersioning -> versioning.get(call);
            case PutBucketVersioning -> versioning.put(call);
            case GetBucketAcl, GetObjectAcl -> acls.getAcl(call);
            case PutBucketAcl, PutObjectAcl -> acls.putAcl(call);
            case GetBucketTagging -> tagging.getBucket(call);
            case PutBucketTagging -> tagging.putBucket(call);
            case DeleteBucketTagging -> tagging.deleteBucket(call);
            // the bucket settings that are one document each: one generic handler (BucketDocuments)
            case GetBucketLifecycleConfiguration -> documents.get(call, lifecycle.document());
            case PutBucketLifecycleConfiguration -> documents.put(call, lifecycle.document());
            case DeleteBucketLifecycle -> documents.delete(call, lifecycle.document());
            case GetBucketEncryption -> documents.get(call, encryption.document());
            case PutBucketEncryption -> documents.put(call, encryption.document());
            case DeleteBucketEncryption -> documents.delete(call, encryption.document());
            case GetBucketCors -> documents.get(call, cors.document());
            case PutBucketCors -> documents.put(call, cors.document());
            case DeleteBucketCors -> documents.delete(call, cors.document());
            case GetPublicAccessBlock -> documents.get(call, acls.publicAccessBlock());
            case PutPublicAccessBlock -> documents.put(call, acls.publicAccessBlock());
            case DeletePublicAccessBlock -> documents.delete(call, acls.publicAccessBlock());
            case GetBucketPolicy -> documents.get(call, policies.document());
            case PutBucketPolicy -> documents.put(call, policies.document());
            case DeleteBucketPolicy -> documents.delete(call, policies.document());
            case GetObjectLockConfiguration -> documents.get(call, objectLock.config());
            case PutObjectLockConfiguration -> documents.put(call, objectLock.config());
            case GetBucketOwnershipControls -> documents.get(call, ownership.document());
            case PutBucketOwnershipControls -> documents.put(call, ownership.document());
            case DeleteBucketOwnershipControls -> documents.delete(call, ownership.document());
            case GetBucketPolicyStatus -> policies.status(call);
            case GetObject, HeadObject -> objects.get(call);
            case PutObject, CopyObject -> objects.put(call); // a copy: x-amz-copy-source (S3Copy)
            case DeleteObject -> deletes.delete(call);
            case GetObjectAttributes -> attributes.get(call);
            case GetObjectTagging -> tagging.getObject(call);
            case PutObjectTagging -> tagging.putObject(call);
            case DeleteObjectTagging -> tagging.deleteObject(call);
            case GetObjectRetention -> objectLock.getRetention(call);
            case PutObjectRetention -> objectLock.putRetention(call);
            case GetObjectLegalHold -> objectLock.getLegalHold(call);
            case PutObjectLegalHold -> objectLock.putLegalHold(call);
            case CreateMultipartUpload -> multipart.createMultipart(call);
            case UploadPart, UploadPartCopy -> multipart.uploadPart(call); // a copy: x-amz-copy-source
            case CompleteMultipartUpload -> multipart.completeMultipart(call);
            case AbortMultipartUpload -> multipart.abortMultipart(call);
            case ListParts -> uploadListings.listParts(call);
        }
    }
}
