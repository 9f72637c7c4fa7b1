package geoblocks.app.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * HTTP Basic authentication (RFC 7617) against one pair of credentials: the gateway's access key
 * id as user name and its secret key as password. Compares in constant time.
 */
public final class BasicAuth {
    private final byte[] expected;

    public BasicAuth(String user, String password) {
        if (user.isEmpty() || user.contains(":")) {
            throw new IllegalArgumentException("access key id must be non-empty without ':', was '" + user + "'");
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException("secret key must not be empty");
        }
        this.expected = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    /** Whether an {@code Authorization} header value (null when absent) carries these credentials. */
    public boolean accepts(String header) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        byte[] given;
        try {
            given = Base64.getDecoder().decode(header.substring(6).trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(given, expected);
    }
}
