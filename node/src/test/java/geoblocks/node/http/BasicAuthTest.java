package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BasicAuthTest {
    private final BasicAuth auth = new BasicAuth("geoblocks-demo", "s3cret:with:colons");

    private static String header(String userPass) {
        return "Basic " + Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void accepts_exactCredentials_schemeCaseInsensitive() {
        assertTrue(auth.accepts(header("geoblocks-demo:s3cret:with:colons")));
        assertTrue(auth.accepts("basic " + header("geoblocks-demo:s3cret:with:colons").substring(6)));
    }

    @Test
    void refuses_missingWrongOrGarbledHeaders() {
        assertFalse(auth.accepts(null));
        assertFalse(auth.accepts(""));
        assertFalse(auth.accepts(header("geoblocks-demo:wrong")));
        assertFalse(auth.accepts(header("other:s3cret:with:colons")));
        assertFalse(auth.accepts("Basic !!!not-base64!!!"));
        assertFalse(auth.accepts("Bearer " + header("geoblocks-demo:s3cret:with:colons").substring(6)));
    }

    @Test
    void constructor_refusesUnusableCredentials() {
        assertThrows(IllegalArgumentException.class, () -> new BasicAuth("", "x"));
        assertThrows(IllegalArgumentException.class, () -> new BasicAuth("a:b", "x"));
        assertThrows(IllegalArgumentException.class, () -> new BasicAuth("a", ""));
    }
}
