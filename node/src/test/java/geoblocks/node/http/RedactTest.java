package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** What reaches a log: presigned signatures and secrets never do. */
class RedactTest {
    @Test
    void presignedSignaturesAndTokens_areReplaced_theRestOfTheUriStays() {
        String v4 = "/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID%2F20260101%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20260101T000000Z&X-Amz-Expires=300&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef&X-Amz-Security-Token=tok";
        String r = Redact.uri(v4);
        assertFalse(r.contains("0123456789abcdef") || r.contains("=tok"), r);
        assertTrue(r.contains("X-Amz-Signature=REDACTED") && r.contains("X-Amz-Security-Token=REDACTED"), r);
        assertTrue(r.startsWith("/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID"), r);
        assertEquals("/b/k?AWSAccessKeyId=AKID&Expires=1700000000&Signature=REDACTED",
                Redact.uri("/b/k?AWSAccessKeyId=AKID&Expires=1700000000&Signature=abc%2Bdef%3D"));
        assertEquals("/b/k?versionId=1", Redact.uri("/b/k?versionId=1"));
    }

    @Test
    void settingsPrintedWholeShowNoSecret() {
        HttpSettings h = new HttpSettings(new InetSocketAddress("127.0.0.1", 1), "AKID", "very-secret-key", false,
                "admin", "dashboard-pass");
        assertFalse(h.toString().contains("very-secret-key") || h.toString().contains("dashboard-pass"), h.toString());
        assertTrue(h.toString().contains("secretKey=(set)"), h.toString());
    }
}
