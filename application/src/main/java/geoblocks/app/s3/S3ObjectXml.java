package geoblocks.app.s3;

import java.nio.charset.StandardCharsets;

/**
 * The XML documents of the object-side calls beyond the basic ones (multipart answers with
 * checksums, tagging, ListParts, ListMultipartUploads, GetObjectAttributes), written with
 * {@link S3Xml}'s escaping and parsed with its hardened parser.
 */
final class S3ObjectXml {
    private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";

    private S3ObjectXml() {}

    static byte[] completeMultipart(String location, String bucket, String key, String etag, Checksums.Stored checksum) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<CompleteMultipartUploadResult xmlns=\"").append(NS).append("\">");
        S3Xml.el(sb, "Location", location);
        S3Xml.el(sb, "Bucket", bucket);
        S3Xml.el(sb, "Key", key);
        S3Xml.el(sb, "ETag", ETags.quote(etag));
        if (checksum != null) {
            S3Xml.el(sb, "Checksum" + checksum.algorithm().upper(), checksum.value());
            S3Xml.el(sb, "ChecksumType", checksum.type().name());
        }
        return sb.append("</CompleteMultipartUploadResult>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
