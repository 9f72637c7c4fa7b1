package geoblocks.node.s3.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectOwnershipTest {
    static final ObjectOwnership ENFORCED = ObjectOwnership.BUCKET_OWNER_ENFORCED;

    static S3Exception refusal(ObjectOwnership o, Map<String, String> headers, boolean object, boolean body) {
        return ObjectOwnership.aclRefusal(o, headers::get, object, body);
    }

    @Test
    void enforced_refusesEveryAcl_butBucketOwnerFullControlOnObjects() {
        assertNull(refusal(ENFORCED, Map.of(), true, false));
        assertNull(refusal(ENFORCED, Map.of("x-amz-acl", "bucket-owner-full-control"), true, false));
        assertEquals(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED, refusal(ENFORCED, Map.of("x-amz-acl", "private"), true, false).error());
        assertEquals(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED,
                refusal(ENFORCED, Map.of("x-amz-grant-read", "id=x"), true, false).error());
        assertEquals(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED, refusal(ENFORCED, Map.of(), true, true).error()); // an XML body
        assertEquals(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED,
                refusal(ENFORCED, Map.of("x-amz-acl", "bucket-owner-full-control"), false, false).error()); // PutBucketAcl
    }

    @Test
    void otherSettings_keepAcls() {
        for (ObjectOwnership o : new ObjectOwnership[] {null, ObjectOwnership.OBJECT_WRITER, ObjectOwnership.BUCKET_OWNER_PREFERRED}) {
            assertNull(refusal(o, Map.of("x-amz-acl", "public-read"), true, false));
            assertNull(refusal(o, Map.of(), false, true));
            assertTrue(ObjectOwnership.allowedWith(o, new S3Access.Acl(List.of(new S3Access.Grant(S3Access.ALL_USERS, S3Access.Perm.READ)))));
        }
    }

    @Test
    void enforced_needsAnAclGrantingNothing() {
        assertTrue(ObjectOwnership.allowedWith(ENFORCED, S3Access.Acl.PRIVATE));
        assertFalse(ObjectOwnership.allowedWith(ENFORCED, new S3Access.Acl(List.of(new S3Access.Grant(S3Access.ALL_USERS, S3Access.Perm.READ)))));
    }

    @Test
    void document_andRecord_roundTrip() throws Exception {
        for (ObjectOwnership o : ObjectOwnership.values()) {
            assertEquals(o, ObjectOwnership.fromXml(o.toXml()));
            BucketMeta b = new BucketMeta("b", "seoul", "local", 1 << 20, false, 1L)
                    .withAccess(new BucketAccess("KEY", S3Access.Acl.PRIVATE, S3Access.PublicAccessBlock.NONE, o));
            assertEquals(o, BucketMeta.decode("b", b.encode()).access().ownership());
        }
        assertNull(BucketMeta.decode("b", new BucketMeta("b", "seoul", "local", 1 << 20, false, 1L)
                .withAccess(new BucketAccess("KEY", S3Access.Acl.PRIVATE, S3Access.PublicAccessBlock.NONE)).encode()).access().ownership());
        for (String bad : new String[] {"<OwnershipControls/>", "<OwnershipControls><Rule><ObjectOwnership>Nobody</ObjectOwnership></Rule></OwnershipControls>",
                "<OwnershipControls><Rule/></OwnershipControls>"}) {
            S3Exception e = assertThrows(S3Exception.class, () -> ObjectOwnership.fromXml(bad.getBytes(StandardCharsets.UTF_8)), bad);
            assertEquals(S3Error.MALFORMED_XML, e.error(), bad);
        }
    }
}
