package geoblocks.node.s3.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.access.S3Access.Acl;
import geoblocks.node.s3.access.S3Access.Grant;
import geoblocks.node.s3.access.S3Access.Perm;
import geoblocks.node.s3.access.S3Access.PublicAccessBlock;
import geoblocks.node.s3.access.S3Authorization.Kind;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class S3AccessTest {
    static final String OWNER = "GBOWNER0000000000000";
    static final String ALT = "GBALT000000000000000";
    static final PublicAccessBlock NONE = PublicAccessBlock.NONE;

    @Test
    void owner_may_do_anything_others_nothing_on_private() {
        for (Perm p : Perm.values()) {
            assertTrue(S3Access.allowed(OWNER, OWNER, Acl.PRIVATE, p, NONE));
            assertFalse(S3Access.allowed(ALT, OWNER, Acl.PRIVATE, p, NONE));
            assertFalse(S3Access.allowed(null, OWNER, Acl.PRIVATE, p, NONE));
        }
    }

    @Test
    void canned_acls_grant_what_s3_says() throws S3Exception {
        Acl pr = S3Access.canned("public-read", OWNER);
        assertTrue(S3Access.allowed(null, OWNER, pr, Perm.READ, NONE));
        assertTrue(S3Access.allowed(ALT, OWNER, pr, Perm.READ, NONE));
        assertFalse(S3Access.allowed(null, OWNER, pr, Perm.WRITE, NONE));
        assertFalse(S3Access.allowed(ALT, OWNER, pr, Perm.READ_ACP, NONE));
        Acl prw = S3Access.canned("public-read-write", OWNER);
        assertTrue(S3Access.allowed(null, OWNER, prw, Perm.WRITE, NONE));
        Acl ar = S3Access.canned("authenticated-read", OWNER);
        assertTrue(S3Access.allowed(ALT, OWNER, ar, Perm.READ, NONE));
        assertFalse(S3Access.allowed(null, OWNER, ar, Perm.READ, NONE));
        assertEquals(Acl.PRIVATE, S3Access.canned("bucket-owner-full-control", OWNER));
        assertEquals(S3Error.NOT_IMPLEMENTED, assertThrows(S3Exception.class, () -> S3Access.canned("log-delivery-write", OWNER)).error());
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> S3Access.canned("bogus", OWNER)).error());
    }

    @Test
    void grants_to_a_key_and_full_control_implies_all() {
        Acl acl = new Acl(List.of(new Grant(ALT, Perm.FULL_CONTROL)));
        for (Perm p : Perm.values()) {
            assertTrue(S3Access.allowed(ALT, OWNER, acl, p, NONE));
            assertFalse(S3Access.allowed("GBOTHER0000000000000", OWNER, acl, p, NONE));
        }
        Acl readAcp = new Acl(List.of(new Grant(ALT, Perm.READ_ACP)));
        assertTrue(S3Access.allowed(ALT, OWNER, readAcp, Perm.READ_ACP, NONE));
        assertFalse(S3Access.allowed(ALT, OWNER, readAcp, Perm.READ, NONE));
    }

    @Test
    void public_access_block_ignores_and_blocks_public_grants() throws S3Exception {
        Acl pr = S3Access.canned("public-read", OWNER);
        PublicAccessBlock ignore = new PublicAccessBlock(false, true, false, false);
        assertFalse(S3Access.allowed(null, OWNER, pr, Perm.READ, ignore));
        assertFalse(S3Access.allowed(ALT, OWNER, pr, Perm.READ, ignore));
        assertTrue(S3Access.allowed(OWNER, OWNER, pr, Perm.READ, ignore));
        Acl keyGrant = new Acl(List.of(new Grant(ALT, Perm.READ)));
        assertTrue(S3Access.allowed(ALT, OWNER, keyGrant, Perm.READ, ignore), "a key's grant is not public");
        PublicAccessBlock block = new PublicAccessBlock(true, false, false, false);
        assertNotNull(S3Access.refusal(pr, block));
        assertNull(S3Access.refusal(keyGrant, block));
        assertNull(S3Access.refusal(pr, NONE));
        assertEquals("1001", new PublicAccessBlock(true, false, false, true).encode());
        assertEquals(new PublicAccessBlock(true, false, false, true), PublicAccessBlock.decode("1001"));
    }

    @Test
    void acl_encoding_round_trips() throws S3Exception {
        for (String c : List.of("private", "public-read", "public-read-write", "authenticated-read")) {
            assertEquals(c, S3Access.canned(c, OWNER).encode());
            assertEquals(S3Access.canned(c, OWNER), Acl.decode(c));
        }
        Acl mixed = new Acl(List.of(new Grant(ALT, Perm.READ), new Grant(S3Access.ALL_USERS, Perm.READ_ACP)));
        assertEquals(mixed, Acl.decode(mixed.encode()));
        assertEquals(Acl.PRIVATE, Acl.decode(null));
    }

    @Test
    void grant_headers_parse() throws S3Exception {
        Map<String, String> h = Map.of("x-amz-grant-read", "id=\"" + ALT + "\", uri=\"" + S3Access.ALL_USERS_URI + "\"",
                "x-amz-grant-write-acp", "id=" + ALT);
        Acl acl = S3Access.grantHeaders(h::get);
        assertEquals(List.of(new Grant(ALT, Perm.READ), new Grant(S3Access.ALL_USERS, Perm.READ), new Grant(ALT, Perm.WRITE_ACP)),
                acl.grants());
        assertNull(S3Access.grantHeaders(n -> null));
        assertEquals(S3Error.NOT_IMPLEMENTED, assertThrows(S3Exception.class,
                () -> S3Access.grantHeaders(Map.of("x-amz-grant-read", "emailAddress=a@b.c")::get)).error());
    }

    @Test
    void acl_xml_round_trips_and_refuses_another_owner() throws S3Exception {
        Acl acl = new Acl(List.of(new Grant(ALT, Perm.WRITE), new Grant(S3Access.AUTHENTICATED, Perm.READ)));
        byte[] xml = AclXml.policy(OWNER, id -> "name-" + id, acl);
        String s = new String(xml);
        assertTrue(s.contains("<ID>" + OWNER + "</ID>") && s.contains("FULL_CONTROL") && s.contains(S3Access.AUTHENTICATED_URI), s);
        assertEquals(acl, AclXml.parsePolicy(xml, OWNER), "the owner's own grant is implied");
        assertEquals(S3Error.ACCESS_DENIED, assertThrows(S3Exception.class, () -> AclXml.parsePolicy(xml, ALT)).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                () -> AclXml.parsePolicy("<AccessControlPolicy><AccessControlList><Grant/></AccessControlList></AccessControlPolicy>"
                        .getBytes(), OWNER)).error());
        PublicAccessBlock b = new PublicAccessBlock(true, true, false, true);
        assertEquals(b, AclXml.parsePublicAccessBlock(AclXml.publicAccessBlock(b)));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> AclXml.parsePublicAccessBlock(
                "<PublicAccessBlockConfiguration><BlockPublicAcls>yes</BlockPublicAcls></PublicAccessBlockConfiguration>".getBytes())).error());
    }

    @Test
    void what_each_request_needs() {
        assertEquals(Kind.NONE, S3Authorization.need("GET", null, null, Set.of(), false).kind());
        assertEquals(Kind.NONE, S3Authorization.need("PUT", "b", null, Set.of(), false).kind());
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.READ), S3Authorization.need("GET", "b", null, Set.of("list-type", "prefix"), false));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.READ), S3Authorization.need("HEAD", "b", null, Set.of(), false));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.READ_ACP), S3Authorization.need("GET", "b", null, Set.of("acl"), false));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.WRITE_ACP), S3Authorization.need("PUT", "b", null, Set.of("acl"), false));
        assertEquals(Kind.OWNER, S3Authorization.need("PUT", "b", null, Set.of("versioning"), false).kind());
        assertEquals(Kind.OWNER, S3Authorization.need("GET", "b", null, Set.of("publicAccessBlock"), false).kind());
        assertEquals(Kind.OWNER, S3Authorization.need("DELETE", "b", null, Set.of(), false).kind());
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.WRITE), S3Authorization.need("POST", "b", null, Set.of("delete"), false));
        assertEquals(new S3Authorization.Need(Kind.OBJECT, Perm.READ), S3Authorization.need("GET", "b", "k", Set.of(), false));
        assertEquals(new S3Authorization.Need(Kind.OBJECT, Perm.READ), S3Authorization.need("HEAD", "b", "k", Set.of("versionId"), false));
        assertEquals(new S3Authorization.Need(Kind.OBJECT, Perm.WRITE_ACP), S3Authorization.need("PUT", "b", "k", Set.of("acl"), false));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.WRITE), S3Authorization.need("PUT", "b", "k", Set.of(), true));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.WRITE), S3Authorization.need("DELETE", "b", "k", Set.of(), false));
        assertEquals(new S3Authorization.Need(Kind.BUCKET, Perm.WRITE), S3Authorization.need("GET", "b", "k", Set.of("uploadId"), false));
        // an object's retention, legal hold and tags change only by the owner or a policy's Allow: no ACL grants it
        for (String sub : List.of("retention", "legal-hold", "tagging")) {
            assertEquals(Kind.POLICY, S3Authorization.need("PUT", "b", "k", Set.of(sub), false).kind(), sub);
            assertEquals(Kind.POLICY, S3Authorization.need("PUT", "b", "k", Set.of(sub, "versionId"), false).kind(), sub);
        }
        assertEquals(Kind.POLICY, S3Authorization.need("DELETE", "b", "k", Set.of("tagging"), false).kind());
        assertEquals(Kind.OBJECT, S3Authorization.need("GET", "b", "k", Set.of("tagging"), false).kind());
        assertEquals("s3:PutObjectRetention", S3Authorization.action("PUT", "k", Set.of("retention")));
    }

    @Test
    void bucket_records_keep_owner_acl_and_block() throws IOException, S3Exception {
        BucketMeta legacy = new BucketMeta("bkt", "dublin", "localclosest", 1 << 20, true, 1234);
        assertNull(legacy.access().owner());
        assertEquals("root", legacy.access().ownerOr("root"));
        assertTrue(legacy.access().acl().isPublic());
        assertEquals(legacy, BucketMeta.decode("bkt", legacy.encode()));
        assertFalse(new String(legacy.encode()).contains("acl="), "a record of before keeps its form");
        BucketMeta owned = legacy.withAccess(new BucketAccess(OWNER, new Acl(List.of(new Grant(ALT, Perm.WRITE))),
                new PublicAccessBlock(false, true, false, false)));
        assertFalse(owned.publicRead());
        BucketMeta back = BucketMeta.decode("bkt", owned.encode());
        assertEquals(owned, back);
        assertEquals(OWNER, back.access().owner());
        assertTrue(back.withAccess(back.access().withAcl(S3Access.canned("public-read", OWNER))).publicRead());
    }
}
