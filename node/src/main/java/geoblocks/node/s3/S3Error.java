package geoblocks.node.s3;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.node.s3.access.ObjectOwnership;
import geoblocks.node.s3.lock.ObjectLock;
import geoblocks.node.s3.object.TagSet;

/** The S3 error codes the gateway answers with, each with its HTTP status and default message. */
public enum S3Error {
    ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
    ACCESS_CONTROL_LIST_NOT_SUPPORTED("AccessControlListNotSupported", 400, "The bucket does not allow ACLs"),
    AUTHORIZATION_HEADER_MALFORMED("AuthorizationHeaderMalformed", 400, "The authorization header is malformed"),
    AUTHORIZATION_QUERY_PARAMETERS_ERROR("AuthorizationQueryParametersError", 400, "Error parsing the X-Amz-Credential parameter"),
    BAD_DIGEST("BadDigest", 400, "The Content-MD5 you specified did not match what we received."),
    BUCKET_ALREADY_EXISTS("BucketAlreadyExists", 409, "The requested bucket name is not available."),
    BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou", 409, "Your previous request to create the named bucket succeeded and you already own it."),
    BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty"),
    ENTITY_TOO_SMALL("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum allowed object size."),
    ENTITY_TOO_LARGE("EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
    INCOMPLETE_BODY("IncompleteBody", 400, "You did not provide the number of bytes specified by the Content-Length HTTP header"),
    INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
    INVALID_ACCESS_KEY_ID("InvalidAccessKeyId", 403, "The AWS Access Key Id you provided does not exist in our records."),
    INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
    INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP("InvalidBucketAclWithObjectOwnership", 400, "Bucket cannot have ACLs set with ObjectOwnership's BucketOwnerEnforced setting"),
    INVALID_BUCKET_STATE("InvalidBucketState", 409, "The request is not valid with the current state of the bucket."),
    INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
    INVALID_ENCRYPTION_ALGORITHM("InvalidEncryptionAlgorithmError", 400, "The encryption request you specified is not valid. The valid value is AES256."),
    INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 you specified is not valid."),
    INVALID_LOCATION_CONSTRAINT("InvalidLocationConstraint", 400, "The specified location constraint is not valid."),
    INVALID_PART("InvalidPart", 400, "One or more of the specified parts could not be found."),
    INVALID_PART_ORDER("InvalidPartOrder", 400, "The list of parts was not in ascending order."),
    INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
    INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
    INVALID_RETENTION_PERIOD("InvalidRetentionPeriod", 400, "The retention period must be a positive integer."),
    INVALID_TAG("InvalidTag", 400, "The tag provided was not a valid tag."),
    KEY_TOO_LONG("KeyTooLongError", 400, "Your key is too long"),
    MALFORMED_POLICY("MalformedPolicy", 400, "Policies must be valid JSON and the first byte must be '{'"),
    MALFORMED_XML("MalformedXML", 400, "The XML you provided was not well-formed or did not validate against our published schema."),
    METADATA_TOO_LARGE("MetadataTooLarge", 400, "Your metadata headers exceed the maximum allowed metadata size."),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
    MISSING_CONTENT_LENGTH("MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
    NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist"),
    NO_SUCH_LIFECYCLE_CONFIGURATION("NoSuchLifecycleConfiguration", 404, "The lifecycle configuration does not exist."),
    NO_SUCH_BUCKET_POLICY("NoSuchBucketPolicy", 404, "The bucket policy does not exist"),
    NO_SUCH_CORS_CONFIGURATION("NoSuchCORSConfiguration", 404, "The CORS configuration does not exist"),
    /** The node's storage has no room (a full disk): nothing was stored; reads go on. HTTP 507 Insufficient Storage (RFC 4918). */
    INSUFFICIENT_STORAGE("InsufficientStorage", 507, "The node has no room to store this: its disk is full."),
    /**
     * A block of the object is missing at every region that should hold it (geoblocks' own code; no S3
     * one fits). The gateway's fault, not the client's, hence 500; a retry does not help until a copy is restored.
     */
    BLOCK_MISSING("BlockMissing", 500, "A block of this object is missing at every region that should hold it."),
    /** No region holds a block of the object intact (its copies fail their checksum): 500, geoblocks' own code. */
    BLOCK_CORRUPT("BlockCorrupt", 500, "No region holds a block of this object intact: its copies are corrupt."),
    /** The node's disk failed a read or write (neither full nor a corrupt block): 500, geoblocks' own code. */
    STORAGE_IO_ERROR("StorageIOError", 500, "The node's disk failed a read or write."),
    NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
    NO_SUCH_TAG_SET("NoSuchTagSet", 404, "The TagSet does not exist."),
    NO_SUCH_ENCRYPTION_CONFIGURATION("ServerSideEncryptionConfigurationNotFoundError", 404, "The server side encryption configuration was not found"),
    NO_SUCH_PUBLIC_ACCESS_BLOCK("NoSuchPublicAccessBlockConfiguration", 404, "The public access block configuration was not found"),
    NO_SUCH_OBJECT_LOCK_CONFIGURATION("NoSuchObjectLockConfiguration", 404, "The specified object does not have an ObjectLock configuration."),
    OBJECT_LOCK_CONFIGURATION_NOT_FOUND("ObjectLockConfigurationNotFoundError", 404, "Object Lock configuration does not exist for this bucket."),
    OWNERSHIP_CONTROLS_NOT_FOUND("OwnershipControlsNotFoundError", 404, "The bucket ownership controls were not found"),
    NO_SUCH_UPLOAD("NoSuchUpload", 404, "The specified multipart upload does not exist."),
    NO_SUCH_VERSION("NoSuchVersion", 404, "The specified version does not exist."),
    NOT_IMPLEMENTED("NotImplemented", 501, "A header or query you provided implies functionality that is not implemented."),
    PRECONDITION_FAILED("PreconditionFailed", 412, "At least one of the preconditions you specified did not hold."),
    REQUEST_TIMEOUT("RequestTimeout", 400, "Your socket connection to the server was not read from or written to within the timeout period."),
    REQUEST_TIME_TOO_SKEWED("RequestTimeTooSkewed", 403, "The difference between the request time and the server's time is too large."),
    SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "Please reduce your request rate."),
    /** A node refused as busy (out of transfer memory after its admission queue's wait): SDKs retry it with backoff. */
    SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
    SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403, "The request signature we calculated does not match the signature you provided."),
    TEMPORARY_REDIRECT("TemporaryRedirect", 307, "Please re-send this request to the specified temporary endpoint."),
    SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400, "The provided 'x-amz-content-sha256' header does not match what was computed.");

    private final String code;
    private final int status;
    private final String message;

    S3Error(String code, int status, String message) {
        this.code = code;
        this.status = status;
        this.message = message;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String message() {
        return message;
    }

    /**
     * The one table from a node's failure codes to S3 errors, for any request whose handler has no
     * more specific answer (a missing bucket record is NoSuchBucket, a taken bucket name
     * BucketAlreadyOwnedByYou). INVALID is the gateway's fault, not the S3 client's (the gateway
     * checks what the client sent before it asks the node), hence 500. A missing or corrupt block and a
     * disk's I/O error are the node's faults, not the client's: 500, each with its own code.
     */
    public static S3Error forNode(FailureCode code) {
        return switch (code) {
            case NOT_FOUND -> NO_SUCH_KEY;
            case EXISTS, NEWER_EXISTS, PRECONDITION_FAILED -> PRECONDITION_FAILED;
            case BUSY -> SLOW_DOWN; // out of transfer memory after the admission queue's wait: SDKs back off
            case UNAVAILABLE -> SERVICE_UNAVAILABLE;
            case INVALID, INTERNAL, OUTCOME_UNKNOWN -> INTERNAL_ERROR;
            case FORBIDDEN -> ACCESS_DENIED; // the gateway's own client is an admin client: not expected
            case UNSUPPORTED -> NOT_IMPLEMENTED; // the node runs an older build that does not know the operation
            case INSUFFICIENT_STORAGE -> INSUFFICIENT_STORAGE;
            case BLOCK_MISSING -> BLOCK_MISSING;
            case BLOCK_CORRUPT -> BLOCK_CORRUPT;
            case IO_ERROR -> STORAGE_IO_ERROR;
        };
    }
}
