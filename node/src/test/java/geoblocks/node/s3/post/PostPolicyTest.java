package geoblocks.node.s3.post;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The POST object policy: parsing, conditions, expiry (a fixed clock), signatures against vectors from Python's hmac. */
class PostPolicyTest {
    static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

    static String b64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static final String POLICY = b64("{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[{\"bucket\":\"b\"},"
            + "[\"starts-with\",\"$key\",\"foo\"],{\"acl\":\"private\"},[\"StArTs-WiTh\",\"$Content-Type\",\"text/\"],"
            + "[\"content-length-range\",0,1024]]}");

    static Map<String, String> form() {
        Map<String, String> f = new HashMap<>(Map.of("bucket", "b", "key", "foo.txt", "acl", "private",
                "content-type", "text/plain", "policy", POLICY, "awsaccesskeyid", "k", "signature", "s"));
        return f;
    }

    static S3Error refused(PostPolicy p, Map<String, String> f, long size, long now) {
        return assertThrows(S3Exception.class, () -> p.check(f, size, now)).error();
    }

    @Test
    void aMatchingFormPasses() throws Exception {
        PostPolicy p = PostPolicy.parse(POLICY);
        assertDoesNotThrow(() -> p.check(form(), 3, NOW));
        Map<String, String> f = form();
        f.put("x-ignore-foo", "bar"); // x-ignore-* need no condition
        assertDoesNotThrow(() -> p.check(f, 1024, NOW));
        // ["starts-with", "$field", ""]: any value, and the field may be absent
        PostPolicy optional = PostPolicy.parse(b64("{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[{\"bucket\":\"b\"},"
                + "[\"starts-with\",\"$key\",\"\"],[\"starts-with\",\"$x-amz-server-side-encryption\",\"\"]]}"));
        Map<String, String> g = new HashMap<>(Map.of("bucket", "b", "key", "k", "policy", "p", "awsaccesskeyid", "k", "signature", "s"));
        assertDoesNotThrow(() -> optional.check(g, 3, NOW));
        g.put("x-amz-server-side-encryption", "AES256");
        assertDoesNotThrow(() -> optional.check(g, 3, NOW));
    }

    @Test
    void failedConditionsAreAccessDenied() throws Exception {
        PostPolicy p = PostPolicy.parse(POLICY);
        Map<String, String> f = form();
        f.put("key", "bar.txt");
        assertEquals(S3Error.ACCESS_DENIED, refused(p, f, 3, NOW));
        f = form();
        f.put("bucket", "other");
        assertEquals(S3Error.ACCESS_DENIED, refused(p, f, 3, NOW));
        f = form();
        f.put("x-amz-meta-foo", "x"); // a field no condition names
        assertEquals(S3Error.ACCESS_DENIED, refused(p, f, 3, NOW));
        f = form();
        f.remove("acl"); // a condition on a field the form lacks
        assertEquals(S3Error.ACCESS_DENIED, refused(p, f, 3, NOW));
        assertEquals(S3Error.ACCESS_DENIED, refused(p, form(), 3, Instant.parse("2030-01-01T00:00:00Z").toEpochMilli()));
    }

    @Test
    void sizeOutsideTheRangeIsRefused() throws Exception {
        PostPolicy p = PostPolicy.parse(POLICY);
        assertEquals(S3Error.ENTITY_TOO_LARGE, refused(p, form(), 1025, NOW));
        PostPolicy min = PostPolicy.parse(b64("{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":["
                + "[\"content-length-range\",10,20]]}"));
        assertEquals(S3Error.ENTITY_TOO_SMALL, refused(min, Map.of(), 3, NOW));
        assertDoesNotThrow(() -> min.check(Map.of(), -1, NOW)); // size not known yet: not checked
    }

    @Test
    void malformedDocumentsAreInvalidArgument() {
        for (String doc : List.of("{\"conditions\":[]}", // no expiration
                "{\"expiration\":\"2030-01-01T00:00:00Z\"}", // no conditions
                "{\"EXPIRATION\":\"2030-01-01T00:00:00Z\",\"conditions\":[]}",
                "{\"expiration\":\"2030-01-01T00:00:00Z\",\"CONDITIONS\":[]}",
                "{\"expiration\":\"2030-01-01 00:00:00+00:00\",\"conditions\":[]}",
                "{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[[\"content-length-range\",-1,0]]}",
                "{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[[\"matches\",\"$key\",\"x\"]]}",
                "{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[[\"eq\",\"key\",\"x\"]]}",
                "{\"expiration\":\"2030-01-01T00:00:00Z\",\"conditions\":[{\"a\":\"1\",\"b\":\"2\"}]}",
                "[1,2]", "{", "", "nul")) {
            S3Exception e = assertThrows(S3Exception.class, () -> PostPolicy.parse(b64(doc)), doc);
            assertEquals(S3Error.INVALID_ARGUMENT, e.error(), doc);
        }
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> PostPolicy.parse("!!not base64!!")).error());
    }

    @Test
    void fuzzedPoliciesNeverEscapeAsAnythingButS3Exception() {
        Random r = new Random(42);
        byte[] base = Base64.getDecoder().decode(POLICY);
        for (int i = 0; i < 5000; i++) {
            byte[] b = base.clone();
            int flips = 1 + r.nextInt(4);
            for (int j = 0; j < flips; j++) {
                b[r.nextInt(b.length)] = (byte) r.nextInt(128);
            }
            String mutated = r.nextBoolean() ? Base64.getEncoder().encodeToString(b)
                    : POLICY.substring(0, r.nextInt(POLICY.length()));
            try {
                PostPolicy.parse(mutated).check(form(), 3, NOW);
            } catch (S3Exception e) {
                assertTrue(e.error() == S3Error.INVALID_ARGUMENT || e.error() == S3Error.ACCESS_DENIED
                        || e.error() == S3Error.ENTITY_TOO_LARGE || e.error() == S3Error.ENTITY_TOO_SMALL, e.toString());
            }
        }
    }

    @Test
    void signaturesMatchIndependentVectors() {
        String p = "eyJleHBpcmF0aW9uIjoiMjAzMC0wMS0wMVQwMDowMDowMFoiLCJjb25kaXRpb25zIjpbeyJidWNrZXQiOiJiIn1dfQ==";
        assertEquals("2rE/7JN+WvawDDZPnIm4mEIDBt8=", PostPolicy.signV2("secret", p));
        assertEquals("fbc9c2de8a6aada27b3eb8d607f5a0709c9aaa97a1e22c0b5866415466abeae3",
                PostPolicy.signV4("secret", "20260101", "us-east-1", p));
        assertTrue(PostPolicy.same("a", "a"));
        assertFalse(PostPolicy.same("a", "b"));
        assertFalse(PostPolicy.same(null, "b"));
    }

    @Test
    void miniJsonReadsWhatPoliciesUse() {
        Object v = MiniJson.parse(" {\"a\": [1, -2, 3.5, true, false, null, \"x\\u0041\\n\"], \"b\": {}} ");
        assertEquals(Map.of("a", Arrays.asList(1L, -2L, 3.5, true, false, null, "xA\n"), "b", Map.of()), v);
        assertThrows(IllegalArgumentException.class, () -> MiniJson.parse("[".repeat(100) + "]".repeat(100)));
        assertThrows(IllegalArgumentException.class, () -> MiniJson.parse("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> MiniJson.parse("\"unterminated"));
    }
}
