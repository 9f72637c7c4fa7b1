package geoblocks.node.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the HTTP port refused, by cause, since the server started: requests answered 400 (malformed),
 * 401 (no or wrong credentials), 403 (forbidden, e.g. a bad S3 signature), 413 (body too large) or 431
 * (request line or headers too large), connections closed at once because the connection cap was
 * reached, connections closed because a request head did not arrive in time, and requests whose body
 * came too slowly ({@link BodyDeadline}; counted here only, whatever status answered them). Every other
 * answer passes {@link #answered(int)}, so each refusal is counted once. Thread-safe.
 */
public final class HttpRefusals {
    public static final String CONNECTION_LIMIT = "http_connection_limit";
    public static final String HEAD_TIMEOUT = "http_head_timeout";
    public static final String BODY_TIMEOUT = "http_body_timeout";
    /** Every cause, in the order the metrics list them. */
    public static final List<String> CAUSES = List.of("http_malformed", "http_unauthenticated", "http_forbidden",
            "http_body_too_large", "http_headers_too_large", CONNECTION_LIMIT, HEAD_TIMEOUT, BODY_TIMEOUT);
    private final Map<String, LongAdder> counts = new LinkedHashMap<>();

    public HttpRefusals() {
        CAUSES.forEach(c -> counts.put(c, new LongAdder()));
    }

    /** The cause an answer with {@code status} counts under, or null when it is not a refusal of the input. */
    static String causeOf(int status) {
        return switch (status) {
            case 400 -> "http_malformed";
            case 401 -> "http_unauthenticated";
            case 403 -> "http_forbidden";
            case 413 -> "http_body_too_large";
            case 431 -> "http_headers_too_large";
            default -> null;
        };
    }

    /** A request was answered with {@code status}: counted when that refuses the input. */
    void answered(int status) {
        String cause = causeOf(status);
        if (cause != null) {
            counts.get(cause).increment();
        }
    }

    /** A connection or request was refused for {@code cause} ({@link #CONNECTION_LIMIT}, {@link #HEAD_TIMEOUT}, {@link #BODY_TIMEOUT}). */
    void refused(String cause) {
        LongAdder n = counts.get(cause);
        if (n == null) {
            throw new IllegalArgumentException("unknown refusal cause: " + cause);
        }
        n.increment();
    }

    /** The count of each cause in {@link #CAUSES}, zeros included. */
    public Map<String, Long> counts() {
        Map<String, Long> out = new LinkedHashMap<>();
        counts.forEach((c, n) -> out.put(c, n.sum()));
        return out;
    }
}
