package geoblocks.node.s3;

/** A request the gateway refuses with an S3 error code and a message naming what was wrong. */
public final class S3Exception extends Exception {
    private final S3Error error;

    public S3Exception(S3Error error, String message) {
        super(message == null ? error.message() : message);
        this.error = error;
    }

    public S3Error error() {
        return error;
    }
}
