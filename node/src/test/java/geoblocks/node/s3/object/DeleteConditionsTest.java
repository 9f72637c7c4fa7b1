package geoblocks.node.s3.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.DeleteConditions.Verdict;
import geoblocks.node.s3.versioning.ObjectVersions;
import org.junit.jupiter.api.Test;

class DeleteConditionsTest {
    /** 2026-01-01T00:00:00.250Z */
    static final long AT = 1_767_225_600_250L;
    static final ObjectVersions.V LIVE = new ObjectVersions.V("k", "v1", "v1", true, false, 3, AT, "abc");
    static final ObjectVersions.V MARKER = new ObjectVersions.V("k", "v2", "v2", true, true, 0, AT, null);

    static Verdict decide(String ifMatch, String time, String size, ObjectVersions.V v) throws S3Exception {
        return DeleteConditions.parse(ifMatch, time, size).decide(v);
    }

    @Test
    void nothingThere_isDeletedAlready_whateverTheConditions() throws S3Exception {
        assertEquals(Verdict.GONE, decide("\"bad\"", "Thu, 01 Jan 2015 00:00:00 GMT", "9999", null));
    }

    @Test
    void eachConditionGiven_mustMatch() throws S3Exception {
        assertEquals(Verdict.PASSED, decide("\"abc\"", null, null, LIVE));
        assertEquals(Verdict.PASSED, decide("*", null, null, LIVE));
        assertEquals(Verdict.FAILED, decide("badetag", null, null, LIVE));
        assertEquals(Verdict.PASSED, decide(null, "Thu, 01 Jan 2026 00:00:00 GMT", null, LIVE)); // to the second
        assertEquals(Verdict.PASSED, decide(null, "2026-01-01T00:00:00Z", null, LIVE)); // DeleteObjects' ISO 8601
        assertEquals(Verdict.FAILED, decide(null, "Thu, 01 Jan 2015 00:00:00 GMT", null, LIVE));
        assertEquals(Verdict.PASSED, decide(null, null, "3", LIVE));
        assertEquals(Verdict.FAILED, decide(null, null, "9999", LIVE));
        assertEquals(Verdict.FAILED, decide("\"abc\"", null, "4", LIVE));
        assertEquals(Verdict.PASSED, decide(null, null, null, LIVE));
    }

    @Test
    void deleteMarker_passesOnlyIfMatchStarAlone() throws S3Exception {
        assertEquals(Verdict.PASSED, decide("*", null, null, MARKER));
        assertEquals(Verdict.FAILED, decide("badetag", null, null, MARKER));
        assertEquals(Verdict.FAILED, decide(null, null, "0", MARKER));
        assertEquals(Verdict.FAILED, decide("*", "Thu, 01 Jan 2026 00:00:00 GMT", null, MARKER));
    }

    @Test
    void badValues_areInvalidArgument() throws S3Exception {
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> DeleteConditions.parse(null, "yesterday", null)).error());
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> DeleteConditions.parse(null, null, "3 bytes")).error());
        assertFalse(DeleteConditions.parse(null, null, null).any());
    }
}
