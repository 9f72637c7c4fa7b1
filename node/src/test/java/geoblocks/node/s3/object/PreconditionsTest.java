package geoblocks.node.s3.object;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import org.junit.jupiter.api.Assertions;
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

    @Test
    void write_mapsIfMatchAndIfNoneMatchOntoTheETag_decidedByTheOwner() throws S3Exception {
        assertEquals(WriteCondition.NONE, Preconditions.write(null, null));
        WriteCondition c = Preconditions.write(null, "*");
        assertEquals("etag", c.field());
        assertEquals(true, c.absentOnly());
        assertEquals("\"abc\"", Preconditions.write("\"abc\"", null).ifMatch());
        assertEquals(S3Error.INVALID_ARGUMENT, Assertions.assertThrows(S3Exception.class,
                () -> Preconditions.write("x".repeat(2000), null)).error());
    }

    @Test
    void copySource_everyFailureRefuses_andTheTwoDocumentedPairsDecideAsS3Says() {
        String etag = "\"" + ETAG + "\"";
        assertEquals(true, Preconditions.copySource(null, null, null, null, ETAG, AT));
        assertEquals(false, Preconditions.copySource("\"other\"", null, null, null, ETAG, AT));
        assertEquals(false, Preconditions.copySource(null, etag, null, null, ETAG, AT), "If-None-Match matching: 412, not 304");
        assertEquals(false, Preconditions.copySource(null, null, "Sun, 06 Nov 1994 09:00:00 GMT", null, ETAG, AT));
        assertEquals(false, Preconditions.copySource(null, null, null, "Sun, 06 Nov 1994 08:00:00 GMT", ETAG, AT));
        // If-Match true and If-Unmodified-Since false: copied
        assertEquals(true, Preconditions.copySource(etag, null, null, "Sun, 06 Nov 1994 08:00:00 GMT", ETAG, AT));
        // If-None-Match false and If-Modified-Since true: refused
        assertEquals(false, Preconditions.copySource(null, etag, "Sun, 06 Nov 1994 08:00:00 GMT", null, ETAG, AT));
    }
}
