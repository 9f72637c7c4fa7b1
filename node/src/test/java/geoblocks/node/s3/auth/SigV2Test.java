package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Signature V2 against the examples of AWS's "Signing and Authenticating REST Requests" (the johnsmith bucket). */
class SigV2Test {
    static final String KEY = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    final SigV4 verifier = new SigV4(Map.of(KEY, SECRET), Set.of("us-east-1"));
    static final long GET_AT = SigV2.httpDate("Tue, 27 Mar 2007 19:36:42 +0000");

    static Map<String, String> headers(String... kv) {
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            h.put(kv[i], kv[i + 1]);
        }
        return h;
    }

    @Test
    void awsExamplesVerify() {
        SigV4.Request get = new SigV4.Request("GET", "/johnsmith/photos/puppy.jpg", Map.of(),
                headers("date", "Tue, 27 Mar 2007 19:36:42 +0000", "authorization", "AWS " + KEY + ":bWq2s1WEIj+Ydj0vQ697zp+IXMU="));
        assertEquals(KEY, SigV4.accessKeyId(get));
        SigV4.Verdict v = verifier.verify(get, GET_AT + 60_000);
        assertTrue(v.ok(), String.valueOf(v.message()));
        assertEquals(KEY, v.accessKey());
        SigV4.Request put = new SigV4.Request("PUT", "/johnsmith/photos/puppy.jpg", Map.of(), headers("date",
                "Tue, 27 Mar 2007 21:15:45 +0000", "content-type", "image/jpeg", "authorization",
                "AWS " + KEY + ":MyyxeRY7whkBe+bq8fHCL/2kKUg="));
        assertTrue(verifier.verify(put, SigV2.httpDate("Tue, 27 Mar 2007 21:15:45 +0000")).ok());
        SigV4.Request presigned = new SigV4.Request("GET", "/johnsmith/photos/puppy.jpg", Map.of("AWSAccessKeyId", List.of(KEY),
                "Expires", List.of("1175139620"), "Signature", List.of("NpgCjnDzrM+WFzoENXmpNDUsSn8=")), headers());
        assertEquals(KEY, SigV4.accessKeyId(presigned));
        assertTrue(verifier.verify(presigned, 1175139620L * 1000 - 1000).ok());
        assertEquals(S3Error.ACCESS_DENIED, verifier.verify(presigned, 1175139621L * 1000).error()); // expired
    }

    @Test
    void aPresignedUrl_livingLongerThanSevenDays_isRefused() {
        SigV4.Request presigned = new SigV4.Request("GET", "/johnsmith/photos/puppy.jpg", Map.of("AWSAccessKeyId", List.of(KEY),
                "Expires", List.of("1175139620"), "Signature", List.of("NpgCjnDzrM+WFzoENXmpNDUsSn8=")), headers());
        long sevenDays = 7 * 24 * 3600L * 1000;
        assertTrue(verifier.verify(presigned, 1175139620L * 1000 - sevenDays).ok()); // exactly 7 days away
        SigV4.Verdict v = verifier.verify(presigned, 1175139620L * 1000 - sevenDays - 1000);
        assertEquals(S3Error.ACCESS_DENIED, v.error());
        assertTrue(v.message().contains("at most 604800 s"), v.message());
    }

    @Test
    void wrongSignatureSkewUnknownKeyAndMissingDateAreRefused() {
        SigV4.Request bad = new SigV4.Request("GET", "/johnsmith/photos/puppy.jpg", Map.of(),
                headers("date", "Tue, 27 Mar 2007 19:36:42 +0000", "authorization", "AWS " + KEY + ":AAAAs1WEIj+Ydj0vQ697zp+IXMU="));
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, verifier.verify(bad, GET_AT).error());
        SigV4.Request get = new SigV4.Request("GET", "/johnsmith/photos/puppy.jpg", Map.of(),
                headers("date", "Tue, 27 Mar 2007 19:36:42 +0000", "authorization", "AWS " + KEY + ":bWq2s1WEIj+Ydj0vQ697zp+IXMU="));
        assertEquals(S3Error.REQUEST_TIME_TOO_SKEWED, verifier.verify(get, GET_AT + 16 * 60_000).error());
        SigV4.Request unknown = new SigV4.Request("GET", "/b", Map.of(), headers("date", "Tue, 27 Mar 2007 19:36:42 +0000",
                "authorization", "AWS NOPE:abc="));
        assertEquals(S3Error.INVALID_ACCESS_KEY_ID, verifier.verify(unknown, GET_AT).error());
        SigV4.Request noColon = new SigV4.Request("GET", "/b", Map.of(), headers("date", "Tue, 27 Mar 2007 19:36:42 +0000",
                "authorization", "AWS nocolon"));
        assertEquals(S3Error.INVALID_ARGUMENT, verifier.verify(noColon, GET_AT).error());
        SigV4.Request badDate = new SigV4.Request("GET", "/b", Map.of(), headers("date", "yesterday", "authorization", "AWS " + KEY + ":x"));
        assertEquals(S3Error.ACCESS_DENIED, verifier.verify(badDate, GET_AT).error());
    }

    @Test
    void amzHeadersAndSubresourcesAreSigned() {
        SigV4.Request r = new SigV4.Request("PUT", "/b/k", Map.of("acl", List.of(""), "uploadId", List.of("u1"), "foo", List.of("x")),
                headers("x-amz-date", "Tue, 27 Mar 2007 19:36:42 +0000", "x-amz-meta-b", " two ", "x-amz-acl", "private",
                        "content-md5", "abc=", "content-type", "text/plain"));
        assertEquals("PUT\nabc=\ntext/plain\n\nx-amz-acl:private\nx-amz-date:Tue, 27 Mar 2007 19:36:42 +0000\nx-amz-meta-b:two\n"
                + "/b/k?acl&uploadId=u1", SigV2.stringToSign(r, ""));
    }

    @Test
    void aDateWithTheWrongWeekday_isReadForItsDate_soFarDatesAreSkewedNotInvalid() {
        assertEquals(SigV2.httpDate("Sun, 07 Jul 2030 21:53:04 GMT"), SigV2.httpDate("Tue, 07 Jul 2030 21:53:04 GMT"));
        assertEquals(null, SigV2.httpDate("Tue, 7 Jull 2030 21:53:04 GMT"));
        assertEquals(null, SigV2.httpDate("Tue, 07 Jul 1950 21:53:04 GMT"), "before 1970: not a request date");
    }

    @Test
    void aBucketsResource_signedWithATrailingSlash_verifies_anObjectsDoesNot() {
        String date = "Tue, 27 Mar 2007 19:36:42 +0000";
        String withSlash = SigV2.sign(SECRET, SigV2.stringToSign(new SigV4.Request("PUT", "/johnsmith/", Map.of(), headers("date", date)), date));
        SigV4.Request bucket = new SigV4.Request("PUT", "/johnsmith", Map.of(), headers("date", date, "authorization", "AWS " + KEY + ":" + withSlash));
        assertTrue(verifier.verify(bucket, GET_AT).ok(), "botocore signs a bucket as /BUCKET/");
        String objSlash = SigV2.sign(SECRET, SigV2.stringToSign(new SigV4.Request("PUT", "/johnsmith/k/", Map.of(), headers("date", date)), date));
        SigV4.Request object = new SigV4.Request("PUT", "/johnsmith/k", Map.of(), headers("date", date, "authorization", "AWS " + KEY + ":" + objSlash));
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, verifier.verify(object, GET_AT).error(), "an object's key is not another key");
    }
}
