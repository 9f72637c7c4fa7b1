package geoblocks.node.s3.object;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The conditions of a DeleteObject ({@code If-Match}, {@code x-amz-if-match-last-modified-time},
 * {@code x-amz-if-match-size}) or of one key of a DeleteObjects ({@code ETag}, {@code LastModifiedTime},
 * {@code Size}), and the decision on the version they apply to (the current one, or the one named by
 * {@code versionId}). As S3 (and Ceph) decide them: a key or version that is not there is deleted
 * already (204, whatever the conditions); a delete marker passes only {@code If-Match: *} alone; a
 * version passes when its ETag, its modification time (to the second, as Last-Modified shows it) and
 * its size match every condition given. Pure.
 */
record DeleteConditions(String ifMatch, Long modifiedSeconds, Long size) {
    static final DeleteConditions NONE = new DeleteConditions(null, null, null);

    enum Verdict {
        /** Nothing there: deleted already. */
        GONE,
        PASSED,
        /** 412 PreconditionFailed. */
        FAILED
    }

    boolean any() {
        return ifMatch != null || modifiedSeconds != null || size != null;
    }

    /**
     * The conditions as sent (null for one not sent): a time as an HTTP date (the header) or ISO 8601
     * (DeleteObjects' XML), a size as a whole number; anything else is InvalidArgument.
     */
    static DeleteConditions parse(String ifMatch, String modified, String size) throws S3Exception {
        Long seconds = null;
        if (modified != null) {
            String m = modified.trim();
            try {
                seconds = ZonedDateTime.parse(m, DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
            } catch (DateTimeParseException e) {
                try {
                    seconds = OffsetDateTime.parse(m).toEpochSecond();
                } catch (DateTimeParseException e2) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "'" + modified + "' is not a date (HTTP date or ISO 8601)");
                }
            }
        }
        Long bytes = null;
        if (size != null) {
            try {
                bytes = Long.parseLong(size.trim());
            } catch (NumberFormatException e) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "the size condition must be a whole number, was '" + size + "'");
            }
        }
        return new DeleteConditions(ifMatch, seconds, bytes);
    }

    /** The decision on {@code target}: the version the delete applies to as S3 shows it, or null when there is none. */
    Verdict decide(ObjectVersions.V target) {
        if (target == null) {
            return Verdict.GONE;
        }
        if (target.deleteMarker()) {
            return modifiedSeconds == null && size == null && (ifMatch == null || "*".equals(ifMatch.trim()))
                    ? Verdict.PASSED : Verdict.FAILED;
        }
        if (ifMatch != null && !Preconditions.matches(ifMatch, target.etag())) {
            return Verdict.FAILED;
        }
        if (modifiedSeconds != null && Math.floorDiv(target.modifiedMillis(), 1000L) != modifiedSeconds) {
            return Verdict.FAILED;
        }
        if (size != null && target.size() != size) {
            return Verdict.FAILED;
        }
        return Verdict.PASSED;
    }
}
