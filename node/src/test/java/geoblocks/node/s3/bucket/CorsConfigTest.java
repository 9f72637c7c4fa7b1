package geoblocks.node.s3.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** CORS rules: parsing, the document read back, origin/method/header matching (the cases of Ceph's s3-tests). */
class CorsConfigTest {
    static byte[] xml(String rules) {
        return ("<CORSConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" + rules + "</CORSConfiguration>")
                .getBytes(StandardCharsets.UTF_8);
    }

    static final String RULES = "<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*suffix</AllowedOrigin></CORSRule>"
            + "<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>start*end</AllowedOrigin></CORSRule>"
            + "<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>prefix*</AllowedOrigin></CORSRule>"
            + "<CORSRule><AllowedMethod>PUT</AllowedMethod><AllowedOrigin>*.put</AllowedOrigin></CORSRule>";

    static String origin(CorsConfig c, String origin, String method) {
        CorsConfig.Match m = c.match(origin, method, List.of());
        return m == null ? null : m.allowOrigin();
    }

    @Test
    void originsMatchWithOneWildcard() throws Exception {
        CorsConfig c = CorsConfig.parse(xml(RULES));
        assertEquals("foo.suffix", origin(c, "foo.suffix", "GET"));
        assertNull(origin(c, "foo.bar", "GET"));
        assertNull(origin(c, "foo.suffix.get", "GET"));
        for (String o : List.of("startend", "start1end", "start12end", "prefix", "prefix.suffix")) {
            assertEquals(o, origin(c, o, "GET"), o);
        }
        assertNull(origin(c, "0start12end", "GET"));
        assertNull(origin(c, "bla.prefix", "GET"));
        assertNull(origin(c, "foo.suffix", "PUT"));
        assertEquals("foo.put", origin(c, "foo.put", "PUT"));
        assertNull(origin(c, "foo.put", "GET"));
        assertEquals("GET", c.match("foo.suffix", "GET", List.of()).allowMethods());
        assertNull(c.match(null, "GET", List.of()));
    }

    @Test
    void aStarOriginAnswersStarAndHeadersMustBeAllowed() throws Exception {
        CorsConfig c = CorsConfig.parse(xml("<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin>"
                + "<AllowedHeader>x-amz-*</AllowedHeader><ExposeHeader>x-amz-meta-header1</ExposeHeader>"
                + "<MaxAgeSeconds>30</MaxAgeSeconds></CORSRule>"));
        CorsConfig.Match m = c.match("example.origin", "GET", List.of("X-Amz-Date"));
        assertEquals("*", m.allowOrigin());
        assertEquals("X-Amz-Date", m.allowHeaders());
        assertEquals("x-amz-meta-header1", m.expose());
        assertEquals(Integer.valueOf(30), m.maxAge());
        assertNull(c.match("example.origin", "GET", List.of("authorization")));
        CorsConfig noHeaders = CorsConfig.parse(xml("<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin>"
                + "<ExposeHeader>x-amz-meta-header1</ExposeHeader></CORSRule>"));
        assertNull(noHeaders.match("example.origin", "GET", CorsConfig.headerList("x-amz-meta-header2")));
    }

    @Test
    void theDocumentReadsBackAsSent() throws Exception {
        CorsConfig c = CorsConfig.parse(xml(RULES));
        assertEquals(c, CorsConfig.parse(c.toXml()));
        assertEquals(4, c.rules().size());
    }

    @Test
    void badConfigurationsAreRefused() {
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class, () -> CorsConfig.parse(xml(
                "<CORSRule><AllowedMethod>PATCH</AllowedMethod><AllowedOrigin>*</AllowedOrigin></CORSRule>"))).error());
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class, () -> CorsConfig.parse(xml(
                "<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*a*</AllowedOrigin></CORSRule>"))).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> CorsConfig.parse(xml(
                "<CORSRule><AllowedOrigin>*</AllowedOrigin></CORSRule>"))).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> CorsConfig.parse(xml(""))).error());
        Random r = new Random(3);
        byte[] good = xml(RULES);
        for (int i = 0; i < 2000; i++) {
            byte[] b = good.clone();
            b[r.nextInt(b.length)] = (byte) r.nextInt(128);
            try {
                CorsConfig.parse(b);
            } catch (S3Exception e) {
                assertTrue(e.error().status() == 400, e.toString());
            }
        }
    }

    @Test
    void globIsAnchored() {
        assertTrue(CorsConfig.glob("a*b", "ab"));
        assertFalse(CorsConfig.glob("ab*b", "ab"));
        assertTrue(CorsConfig.glob("*", ""));
        assertFalse(CorsConfig.glob("x", "xx"));
    }
}
