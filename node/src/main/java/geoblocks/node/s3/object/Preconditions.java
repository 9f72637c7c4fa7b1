package geoblocks.node.s3.object;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Conditional GET and HEAD (RFC 9110 section 13.2.2, as S3 applies it): {@code If-Match} (ETag list or
 * {@code *}) failing, or else {@code If-Unmodified-Since} failing, is 412; {@code If-None-Match}
 * matching is 304, or when absent {@code If-Modified-Since} not passed is 304; otherwise 200.
 * Dates have second precision; an unparsable date is ignored.
 */
public final class Preconditions {
    private Preconditions() {}

    /** 200, 304 or 412 for an object with {@code etag} (unquoted) last modified at {@code modifiedMillis}. */
    public static int status(String ifMatch, String ifNoneMatch, String ifModifiedSince, String ifUnmodifiedSince,
            String etag, long modifiedMillis) {
        long modifiedS = modifiedMillis / 1000;
        if (ifMatch != null) {
            if (!matches(ifMatch, etag)) {
                return 412;
            }
        } else {
            Long since = seconds(ifUnmodifiedSince);
            if (since != null && modifiedS > since) {
                return 412;
            }
        }
        if (ifNoneMatch != null) {
            return matches(ifNoneMatch, etag) ? 304 : 200;
        }
        Long since = seconds(ifModifiedSince);
        return since != null && modifiedS <= since ? 304 : 200;
    }

    /**
     * The condition a PUT, CompleteMultipartUpload or DELETE places on the object's current ETag,
     * for the name's owner region to decide ({@link WriteCondition}): If-Match and If-None-Match as
     * given (null when absent).
     */
    public static WriteCondition write(String ifMatch, String ifNoneMatch) throws S3Exception {
        try {
            return ifMatch == null && ifNoneMatch == null ? WriteCondition.NONE
                    : WriteCondition.on(S3Objects.META_ETAG, ifMatch, ifNoneMatch);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, e.getMessage());
        }
    }

    /**
     * CopyObject's and UploadPartCopy's conditions on the source ({@code x-amz-copy-source-if-*}):
     * true when the copy may go ahead. As S3 documents them: If-Match true makes a false
     * If-Unmodified-Since pass, and a false If-None-Match with a true If-Modified-Since fails; every
     * failure is 412 (never 304).
     */
    public static boolean copySource(String ifMatch, String ifNoneMatch, String ifModifiedSince, String ifUnmodifiedSince,
            String etag, long modifiedMillis) {
        return status(ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince, etag, modifiedMillis) == 200;
    }

    static boolean matches(String header, String etag) {
        for (String t : header.split(",")) {
            String v = t.trim();
            if (v.startsWith("W/")) {
                v = v.substring(2);
            }
            if (v.equals("*") || (etag != null && ETags.unquote(v).equals(etag))) {
                return true;
            }
        }
        return false;
    }

    private static Long seconds(String httpDate) {
        if (httpDate == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(httpDate.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
