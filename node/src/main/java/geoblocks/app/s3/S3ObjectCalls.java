package geoblocks.app.s3;

/**
 * Routes the object-side calls beyond the basic ones, before the gateway's own dispatch: tagging
 * (object and bucket), ListMultipartUploads, ListParts and GetObjectAttributes.
 */
final class S3ObjectCalls {
    private S3ObjectCalls() {}

    /** Whether {@code call} is one of these calls (then it is being answered). */
    static boolean dispatch(S3Call call, S3Tagging tagging, S3UploadListings listings, S3Attributes attributes) {
        String m = call.method();
        if (call.has("tagging")) {
            boolean object = call.key != null;
            switch (m) {
                case "GET" -> {
                    if (object) {
                        tagging.getObject(call);
                    } else {
                        tagging.getBucket(call);
                    }
                }
                case "PUT" -> {
                    if (object) {
                        tagging.putObject(call);
                    } else {
                        tagging.putBucket(call);
                    }
                }
                case "DELETE" -> {
                    if (object) {
                        tagging.deleteObject(call);
                    } else {
                        tagging.deleteBucket(call);
                    }
                }
                default -> call.fail(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on ?tagging");
            }
            return true;
        }
        if (m.equals("GET") && call.key != null && call.has("attributes")) {
            attributes.get(call);
            return true;
        }
        if (m.equals("GET") && call.key == null && call.has("uploads")) {
            listings.listUploads(call);
            return true;
        }
        if ((m.equals("GET") || m.equals("HEAD")) && call.key != null && call.has("uploadId")) {
            listings.listParts(call);
            return true;
        }
        return false;
    }
}
