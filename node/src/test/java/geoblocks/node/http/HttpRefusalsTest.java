package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpRefusalsTest {
    @Test
    void causeOf_mapsEachRefusingStatus_andNothingElse() {
        assertEquals("http_malformed", HttpRefusals.causeOf(400));
        assertEquals("http_unauthenticated", HttpRefusals.causeOf(401));
        assertEquals("http_forbidden", HttpRefusals.causeOf(403));
        assertEquals("http_body_too_large", HttpRefusals.causeOf(413));
        assertEquals("http_headers_too_large", HttpRefusals.causeOf(431));
        for (int status : new int[] {200, 204, 206, 304, 404, 405, 409, 411, 412, 416, 500, 503}) {
            assertNull(HttpRefusals.causeOf(status), "status " + status);
        }
    }

    @Test
    void counts_startAtZeroForEveryCause_andCountEachRefusalOnce() {
        HttpRefusals r = new HttpRefusals();
        assertEquals(HttpRefusals.CAUSES, List.copyOf(r.counts().keySet()));
        r.answered(400);
        r.answered(400);
        r.answered(200);
        r.answered(404);
        r.answered(431);
        r.refused(HttpRefusals.CONNECTION_LIMIT);
        r.refused(HttpRefusals.HEAD_TIMEOUT);
        Map<String, Long> c = r.counts();
        assertEquals(2L, c.get("http_malformed"));
        assertEquals(1L, c.get("http_headers_too_large"));
        assertEquals(0L, c.get("http_unauthenticated"));
        assertEquals(1L, c.get(HttpRefusals.CONNECTION_LIMIT));
        assertEquals(1L, c.get(HttpRefusals.HEAD_TIMEOUT));
        assertEquals(5L, c.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void anUnknownCause_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HttpRefusals().refused("http_typo"));
    }
}
