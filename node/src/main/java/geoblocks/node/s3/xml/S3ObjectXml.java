package geoblocks.node.s3.xml;

import geoblocks.node.s3.auth.SigV4;
import geoblocks.node.s3.multipart.MultipartUploads;
import geoblocks.node.s3.multipart.ObjectParts;
import geoblocks.node.s3.multipart.PartChecksums;
import geoblocks.node.s3.multipart.UploadListing;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;

/**
 * The XML documents of the object-side calls beyond the basic ones (multipart answers with
 * checksums, tagging, ListParts, ListMultipartUploads, GetObjectAttributes), written with
 * {@link S3Xml}'s escaping and parsed with its hardened parser.
 */
public final class S3ObjectXml {
    private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";

    private S3ObjectXml() {}

    public static byte[] completeMultipart(String location, String bucket, String key, String etag, Checksums.Stored checksum) {
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

    private static void owner(StringBuilder sb, String element, S3ListXml.Owner who) {
        sb.append('<').append(element).append('>');
        S3Xml.el(sb, "ID", who.id());
        S3Xml.el(sb, "DisplayName", who.displayName());
        sb.append("</").append(element).append('>');
    }

    private static String enc(String s, boolean url) {
        return url ? SigV4.encode(s) : s;
    }

    public static byte[] listUploads(String bucket, S3ListXml.Owner owner,
            Function<MultipartUploads.Upload, S3ListXml.Owner> initiator, String prefix, String delimiter, String keyMarker,
            String uploadIdMarker, int max, boolean url, UploadListing.Page page) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<ListMultipartUploadsResult xmlns=\"").append(NS).append("\">");
        S3Xml.el(sb, "Bucket", bucket);
        S3Xml.el(sb, "KeyMarker", enc(keyMarker == null ? "" : keyMarker, url));
        S3Xml.el(sb, "UploadIdMarker", uploadIdMarker == null ? "" : uploadIdMarker);
        if (page.truncated()) {
            S3Xml.el(sb, "NextKeyMarker", enc(page.nextKeyMarker(), url));
            S3Xml.el(sb, "NextUploadIdMarker", page.nextUploadIdMarker() == null ? "" : page.nextUploadIdMarker());
        }
        S3Xml.el(sb, "Prefix", enc(prefix == null ? "" : prefix, url));
        if (delimiter != null) {
            S3Xml.el(sb, "Delimiter", enc(delimiter, url));
        }
        if (url) {
            S3Xml.el(sb, "EncodingType", "url");
        }
        S3Xml.el(sb, "MaxUploads", max);
        S3Xml.el(sb, "IsTruncated", page.truncated());
        for (MultipartUploads.Upload u : page.uploads()) {
            sb.append("<Upload>");
            S3Xml.el(sb, "Key", enc(u.key(), url));
            S3Xml.el(sb, "UploadId", u.id());
            owner(sb, "Initiator", initiator.apply(u));
            owner(sb, "Owner", owner);
            S3Xml.el(sb, "StorageClass", "STANDARD");
            S3Xml.el(sb, "Initiated", S3Xml.iso(u.startedMillis()));
            if (u.checksum() != null) {
                S3Xml.el(sb, "ChecksumAlgorithm", u.checksum().upper());
                S3Xml.el(sb, "ChecksumType", u.checksumType().name());
            }
            sb.append("</Upload>");
        }
        for (String p : page.prefixes()) {
            sb.append("<CommonPrefixes>");
            S3Xml.el(sb, "Prefix", enc(p, url));
            sb.append("</CommonPrefixes>");
        }
        return sb.append("</ListMultipartUploadsResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] listParts(MultipartUploads.Upload u, S3ListXml.Owner owner, S3ListXml.Owner initiator, int marker, int max,
            UploadListing.Parts page) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<ListPartsResult xmlns=\"").append(NS).append("\">");
        S3Xml.el(sb, "Bucket", u.bucket());
        S3Xml.el(sb, "Key", u.key());
        S3Xml.el(sb, "UploadId", u.id());
        owner(sb, "Initiator", initiator);
        owner(sb, "Owner", owner);
        S3Xml.el(sb, "StorageClass", "STANDARD");
        S3Xml.el(sb, "PartNumberMarker", marker);
        S3Xml.el(sb, "NextPartNumberMarker", page.next());
        S3Xml.el(sb, "MaxParts", max);
        S3Xml.el(sb, "IsTruncated", page.truncated());
        if (u.checksum() != null) {
            S3Xml.el(sb, "ChecksumAlgorithm", u.checksum().upper());
            S3Xml.el(sb, "ChecksumType", u.checksumType().name());
        }
        for (MultipartUploads.Part p : page.parts()) {
            sb.append("<Part>");
            S3Xml.el(sb, "PartNumber", p.number());
            S3Xml.el(sb, "LastModified", S3Xml.iso(p.addedMillis()));
            S3Xml.el(sb, "ETag", ETags.quote(p.etag()));
            S3Xml.el(sb, "Size", p.size());
            if (p.checksum() != null) {
                S3Xml.el(sb, "Checksum" + p.checksumAlgorithm().upper(), Checksums.base64(p.checksum()));
            }
            sb.append("</Part>");
        }
        return sb.append("</ListPartsResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A GetObjectAttributes answer with the attributes {@code wanted} (lower case). ObjectParts lists
     * the parts after {@code marker} (at most {@code maxParts}) when the part size is known
     * ({@code partSize} > 0), else only their count; it is left out for a single-part object.
     */
    public static byte[] attributes(Set<String> wanted, String etag, long size, Checksums.Stored checksum, int parts,
            long partSize, int marker, int maxParts) {
        return attributes(wanted, etag, size, checksum, parts, partSize, marker, maxParts, null);
    }

    /** As above; each listed part with its checksum when {@code partSums} has it. */
    public static byte[] attributes(Set<String> wanted, String etag, long size, Checksums.Stored checksum, int parts,
            long partSize, int marker, int maxParts, PartChecksums.Parts partSums) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<GetObjectAttributesResponse xmlns=\"").append(NS).append("\">");
        if (wanted.contains("etag") && etag != null) {
            S3Xml.el(sb, "ETag", etag);
        }
        if (wanted.contains("checksum") && checksum != null) {
            sb.append("<Checksum>");
            S3Xml.el(sb, "Checksum" + checksum.algorithm().upper(), checksum.value());
            S3Xml.el(sb, "ChecksumType", checksum.type().name());
            sb.append("</Checksum>");
        }
        if (wanted.contains("objectparts") && parts > 0) {
            sb.append("<ObjectParts>");
            S3Xml.el(sb, "PartsCount", parts); // TotalPartsCount in the SDKs
            if (partSize > 0) {
                int last = Math.min(parts, marker + maxParts);
                S3Xml.el(sb, "PartNumberMarker", marker);
                S3Xml.el(sb, "NextPartNumberMarker", last);
                S3Xml.el(sb, "MaxParts", maxParts);
                S3Xml.el(sb, "IsTruncated", last < parts);
                for (int n = marker + 1; n <= last; n++) {
                    sb.append("<Part>");
                    S3Xml.el(sb, "PartNumber", n);
                    S3Xml.el(sb, "Size", n == parts ? size - (long) (parts - 1) * partSize : partSize);
                    if (partSums != null && partSums.part(n) != null) {
                        S3Xml.el(sb, "Checksum" + partSums.algorithm().upper(), partSums.part(n));
                    }
                    sb.append("</Part>");
                }
            }
            sb.append("</ObjectParts>");
        }
        if (wanted.contains("storageclass")) {
            S3Xml.el(sb, "StorageClass", "STANDARD");
        }
        if (wanted.contains("objectsize")) {
            S3Xml.el(sb, "ObjectSize", size);
        }
        return sb.append("</GetObjectAttributesResponse>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
