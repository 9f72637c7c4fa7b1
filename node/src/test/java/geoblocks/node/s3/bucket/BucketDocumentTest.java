package geoblocks.node.s3.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.access.BucketAccess;
import geoblocks.node.s3.access.BucketPolicy;
import geoblocks.node.s3.access.ObjectOwnership;
import geoblocks.node.s3.access.S3Access;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.access.S3Ownership;
import geoblocks.node.s3.access.S3Policies;
import geoblocks.node.s3.lock.ObjectLock;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The bucket settings served by the one generic handler ({@link BucketDocuments}): what each reads from a PUT's body,
 * what it refuses given the bucket's record, what a GET of none answers, and (for those kept in the bucket's record)
 * what counts as none. The calls themselves run in S3GatewayIT and the S3 compatibility suite.
 */
class BucketDocumentTest {
    private static final String OWNER = "GBOWNER";
    private static final BucketMeta BUCKET = new BucketMeta("bkt", "dublin", "localclosest", 1 << 20, false, 1234)
            .withAccess(BucketAccess.legacy(false).withAcl(acl("private")));

    private static S3Access.Acl acl(String canned) {
        try {
            return S3Access.canned(canned, OWNER);
        } catch (S3Exception e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ownershipControls_bucketOwnerEnforced_isRefusedWhileTheAclGrants() throws S3Exception {
        BucketDocument<ObjectOwnership> d = new S3Ownership(null).document();
        ObjectOwnership enforced = d.parser().parse(utf8("<OwnershipControls><Rule><ObjectOwnership>BucketOwnerEnforced"
                + "</ObjectOwnership></Rule></OwnershipControls>"), "bkt");
        assertEquals(ObjectOwnership.BUCKET_OWNER_ENFORCED, enforced);
        assertNull(d.check().refusal(BUCKET, enforced));
        BucketMeta shared = BUCKET.withAccess(BUCKET.access().withAcl(acl("public-read")));
        assertEquals(S3Error.INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP, d.check().refusal(shared, enforced).error());
        assertNull(d.check().refusal(shared, null), "a DELETE is never refused");
        assertNull(d.check().refusal(shared, ObjectOwnership.OBJECT_WRITER));
        assertNull(d.storage().read(BUCKET).join(), "none set");
        assertEquals("ownership controls", d.what());
        assertEquals(S3Error.OWNERSHIP_CONTROLS_NOT_FOUND, d.missing());
    }

    @Test
    void publicAccessBlock_allOff_isNone() throws S3Exception {
        BucketDocument<S3Access.PublicAccessBlock> d = new S3Acls(null, null, null, OWNER).publicAccessBlock();
        assertNull(d.storage().read(BUCKET).join());
        S3Access.PublicAccessBlock block = d.parser().parse(utf8("<PublicAccessBlockConfiguration><BlockPublicPolicy>true"
                + "</BlockPublicPolicy></PublicAccessBlockConfiguration>"), "bkt");
        assertEquals(new S3Access.PublicAccessBlock(false, false, true, false), block);
        BucketMeta blocked = BUCKET.withAccess(BUCKET.access().withBlock(block));
        assertEquals(block, d.storage().read(blocked).join());
        assertArrayEquals(d.render().apply(block), d.render().apply(d.parser().parse(d.render().apply(block), "bkt")),
                "a GET's document reads back as the same setting");
        assertEquals(S3Error.NO_SUCH_PUBLIC_ACCESS_BLOCK, d.missing());
    }

    @Test
    void policy_public_isRefusedUnderBlockPublicPolicy() throws S3Exception {
        BucketDocument<BucketPolicy> d = new S3Policies(null, null, null, () -> 0L).document();
        BucketPolicy everyone = d.parser().parse(utf8("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::bkt/*\"}]}"), "bkt");
        assertNull(d.check().refusal(BUCKET, everyone));
        BucketMeta blocked = BUCKET.withAccess(BUCKET.access().withBlock(new S3Access.PublicAccessBlock(false, false, true, false)));
        S3Exception refused = d.check().refusal(blocked, everyone);
        assertEquals(S3Error.ACCESS_DENIED, refused.error());
        assertEquals("the bucket's PublicAccessBlock (BlockPublicPolicy) refuses policies that grant to everyone", refused.getMessage());
        assertNull(d.check().refusal(blocked, null), "a DELETE is never refused");
        assertEquals(S3Error.MALFORMED_POLICY, assertThrows(S3Exception.class, () -> d.parser().parse(utf8("not json"), "bkt")).error());
        assertEquals("application/json", d.contentType());
        assertEquals(204, d.putStatus(), "PutBucketPolicy answers 204, as S3");
    }

    @Test
    void objectLockConfiguration_needsVersioningEnabled_unlessTheBucketHasOne() throws S3Exception {
        BucketDocument<ObjectLock.Config> d = new S3ObjectLock(null, null, null, new ObjectLock(() -> 0L), b -> OWNER).config();
        ObjectLock.Config c = d.parser().parse(utf8("<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled>"
                + "</ObjectLockConfiguration>"), "bkt");
        S3Exception refused = d.check().refusal(BUCKET, c);
        assertEquals(S3Error.INVALID_BUCKET_STATE, refused.error());
        assertNull(d.check().refusal(BUCKET.withVersioning(ObjectVersions.Status.ENABLED), c));
        assertNull(d.check().refusal(BUCKET.withObjectLock(ObjectLock.Config.ENABLED), c), "a bucket created with object lock");
        assertNull(d.storage().read(BUCKET).join());
        assertEquals(c, d.storage().read(BUCKET.withObjectLock(c)).join());
        assertEquals(S3Error.OBJECT_LOCK_CONFIGURATION_NOT_FOUND, d.missing());
    }

    @Test
    void sideRecordDocuments_parseWhatTheyWriteBack() throws S3Exception {
        BucketDocument<CorsConfig> cors = new S3Cors(null, null, () -> 0L).document();
        CorsConfig c = cors.parser().parse(utf8("<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod>"
                + "<AllowedOrigin>*</AllowedOrigin></CORSRule></CORSConfiguration>"), "bkt");
        assertArrayEquals(cors.render().apply(c), cors.render().apply(cors.parser().parse(cors.render().apply(c), "bkt")));
        assertEquals(S3Error.NO_SUCH_CORS_CONFIGURATION, cors.missing());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> cors.parser().parse(utf8("<x"), "bkt")).error());
        assertEquals(200, cors.putStatus());
    }
}
