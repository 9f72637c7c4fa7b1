package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Gateway;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** SigV4 against the examples AWS publishes in "Signature Calculations for the Authorization Header" and "...Query Parameters". */
class SigV4Test {
    static final String KEY = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final long AT = SigV4.parseAmzDate("20130524T000000Z");
    static final String EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    final SigV4 verifier = new SigV4(Map.of(KEY, SECRET), Set.of("us-east-1", "seoul"));

    static Map<String, String> headers(String... kv) {
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            h.put(kv[i], kv[i + 1]);
        }
        return h;
    }

    static String auth(String signed, String signature) {
        return "AWS4-HMAC-SHA256 Credential=" + KEY + "/20130524/us-east-1/s3/aws4_request,SignedHeaders=" + signed
                + ",Signature=" + signature;
    }

    SigV4.Request getObject(String signature) {
        return new SigV4.Request("GET", "/test.txt", Map.of(), headers("host", "examplebucket.s3.amazonaws.com",
                "range", "bytes=0-9", "x-amz-content-sha256", EMPTY_SHA, "x-amz-date", "20130524T000000Z",
                "authorization", auth("host;range;x-amz-content-sha256;x-amz-date", signature)));
    }

    @Test
    void awsExample_getObject_verifies() {
        SigV4.Verdict v = verifier.verify(getObject("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"), AT);
        assertTrue(v.ok(), v.message());
        assertEquals(KEY, v.accessKey());
        assertEquals(EMPTY_SHA, v.payloadHash());
    }

    @Test
    void awsExample_putObject_withSpecialCharactersInPath_verifies() {
        SigV4.Request r = new SigV4.Request("PUT", "/test%24file.text", Map.of(), headers(
                "host", "examplebucket.s3.amazonaws.com", "date", "Fri, 24 May 2013 00:00:00 GMT",
                "x-amz-date", "20130524T000000Z", "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "x-amz-content-sha256", "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
                "authorization", auth("date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                        "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")));
        assertTrue(verifier.verify(r, AT).ok(), verifier.verify(r, AT).message());
    }

    @Test
    void awsExample_listObjects_withQuery_verifies() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("max-keys", List.of("2"));
        q.put("prefix", List.of("J"));
        SigV4.Request r = new SigV4.Request("GET", "/", q, headers("host", "examplebucket.s3.amazonaws.com",
                "x-amz-date", "20130524T000000Z", "x-amz-content-sha256", EMPTY_SHA,
                "authorization", auth("host;x-amz-content-sha256;x-amz-date",
                        "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")));
        assertTrue(verifier.verify(r, AT).ok(), verifier.verify(r, AT).message());
    }

    @Test
    void awsExample_lifecycle_emptyQueryValue_verifies() {
        SigV4.Request r = new SigV4.Request("GET", "/", Map.of("lifecycle", List.of("")), headers(
                "host", "examplebucket.s3.amazonaws.com", "x-amz-date", "20130524T000000Z",
                "x-amz-content-sha256", EMPTY_SHA, "authorization", auth("host;x-amz-content-sha256;x-amz-date",
                        "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")));
        assertTrue(verifier.verify(r, AT).ok(), verifier.verify(r, AT).message());
    }

    static Map<String, List<String>> presignedQuery(String signature) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("X-Amz-Algorithm", List.of("AWS4-HMAC-SHA256"));
        q.put("X-Amz-Credential", List.of(KEY + "/20130524/us-east-1/s3/aws4_request"));
        q.put("X-Amz-Date", List.of("20130524T000000Z"));
        q.put("X-Amz-Expires", List.of("86400"));
        q.put("X-Amz-SignedHeaders", List.of("host"));
        q.put("X-Amz-Signature", List.of(signature));
        return q;
    }

    @Test
    void awsExample_presignedGet_verifiesUntilItExpires() {
        SigV4.Request r = new SigV4.Request("GET", "/test.txt",
                presignedQuery("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"),
                headers("host", "examplebucket.s3.amazonaws.com"));
        assertTrue(verifier.verify(r, AT + 3_600_000).ok(), verifier.verify(r, AT).message());
        SigV4.Verdict late = verifier.verify(r, AT + 86_401_000L);
        assertEquals(S3Error.ACCESS_DENIED, late.error());
        assertEquals("Request has expired", late.message());
    }

    @Test
    void presignedUrl_withAnUnsignedAmzHeaderAdded_isRefused_whateverTheHeader() {
        // the attack: a presigned URL handed to someone, who adds headers the signer never saw (a copy of a
        // private object into the presigned key, a public ACL, an object lock): each is refused by name
        for (String[] extra : new String[][] {{"x-amz-copy-source", "/priv/secret.txt"}, {"x-amz-acl", "public-read"},
                {"x-amz-object-lock-mode", "COMPLIANCE"}, {"x-amz-server-side-encryption-customer-key", "a2V5"}}) {
            Map<String, String> h = headers("host", "examplebucket.s3.amazonaws.com", extra[0], extra[1]);
            SigV4.Verdict v = verifier.verify(new SigV4.Request("GET", "/test.txt",
                    presignedQuery("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"), h), AT + 1000);
            assertEquals(S3Error.ACCESS_DENIED, v.error(), extra[0]);
            assertEquals("There were headers present in the request which were not signed: " + extra[0], v.message());
        }
        // x-amz-content-sha256 unsigned changes nothing (a presigned payload is UNSIGNED-PAYLOAD): accepted
        SigV4.Verdict v = verifier.verify(new SigV4.Request("GET", "/test.txt",
                presignedQuery("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"),
                headers("host", "examplebucket.s3.amazonaws.com", "x-amz-content-sha256", EMPTY_SHA)), AT + 1000);
        assertTrue(v.ok(), v.message());
        assertEquals(SigV4.UNSIGNED, v.payloadHash());
    }

    @Test
    void headerSignedRequest_withAnUnsignedAmzHeaderAdded_isRefused() {
        SigV4.Request r = getObject("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
        Map<String, String> h = new HashMap<>(r.headers());
        h.put("x-amz-acl", "public-read");
        h.put("x-amz-tagging", "a=b");
        SigV4.Verdict v = verifier.verify(new SigV4.Request("GET", "/test.txt", Map.of(), h), AT);
        assertEquals(S3Error.ACCESS_DENIED, v.error());
        assertTrue(v.message().contains("x-amz-acl") && v.message().contains("x-amz-tagging"), v.message());
    }

    @Test
    void tamperedSignatureOrWrongSecret_isSignatureDoesNotMatch() {
        SigV4.Verdict v = verifier.verify(getObject("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb42"), AT);
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, v.error());
        SigV4 other = new SigV4(Map.of(KEY, "not-the-secret"), Set.of("us-east-1"));
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH,
                other.verify(getObject("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"), AT).error());
    }

    @Test
    void changedSignedHeader_isSignatureDoesNotMatch() {
        SigV4.Request r = getObject("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
        Map<String, String> h = new HashMap<>(r.headers());
        h.put("range", "bytes=0-99");
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, verifier.verify(new SigV4.Request("GET", "/test.txt", Map.of(), h), AT).error());
    }

    @Test
    void unknownKey_wrongRegion_skewAndMissingHeaders_areRefusedWithTheirCodes() {
        SigV4 noKey = new SigV4(Map.of("OTHER", SECRET), Set.of("us-east-1"));
        String sig = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
        assertEquals(S3Error.INVALID_ACCESS_KEY_ID, noKey.verify(getObject(sig), AT).error());
        SigV4 dublinOnly = new SigV4(Map.of(KEY, SECRET), Set.of("dublin"));
        assertEquals(S3Error.AUTHORIZATION_HEADER_MALFORMED, dublinOnly.verify(getObject(sig), AT).error());
        assertEquals(S3Error.REQUEST_TIME_TOO_SKEWED, verifier.verify(getObject(sig), AT + 16 * 60_000).error());
        assertTrue(verifier.verify(getObject(sig), AT + 14 * 60_000).ok());
        SigV4.Request noDate = new SigV4.Request("GET", "/test.txt", Map.of(), headers("host", "h",
                "authorization", auth("host", sig)));
        assertEquals(S3Error.ACCESS_DENIED, verifier.verify(noDate, AT).error());
        SigV4.Request garbage = new SigV4.Request("GET", "/", Map.of(), headers("authorization", "AWS4-HMAC-SHA256 nonsense"));
        assertEquals(S3Error.AUTHORIZATION_HEADER_MALFORMED, verifier.verify(garbage, AT).error());
        SigV4.Request v2 = new SigV4.Request("GET", "/", Map.of(), headers("authorization", "AWS AKID:abc"));
        assertEquals(S3Error.ACCESS_DENIED, verifier.verify(v2, AT).error()); // Signature V2 (SigV2Test), without a Date
    }

    @Test
    void ownSignature_withNodeRegionAndEncodedKey_roundTrips() {
        // signed here the way botocore does: the key "a b/ü+c" is sent as /bkt/a%20b/%C3%BC%2Bc
        String path = "/bkt/a%20b/%C3%BC%2Bc";
        String date = "20260101T120000Z";
        String canonical = "PUT\n/bkt/a%20b/%C3%BC%2Bc\n\nhost:127.0.0.1:47201\nx-amz-content-sha256:UNSIGNED-PAYLOAD\n"
                + "x-amz-date:" + date + "\n\nhost;x-amz-content-sha256;x-amz-date\nUNSIGNED-PAYLOAD";
        String toSign = "AWS4-HMAC-SHA256\n" + date + "\n20260101/seoul/s3/aws4_request\n" + SigV4.sha256Hex(canonical);
        String sig = HexFormat.of().formatHex(SigV4.hmac(SigV4.signingKey(SECRET, "20260101", "seoul", "s3"), toSign));
        SigV4.Request r = new SigV4.Request("PUT", path, Map.of(), headers("host", "127.0.0.1:47201",
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "x-amz-date", date, "authorization",
                "AWS4-HMAC-SHA256 Credential=" + KEY + "/20260101/seoul/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + sig));
        SigV4.Verdict v = verifier.verify(r, SigV4.parseAmzDate(date));
        assertTrue(v.ok(), v.message());
        assertNull(v.error());
    }

    /** A PUT signed as botocore signs it, for {@code region}'s credential scope. */
    static SigV4.Request signedFor(String region, String date) {
        String canonical = "PUT\n/bkt/k\n\nhost:127.0.0.1:47201\nx-amz-content-sha256:UNSIGNED-PAYLOAD\n"
                + "x-amz-date:" + date + "\n\nhost;x-amz-content-sha256;x-amz-date\nUNSIGNED-PAYLOAD";
        String toSign = "AWS4-HMAC-SHA256\n" + date + "\n" + date.substring(0, 8) + "/" + region + "/s3/aws4_request\n"
                + SigV4.sha256Hex(canonical);
        String sig = HexFormat.of().formatHex(SigV4.hmac(SigV4.signingKey(SECRET, date.substring(0, 8), region, "s3"),
                toSign));
        return new SigV4.Request("PUT", "/bkt/k", Map.of(), headers("host", "127.0.0.1:47201",
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "x-amz-date", date, "authorization", "AWS4-HMAC-SHA256 Credential="
                        + KEY + "/" + date.substring(0, 8) + "/" + region + "/s3/aws4_request, SignedHeaders=host;"
                        + "x-amz-content-sha256;x-amz-date, Signature=" + sig));
    }

    @Test
    void everyRegionOfTheCluster_isAValidSigningRegion_atEveryGateway() {
        // seoul's gateway of a cluster of seoul, dublin and saopaulo: a client signing with the bucket's location works
        SigV4 seoul = new SigV4(Map.of(KEY, SECRET), S3Gateway.signingRegions("seoul", List.of("seoul", "dublin", "saopaulo")));
        String date = "20260101T120000Z";
        long at = SigV4.parseAmzDate(date);
        for (String region : List.of("seoul", "dublin", "saopaulo", "us-east-1")) {
            SigV4.Verdict v = seoul.verify(signedFor(region, date), at);
            assertTrue(v.ok(), region + ": " + v.message());
        }
        SigV4.Verdict other = seoul.verify(signedFor("tokyo", date), at);
        assertEquals(S3Error.AUTHORIZATION_HEADER_MALFORMED, other.error(), "a region of no cluster member");
    }

    @Test
    void isSigned_onlyForAwsCredentials_notForTheDashboardsBasicAuth() {
        assertTrue(SigV4.isSigned("AWS4-HMAC-SHA256 Credential=x", Map.of()));
        assertTrue(SigV4.isSigned("AWS AKID:sig", Map.of()));
        assertTrue(SigV4.isSigned(null, Map.of("X-Amz-Signature", List.of("s"))));
        assertTrue(SigV4.isSigned(null, Map.of("AWSAccessKeyId", List.of("k"))));
        Assertions.assertFalse(SigV4.isSigned("Basic Z2VvYmxvY2tzOng=", Map.of()));
        Assertions.assertFalse(SigV4.isSigned(null, Map.of("prefix", List.of("a"))));
    }

    @Test
    void encode_keepsUnreservedOnly() {
        assertEquals("a-_.~Z9%20%2F%2B%C3%BC", SigV4.encode("a-_.~Z9 /+ü"));
        assertEquals("/a%20b/c", SigV4.canonicalUri("/a%20b/c"));
        assertEquals("/", SigV4.canonicalUri("/"));
    }

    @Test
    void amzDatesParseByHandAsTheFormatDefinesThem() {
        assertEquals(Instant.parse("2013-05-24T00:00:00Z").toEpochMilli(), SigV4.parseAmzDate("20130524T000000Z"));
        assertEquals(Instant.parse("2024-02-29T23:59:59Z").toEpochMilli(), SigV4.parseAmzDate("20240229T235959Z"));
        for (String bad : new String[] {"20130524T000000", "20130524 000000Z", "2013052AT000000Z", "20131324T000000Z",
                "20230229T000000Z", "20130524T250000Z", "20130524T006000Z", "-0130524T000000Z", "", "20130524T000000ZZ"}) {
            assertNull(SigV4.parseAmzDate(bad), bad);
        }
    }

    @Test
    void aSecondRequestOfTheDaySignsAlikeWithTheRememberedKey() {
        // the derived key is cached per key, date and region: the same request verifies twice, a wrong signature still fails
        String good = "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
        assertTrue(verifier.verify(getObject(good), AT).ok());
        assertTrue(verifier.verify(getObject(good), AT).ok());
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, verifier.verify(getObject(good.replace('f', '0')), AT).error());
    }

    @Test
    void aDateHeader_insteadOfXAmzDate_signsTheSameInstant_asBotocoreDoes() {
        String date = "Fri, 24 May 2013 00:00:00 GMT";
        String canonical = "GET\n/test.txt\n\ndate:" + date + "\nhost:examplebucket.s3.amazonaws.com\nx-amz-content-sha256:"
                + EMPTY_SHA + "\n\ndate;host;x-amz-content-sha256\n" + EMPTY_SHA;
        String toSign = "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n" + SigV4.sha256Hex(canonical);
        String sig = HexFormat.of().formatHex(SigV4.hmac(SigV4.signingKey(SECRET, "20130524", "us-east-1", "s3"), toSign));
        SigV4.Request r = new SigV4.Request("GET", "/test.txt", Map.of(), headers("host", "examplebucket.s3.amazonaws.com",
                "x-amz-content-sha256", EMPTY_SHA, "date", date, "authorization", auth("date;host;x-amz-content-sha256", sig)));
        SigV4.Verdict v = verifier.verify(r, AT);
        assertTrue(v.ok(), String.valueOf(v.message()));
        assertEquals(S3Error.REQUEST_TIME_TOO_SKEWED, verifier.verify(r, AT + 16 * 60_000).error());
    }

    @Test
    void headerValues_haveTheirRunsOfSpacesCollapsed_asTheCanonicalFormWants() {
        assertEquals("a b c", SigV4.collapseSpaces("a   b  c"));
        assertEquals("a b", SigV4.collapseSpaces("a b"));
        String plain = "no-double-spaces here";
        assertSame(plain, SigV4.collapseSpaces(plain));
    }
}
