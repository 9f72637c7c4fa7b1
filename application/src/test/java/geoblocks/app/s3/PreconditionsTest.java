package geoblocks.app.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PreconditionsTest {
    static final String ETAG = "9e107d9d372bb6826bd81d3542a419d6";
    /** Sun, 06 Nov 1994 08:49:37 GMT */
    static final long AT = 784111777_000L;

    static int status(String ifMatch, String ifNoneMatch, String ims, String ius) {
        return Preconditions.status(ifMatch, ifNoneMatch, ims, ius, ETAG, AT + 500);
    }

    @Test
    void none_is200() {
        assertEquals(200, status(null, null, null, null));
    }

    @Test
    void ifMatch_failing_is412_andWinsOverIfUnmodifiedSince() {
        assertEquals(200, status("\"" + ETAG + "\"", null, null, null));
        assertEquals(200, status("\"other\", \"" + ETAG + "\"", null, null, null));
        assertEquals(200, status("*", null, null, null));
        assertEquals(412, status("\"other\"", null, null, null));
        assertEquals(200, status("\"" + ETAG + "\"", null, null, "Sun, 06 Nov 1994 08:00:00 GMT"));
    }

    @Test
    void ifUnmodifiedSince_beforeTheChange_is412() {
        assertEquals(412, status(null, null, null, "Sun, 06 Nov 1994 08:49:36 GMT"));
        assertEquals(200, status(null, null, null, "Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(200, status(null, null, null, "not a date"));
    }

    @Test
    void ifNoneMatch_matching_is304_andWinsOverIfModifiedSince() {
        assertEquals(304, status(null, "\"" + ETAG + "\"", null, null));
        assertEquals(304, status(null, "W/\"" + ETAG + "\"", null, null));
        assertEquals(200, status(null, "\"other\"", "Sun, 06 Nov 1994 09:00:00 GMT", null));
    }

    @Test
    void ifModifiedSince_notPassed_is304() {
        assertEquals(304, status(null, null, "Sun, 06 Nov 1994 08:49:37 GMT", null));
        assertEquals(200, status(null, null, "Sun, 06 Nov 1994 08:49:36 GMT", null));
    }
}
