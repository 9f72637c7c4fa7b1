package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@link S3Signer} signs, {@link SigV4} (the gateway's check) accepts; a changed byte is refused. */
class S3SignerTest {
    final S3Signer signer = new S3Signer(SigV4Test.KEY, SigV4Test.SECRET, "us-east-1");
    final SigV4 verifier = new SigV4(Map.of(SigV4Test.KEY, SigV4Test.SECRET), Set.of("us-east-1"));
    final Instant now = Instant.parse("2026-11-27T12:00:00Z");

    private SigV4.Request request(String method, String rawPath, Map<String, String> query, Map<String, String> signed) {
        Map<String, String> headers = new HashMap<>();
        headers.put("host", "127.0.0.1:9000");
        signed.forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        Map<String, List<String>> q = new HashMap<>();
        query.forEach((k, v) -> q.put(k, List.of(v)));
        return new SigV4.Request(method, rawPath, q, headers);
    }

    @Test
    void putWithLongUnicodeKey_andListWithQuery_verify() {
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        String key = "dir/" + "é".repeat(300) + " x+y";
        String path = "/bench/" + String.join("/", Arrays.stream(key.split("/", -1)).map(S3Signer::encode).toList());
        Map<String, String> h = signer.sign("PUT", "127.0.0.1:9000", path, Map.of(), S3Signer.payloadHash(body), now);
        SigV4.Verdict v = verifier.verify(request("PUT", path, Map.of(), h), now.toEpochMilli());
        assertTrue(v.ok(), v.message());

        Map<String, String> q = Map.of("list-type", "2", "prefix", "obj/00", "max-keys", "1000");
        Map<String, String> lh = signer.sign("GET", "127.0.0.1:9000", "/bench", q, S3Signer.payloadHash(new byte[0]), now);
        assertTrue(verifier.verify(request("GET", "/bench", q, lh), now.toEpochMilli()).ok());
        assertFalse(verifier.verify(request("GET", "/bench", Map.of("list-type", "2", "prefix", "obj/01", "max-keys", "1000"), lh),
                now.toEpochMilli()).ok(), "another prefix than signed");
        assertEquals(64, h.get("x-amz-content-sha256").length());
    }
}
