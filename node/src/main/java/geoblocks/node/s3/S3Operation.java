package geoblocks.node.s3;

/**
 * Every operation the S3 gateway serves, named as AWS names it (so a search for {@code PutBucketPolicy} finds it).
 * A request is parsed into one of these once ({@link S3Router#parse}); {@link S3Handlers#dispatch} is the one
 * switch that calls each operation's handler. The table of which request is which operation is docs/s3.md.
 */
enum S3Operation {
    // the service
    ListBuckets,
    // answered before authorization: a CORS preflight (OPTIONS, unsigned) and a browser's form upload (POST, unsigned)
    PreflightCors,
    PostObject,
    // buckets
    CreateBucket,
    HeadBucket,
    DeleteBucket,
    ListObjects,
    ListObjectsV2,
    ListObjectVersions,
    ListMultipartUploads,
    GetBucketLocation,
    DeleteObjects,
    GetBucketVersioning,
    PutBucketVersioning,
    GetBucketAcl,
    PutBucketAcl,
    GetBucketTagging,
    PutBucketTagging,
    DeleteBucketTagging,
    GetBucketLifecycleConfiguration,
    PutBucketLifecycleConfiguration,
    DeleteBucketLifecycle,
    GetBucketEncryption,
    PutBucketEncryption,
    DeleteBucketEncryption,
    GetBucketCors,
    PutBucketCors,
    DeleteBucketCors,
    GetPublicAccessBlock,
    PutPublicAccessBlock,
    DeletePublicAccessBlock,
    GetBucketPolicy,
    PutBucketPolicy,
    DeleteBucketPolicy,
    GetBucketPolicyStatus,
    GetObjectLockConfiguration,
    PutObjectLockConfiguration,
    GetBucketOwnershipControls,
    PutBucketOwnershipControls,
    DeleteBucketOwnershipControls,
    // objects
    GetObject,
    HeadObject,
    PutObject,
    CopyObject,
    DeleteObject,
    GetObjectAttributes,
    GetObjectAcl,
    PutObjectAcl,
    GetObjectTagging,
    PutObjectTagging,
    DeleteObjectTagging,
    GetObjectRetention,
    PutObjectRetention,
    GetObjectLegalHold,
    PutObjectLegalHold,
    // multipart uploads
    CreateMultipartUpload,
    UploadPart,
    UploadPartCopy,
    CompleteMultipartUpload,
    AbortMultipartUpload,
    ListParts
}
