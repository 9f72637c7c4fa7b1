package geoblocks.node.s3.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Which request headers an object keeps, S3's 2 KB limit on user metadata, and the record's encoding. */
class ObjectHeadersTest {
    private static ObjectHeaders of(Map<String, String> request) throws S3Exception {
        Map<String, String> lower = new LinkedHashMap<>();
        request.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        return ObjectHeaders.of(request.keySet(), n -> lower.get(n.toLowerCase(Locale.ROOT)));
    }

    @Test
    void keepsUserMetadataLowerCased_andTheStandardHeaders_notTheOthers() throws S3Exception {
        Map<String, String> req = new LinkedHashMap<>();
        req.put("X-Amz-Meta-Color", " blue ");
        req.put("x-amz-meta-empty", "");
        req.put("Cache-Control", "max-age=60");
        req.put("Content-Disposition", "attachment; filename=\"a b.txt\"");
        req.put("Content-Encoding", "aws-chunked,gzip");
        req.put("Content-Language", "fr");
        req.put("Expires", "Thu, 01 Dec 2094 16:00:00 GMT");
        req.put("Content-Type", "text/plain");
        req.put("Authorization", "AWS4-HMAC-SHA256 ...");
        req.put("x-amz-meta-", "no name");
        ObjectHeaders h = of(req);
        assertEquals(Map.of("x-amz-meta-color", "blue", "x-amz-meta-empty", "", "Cache-Control", "max-age=60",
                "Content-Disposition", "attachment; filename=\"a b.txt\"", "Content-Encoding", "gzip",
                "Content-Language", "fr", "Expires", "Thu, 01 Dec 2094 16:00:00 GMT"), h.headers());
        assertEquals(Map.of("color", "blue", "empty", ""), h.userMetadata());
        assertEquals(h, ObjectHeaders.decode(h.encode()));
        assertEquals(ObjectHeaders.NONE, of(Map.of("Content-Encoding", "aws-chunked")), "only the framing: nothing kept");
        assertEquals("", ObjectHeaders.withoutAwsChunked("aws-chunked, aws-chunked"));
        assertEquals("deflate, gzip", ObjectHeaders.withoutAwsChunked("deflate, gzip"), "kept as sent");
        assertEquals("deflate,gzip", ObjectHeaders.withoutAwsChunked("deflate,gzip"), "kept as sent");
        assertEquals("deflate, gzip", ObjectHeaders.withoutAwsChunked("aws-chunked,deflate,gzip"), "the rest joined as HTTP lists are");
        assertEquals("gzip", ObjectHeaders.withoutAwsChunked("gzip, aws-chunked"));
    }

    @Test
    void userMetadataOver2KB_isMetadataTooLarge_countingNamesWithoutThePrefixAndValues() throws S3Exception {
        String name = "k".repeat(24); // 24 + 2024 = 2048 bytes: allowed
        ObjectHeaders ok = of(Map.of("x-amz-meta-" + name, "v".repeat(2024)));
        assertEquals(1, ok.headers().size());
        S3Exception e = assertThrows(S3Exception.class, () -> of(Map.of("x-amz-meta-" + name, "v".repeat(2025))));
        assertEquals(S3Error.METADATA_TOO_LARGE, e.error());
        assertEquals(400, e.error().status());
        // the standard headers do not count
        assertEquals(2, of(Map.of("x-amz-meta-" + name, "v".repeat(2024), "Cache-Control", "x".repeat(3000))).headers().size());
    }

    @Test
    void id_namesTheContent_theSameHeadersShareOne() throws S3Exception {
        ObjectHeaders a = of(Map.of("x-amz-meta-a", "1", "x-amz-meta-b", "2"));
        ObjectHeaders b = of(Map.of("x-amz-meta-b", "2", "x-amz-meta-a", "1"));
        assertEquals(a.id(), b.id());
        assertEquals(20, a.id().length());
        assertNotEquals(a.id(), of(Map.of("x-amz-meta-a", "1")).id());
    }

    @Test
    void encode_roundTripsAnyCharacters_andADamagedRecordIsRefused() throws S3Exception {
        ObjectHeaders h = new ObjectHeaders(Map.of("x-amz-meta-m", "Hello World\u00e9 &=%+ \u5199"));
        assertEquals(h, ObjectHeaders.decode(h.encode()));
        assertTrue(ObjectHeaders.decode(new byte[0]).isEmpty());
        assertEquals(S3Error.INTERNAL_ERROR, assertThrows(S3Exception.class,
                () -> ObjectHeaders.decode("novalue".getBytes(StandardCharsets.UTF_8))).error());
    }

    @Test
    void responseParameters_setTheAnswersHeaders_forSignedGetsOnly() throws S3Exception {
        Map<String, String> q = Map.of("response-content-type", "foo/bar", "response-content-disposition", "bla",
                "response-cache-control", "no-cache", "versionId", "x");
        assertEquals(Map.of("Content-Type", "foo/bar", "Content-Disposition", "bla", "Cache-Control", "no-cache"),
                ObjectHeaders.responseOverrides(q::get, true));
        assertEquals(Map.of(), ObjectHeaders.responseOverrides(Map.<String, String>of()::get, false));
        S3Exception e = Assertions.assertThrows(S3Exception.class,
                () -> ObjectHeaders.responseOverrides(q::get, false));
        assertEquals(S3Error.INVALID_REQUEST, e.error());
    }
}
