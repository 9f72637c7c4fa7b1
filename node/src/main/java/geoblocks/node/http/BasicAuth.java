package geoblocks.node.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * HTTP Basic authentication (RFC 7617) against one pair of credentials: the dashboard's user and
 * password ({@code geoblocks.http.dashboard}, apart from the S3 keys). Compares in constant time. With a
 * {@link LoginThrottle}, an address that failed too often is refused before its credentials are checked.
 */
public final class BasicAuth {
    /** What a request's credentials get: in, refused (401), or refused unchecked while locked out (429). */
    public enum Verdict { OK, DENIED, LOCKED }

    private final byte[] expected;
    private final LoginThrottle throttle;

    public BasicAuth(String user, String password) {
        this(user, password, null);
    }

    /** {@code throttle}: the bound on failed logins per client address, or null for none. */
    public BasicAuth(String user, String password, LoginThrottle throttle) {
        if (user.isEmpty() || user.contains(":")) {
            throw new IllegalArgumentException("the dashboard user must be non-empty without ':', was '" + user + "'");
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException("the dashboard password must not be empty");
        }
        this.expected = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
        this.throttle = throttle;
    }

    /**
     * The verdict on an {@code Authorization} header (null when absent) from client {@code address}. A
     * request without credentials (a browser's first, before it asks its user) is not a failed login.
     */
    public Verdict check(String header, String address) {
        if (throttle != null && throttle.lockedMs(address) > 0) {
            return Verdict.LOCKED;
        }
        if (accepts(header)) {
            if (throttle != null) {
                throttle.succeeded(address);
            }
            return Verdict.OK;
        }
        if (throttle != null && header != null) {
            throttle.failed(address);
        }
        return Verdict.DENIED;
    }

    /** Seconds {@code address} must wait before its next login (0: none). */
    public long retryAfterSeconds(String address) {
        return throttle == null ? 0 : (throttle.lockedMs(address) + 999) / 1000;
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
