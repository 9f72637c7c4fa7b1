package geoblocks.node.s3.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.access.BucketPolicy.Decision;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BucketPolicyTest {
    static final String ALT = "GBALT000000000000000";
    static final String OTHER = "GBOTHER0000000000000";
    static final Function<String, List<String>> NO_KEYS = k -> null;

    static BucketPolicy policy(String statements) throws S3Exception {
        return BucketPolicy.parse("{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}", "bkt");
    }

    static Decision eval(BucketPolicy p, String who, String action, String resource, Map<String, String> keys) {
        return p.evaluate(new BucketPolicy.Request(who, action, resource, k -> keys.containsKey(k) ? List.of(keys.get(k)) : null));
    }

    @Test
    void allow_matches_principal_action_and_resource_only() throws S3Exception {
        BucketPolicy p = policy("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + ALT + "\"},\"Action\":\"s3:ListBucket\","
                + "\"Resource\":[\"arn:aws:s3:::bkt\",\"arn:aws:s3:::bkt/*\"]}");
        assertEquals(Decision.ALLOW, eval(p, ALT, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of()));
        assertEquals(Decision.ALLOW, eval(p, ALT, "S3:listbucket", "arn:aws:s3:::bkt", Map.of()), "actions ignore case");
        assertEquals(Decision.NONE, eval(p, OTHER, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of()), "another key");
        assertEquals(Decision.NONE, eval(p, null, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of()), "anonymous");
        assertEquals(Decision.NONE, eval(p, ALT, "s3:GetObject", "arn:aws:s3:::bkt/a", Map.of()), "another action");
        assertEquals(Decision.NONE, eval(p, ALT, "s3:ListBucket", "arn:aws:s3:::bkt2", Map.of()), "another bucket");
    }

    @Test
    void star_principal_matches_everyone_and_iam_arns_match_their_key() throws S3Exception {
        BucketPolicy star = policy("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"arn:aws:s3:::bkt/*\"}");
        assertEquals(Decision.ALLOW, eval(star, null, "s3:GetObject", "arn:aws:s3:::bkt/x/y", Map.of()));
        assertEquals(Decision.ALLOW, eval(star, OTHER, "s3:PutObject", "arn:aws:s3:::bkt/z", Map.of()));
        BucketPolicy arn = policy("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\"arn:aws:iam::" + ALT + ":root\"]},"
                + "\"Action\":\"s3:Get*\",\"Resource\":\"arn:aws:s3:::bkt/*\"}");
        assertEquals(Decision.ALLOW, eval(arn, ALT, "s3:GetObjectTagging", "arn:aws:s3:::bkt/k", Map.of()));
        assertEquals(Decision.NONE, eval(arn, OTHER, "s3:GetObject", "arn:aws:s3:::bkt/k", Map.of()));
        assertFalse(arn.isPublic());
        assertTrue(star.isPublic());
        BucketPolicy service = policy("{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"logging.s3.amazonaws.com\"},"
                + "\"Action\":\"s3:PutObject\",\"Resource\":\"arn:aws:s3:::bkt/*\"}");
        assertEquals(Decision.NONE, eval(service, null, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of()), "a service is no key");
        assertEquals(Decision.NONE, eval(service, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of()));
        BucketPolicy canonical = policy("{\"Effect\":\"Allow\",\"Principal\":{\"CanonicalUser\":\"" + ALT + "\"},"
                + "\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::bkt/*\"}");
        assertEquals(Decision.ALLOW, eval(canonical, ALT, "s3:GetObject", "arn:aws:s3:::bkt/k", Map.of()));
    }

    @Test
    void deny_wins_over_allow_in_any_order() throws S3Exception {
        String allow = "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:PutObject\",\"Resource\":\"arn:aws:s3:::bkt/*\"}";
        String deny = "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3:PutObject\",\"Resource\":\"arn:aws:s3:::bkt/*\","
                + "\"Condition\":{\"StringLike\":{\"s3:x-amz-acl\":\"public*\"}}}";
        for (BucketPolicy p : List.of(policy(allow + "," + deny), policy(deny + "," + allow))) {
            assertEquals(Decision.ALLOW, eval(p, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of()));
            assertEquals(Decision.ALLOW, eval(p, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of("s3:x-amz-acl", "private")));
            assertEquals(Decision.DENY, eval(p, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of("s3:x-amz-acl", "public-read")));
        }
    }

    @Test
    void conditions_follow_aws_rules_for_missing_keys() throws S3Exception {
        // Null: true holds when the key is absent
        BucketPolicy nul = policy("{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3:PutObject\",\"Resource\":\"arn:aws:s3:::bkt/*\","
                + "\"Condition\":{\"Null\":{\"s3:x-amz-server-side-encryption\":\"true\"}}}");
        assertEquals(Decision.DENY, eval(nul, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of()));
        assertEquals(Decision.NONE, eval(nul, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of("s3:x-amz-server-side-encryption", "AES256")));
        // a negated operator holds on a missing key, a positive one does not, IfExists always does
        BucketPolicy not = policy("{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3:PutObject\",\"Resource\":\"arn:aws:s3:::bkt/*\","
                + "\"Condition\":{\"StringNotEquals\":{\"s3:x-amz-server-side-encryption\":\"AES256\"}}}");
        assertEquals(Decision.DENY, eval(not, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of()));
        assertEquals(Decision.DENY, eval(not, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of("s3:x-amz-server-side-encryption", "AES192")));
        assertEquals(Decision.NONE, eval(not, ALT, "s3:PutObject", "arn:aws:s3:::bkt/k", Map.of("s3:x-amz-server-side-encryption", "AES256")));
        BucketPolicy ifExists = policy("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::bkt/*\","
                + "\"Condition\":{\"StringLikeIfExists\":{\"aws:Referer\":\"http://www.example.com/*\"}}}");
        assertEquals(Decision.ALLOW, eval(ifExists, ALT, "s3:GetObject", "arn:aws:s3:::bkt/k", Map.of()));
        assertEquals(Decision.ALLOW, eval(ifExists, ALT, "s3:GetObject", "arn:aws:s3:::bkt/k", Map.of("aws:Referer", "http://www.example.com/a")));
        assertEquals(Decision.NONE, eval(ifExists, ALT, "s3:GetObject", "arn:aws:s3:::bkt/k", Map.of("aws:Referer", "http://example.com")));
    }

    @Test
    void ip_and_numeric_conditions_and_public_judgement() throws S3Exception {
        BucketPolicy ip = policy("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:ListBucket\",\"Resource\":\"arn:aws:s3:::bkt\","
                + "\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"},\"NumericLessThanEquals\":{\"s3:max-keys\":\"10\"}}}");
        assertEquals(Decision.ALLOW, eval(ip, null, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of("aws:SourceIp", "10.1.2.3", "s3:max-keys", "5")));
        assertEquals(Decision.NONE, eval(ip, null, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of("aws:SourceIp", "10.1.2.3", "s3:max-keys", "50")));
        assertEquals(Decision.NONE, eval(ip, null, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of("aws:SourceIp", "11.1.2.3", "s3:max-keys", "5")));
        assertEquals(Decision.NONE, eval(ip, null, "s3:ListBucket", "arn:aws:s3:::bkt", Map.of("aws:SourceIp", "localhost", "s3:max-keys", "5")),
                "names are never looked up");
        assertFalse(ip.isPublic(), "an Allow narrowed to fixed source addresses is not public");
        assertTrue(BucketPolicy.inCidr("2001:db8::/32", "2001:db8::1"));
        assertFalse(BucketPolicy.inCidr("2001:db8::/32", "10.0.0.1"));
    }

    @Test
    void every_key_requests_need_an_allow_of_every_key_and_fall_to_a_deny_of_any() throws S3Exception {
        BucketPolicy all = policy("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:DeleteObject\",\"Resource\":\"arn:aws:s3:::bkt/*\"}");
        BucketPolicy some = policy("{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:DeleteObject\",\"Resource\":\"arn:aws:s3:::bkt/tmp/*\"}");
        BucketPolicy denySome = policy("{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"s3:DeleteObject\",\"Resource\":\"arn:aws:s3:::bkt/keep/*\"}");
        BucketPolicy.Request r = new BucketPolicy.Request(ALT, "s3:DeleteObject", "arn:aws:s3:::bkt/*", NO_KEYS, true);
        assertEquals(Decision.ALLOW, all.evaluate(r));
        assertEquals(Decision.NONE, some.evaluate(r));
        assertEquals(Decision.DENY, denySome.evaluate(r));
    }

    @Test
    void malformed_policies_are_refused_with_what_is_wrong() {
        for (String bad : List.of("[]", "{", "{\"Version\":\"2012-10-17\"}",
                "{\"Statement\":[]}",
                "{\"Statement\":{\"Effect\":\"Maybe\",\"Principal\":\"*\",\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::bkt\"}}",
                "{\"Statement\":{\"Effect\":\"Allow\",\"NotPrincipal\":{\"AWS\":\"x\"},\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::bkt\"}}",
                "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"ec2:Run\",\"Resource\":\"arn:aws:s3:::bkt\"}}",
                "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::other/*\"}}",
                "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:*\"}}",
                "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:*\",\"Resource\":\"arn:aws:s3:::bkt\","
                        + "\"Condition\":{\"DateGreaterThan\":{\"aws:CurrentTime\":\"2020-01-01\"}}}}")) {
            S3Exception e = assertThrows(S3Exception.class, () -> BucketPolicy.parse(bad, "bkt"), bad);
            assertEquals(S3Error.MALFORMED_POLICY, e.error(), bad);
        }
    }

    @Test
    void glob_agrees_with_a_regex_on_random_patterns() {
        Random rnd = new Random(42);
        String alphabet = "ab/";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder pat = new StringBuilder();
            StringBuilder rx = new StringBuilder();
            for (int i = rnd.nextInt(6); i > 0; i--) {
                int c = rnd.nextInt(5);
                if (c == 3) {
                    pat.append('*');
                    rx.append(".*");
                } else if (c == 4) {
                    pat.append('?');
                    rx.append('.');
                } else {
                    pat.append(alphabet.charAt(c));
                    rx.append(Pattern.quote(String.valueOf(alphabet.charAt(c))));
                }
            }
            StringBuilder s = new StringBuilder();
            for (int i = rnd.nextInt(7); i > 0; i--) {
                s.append(alphabet.charAt(rnd.nextInt(3)));
            }
            assertEquals(s.toString().matches(rx.toString()), BucketPolicy.glob(pat.toString(), s.toString()),
                    pat + " vs " + s);
        }
    }

    @Test
    void actions_are_named_as_aws_names_them() {
        assertEquals("s3:ListBucket", S3Authorization.action("GET", null, Set.of("list-type", "prefix")));
        assertEquals("s3:ListBucketVersions", S3Authorization.action("GET", null, Set.of("versions")));
        assertEquals("s3:GetObject", S3Authorization.action("HEAD", "k", Set.of()));
        assertEquals("s3:GetObjectVersion", S3Authorization.action("GET", "k", Set.of("versionId")));
        assertEquals("s3:PutObject", S3Authorization.action("POST", "k", Set.of("uploads")));
        assertEquals("s3:AbortMultipartUpload", S3Authorization.action("DELETE", "k", Set.of("uploadId")));
        assertEquals("s3:GetObjectTagging", S3Authorization.action("GET", "k", Set.of("tagging")));
        assertEquals("s3:DeleteObjectTagging", S3Authorization.action("DELETE", "k", Set.of("tagging")));
        assertEquals("s3:GetBucketPublicAccessBlock", S3Authorization.action("GET", null, Set.of("publicAccessBlock")));
        assertEquals("s3:DeleteBucketPolicy", S3Authorization.action("DELETE", null, Set.of("policy")));
        assertEquals("s3:PutBucketCORS", S3Authorization.action("DELETE", null, Set.of("cors")));
        assertEquals("s3:DeleteObject", S3Authorization.action("POST", null, Set.of("delete")));
    }
}
