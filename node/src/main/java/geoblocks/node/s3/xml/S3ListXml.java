package geoblocks.node.s3.xml;

import static geoblocks.node.s3.xml.S3Xml.HEAD;
import static geoblocks.node.s3.xml.S3Xml.NS;
import static geoblocks.node.s3.xml.S3Xml.el;
import static geoblocks.node.s3.xml.S3Xml.iso;

import geoblocks.node.s3.ObjectListing;
import geoblocks.node.s3.auth.SigV4;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.VersionListing;
import java.nio.charset.StandardCharsets;

/**
 * The listing answers: ListObjectsV2, ListObjects (v1) and ListObjectVersions, with each entry's
 * {@code Owner} when one is given (v1 and versions always, v2 with {@code fetch-owner=true}).
 */
public final class S3ListXml {
    private S3ListXml() {}

    /** An entry's owner as listings show it: the bucket owner's key id and the key's name. */
    public record Owner(String id, String displayName) {}

    private static void owner(StringBuilder sb, Owner owner) {
        if (owner != null) {
            sb.append("<Owner>");
            el(sb, "ID", owner.id());
            el(sb, "DisplayName", owner.displayName());
            sb.append("</Owner>");
        }
    }

    /** A ListObjectsV2 answer; keys and prefixes URL-encoded when the client asked {@code encoding-type=url}. */
    public static byte[] listV2(String bucket, ObjectListing.Query q, String token, ObjectListing.Page p, boolean urlEncode,
            Owner owner) {
        StringBuilder sb = new StringBuilder(HEAD).append("<ListBucketResult xmlns=\"").append(NS).append("\">");
        el(sb, "Name", bucket);
        el(sb, "Prefix", enc(q.prefix(), urlEncode));
        if (!q.delimiter().isEmpty()) {
            el(sb, "Delimiter", enc(q.delimiter(), urlEncode));
        }
        if (!q.startAfter().isEmpty()) {
            el(sb, "StartAfter", enc(q.startAfter(), urlEncode));
        }
        el(sb, "MaxKeys", q.maxKeys());
        el(sb, "KeyCount", p.keyCount());
        el(sb, "IsTruncated", p.truncated());
        if (token != null) {
            el(sb, "ContinuationToken", token);
        }
        if (p.nextToken() != null) {
            el(sb, "NextContinuationToken", p.nextToken());
        }
        if (urlEncode) {
            el(sb, "EncodingType", "url");
        }
        contents(sb, p, urlEncode, owner);
        return sb.append("</ListBucketResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A ListObjects (v1) answer: {@code NextMarker} is the page's last item when it is truncated. */
    public static byte[] listV1(String bucket, ObjectListing.Query q, String marker, ObjectListing.Page p, boolean urlEncode,
            Owner owner) {
        StringBuilder sb = new StringBuilder(HEAD).append("<ListBucketResult xmlns=\"").append(NS).append("\">");
        el(sb, "Name", bucket);
        el(sb, "Prefix", q.prefix()); // v1 answers Prefix as sent, encoding-type or not (clients do not decode it)
        el(sb, "Marker", enc(marker == null ? "" : marker, urlEncode));
        if (p.nextToken() != null) {
            el(sb, "NextMarker", enc(ObjectListing.decodeTokenUnchecked(p.nextToken()), urlEncode));
        }
        if (!q.delimiter().isEmpty()) {
            el(sb, "Delimiter", enc(q.delimiter(), urlEncode));
        }
        el(sb, "MaxKeys", q.maxKeys());
        el(sb, "IsTruncated", p.truncated());
        if (urlEncode) {
            el(sb, "EncodingType", "url");
        }
        contents(sb, p, urlEncode, owner);
        return sb.append("</ListBucketResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void contents(StringBuilder sb, ObjectListing.Page p, boolean urlEncode, Owner owner) {
        for (ObjectListing.Entry e : p.contents()) {
            sb.append("<Contents>");
            el(sb, "Key", enc(e.key(), urlEncode));
            el(sb, "LastModified", iso(e.lastModifiedMillis()));
            if (e.etag() != null) {
                el(sb, "ETag", ETags.quote(e.etag()));
            }
            el(sb, "Size", e.size());
            el(sb, "StorageClass", "STANDARD");
            owner(sb, owner);
            sb.append("</Contents>");
        }
        for (String cp : p.commonPrefixes()) {
            sb.append("<CommonPrefixes>");
            el(sb, "Prefix", enc(cp, urlEncode));
            sb.append("</CommonPrefixes>");
        }
    }

    private static String enc(String s, boolean url) {
        return url ? SigV4.encode(s).replace("%2F", "/") : s;
    }

    /** A ListObjectVersions answer. */
    public static byte[] listVersions(String bucket, String prefix, String delimiter, String keyMarker, String versionIdMarker,
            int maxKeys, VersionListing.Page p, boolean urlEncode, Owner owner) {
        StringBuilder sb = new StringBuilder(HEAD).append("<ListVersionsResult xmlns=\"").append(NS).append("\">");
        el(sb, "Name", bucket);
        el(sb, "Prefix", enc(prefix, urlEncode));
        el(sb, "KeyMarker", enc(keyMarker, urlEncode));
        el(sb, "VersionIdMarker", versionIdMarker);
        if (p.truncated()) {
            el(sb, "NextKeyMarker", enc(p.nextKeyMarker(), urlEncode));
            if (p.nextVersionIdMarker() != null) {
                el(sb, "NextVersionIdMarker", p.nextVersionIdMarker());
            }
        }
        if (!delimiter.isEmpty()) {
            el(sb, "Delimiter", enc(delimiter, urlEncode));
        }
        el(sb, "MaxKeys", maxKeys);
        el(sb, "IsTruncated", p.truncated());
        if (urlEncode) {
            el(sb, "EncodingType", "url");
        }
        for (ObjectVersions.V v : p.versions()) {
            String tag = v.deleteMarker() ? "DeleteMarker" : "Version";
            sb.append('<').append(tag).append('>');
            el(sb, "Key", enc(v.key(), urlEncode));
            el(sb, "VersionId", v.versionId());
            el(sb, "IsLatest", v.latest());
            el(sb, "LastModified", iso(v.modifiedMillis()));
            if (!v.deleteMarker()) {
                if (v.etag() != null) {
                    el(sb, "ETag", ETags.quote(v.etag()));
                }
                el(sb, "Size", v.size());
                el(sb, "StorageClass", "STANDARD");
            }
            owner(sb, owner);
            sb.append("</").append(tag).append('>');
        }
        for (String cp : p.prefixes()) {
            sb.append("<CommonPrefixes>");
            el(sb, "Prefix", enc(cp, urlEncode));
            sb.append("</CommonPrefixes>");
        }
        return sb.append("</ListVersionsResult>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
