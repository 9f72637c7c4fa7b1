package geoblocks.node.s3.access;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.w3c.dom.Element;

/**
 * A bucket's ownership controls (S3's ObjectOwnership) and what they decide, pure. The gateway keeps
 * one owner per bucket and shows it as the owner of every object in it, whatever the setting; the
 * setting that changes behaviour is {@link #BUCKET_OWNER_ENFORCED}: ACLs are disabled, so a request
 * that sets one (x-amz-acl or x-amz-grant-* on PutObject, CopyObject, CreateMultipartUpload,
 * PutObjectAcl, PutBucketAcl) is refused AccessControlListNotSupported, except the canned
 * {@code bucket-owner-full-control} on objects (what the owner has anyway); and a bucket whose ACL
 * grants anything cannot be switched to it (InvalidBucketAclWithObjectOwnership).
 */
public enum ObjectOwnership {
    BUCKET_OWNER_ENFORCED("BucketOwnerEnforced"), BUCKET_OWNER_PREFERRED("BucketOwnerPreferred"), OBJECT_WRITER("ObjectWriter");

    private final String xml;

    ObjectOwnership(String xml) {
        this.xml = xml;
    }

    public String xml() {
        return xml;
    }

    /** The setting S3 names {@code s}; anything else is {@code error}. */
    public static ObjectOwnership parse(String s, S3Error error) throws S3Exception {
        for (ObjectOwnership o : values()) {
            if (o.xml.equals(s)) {
                return o;
            }
        }
        throw new S3Exception(error, "ObjectOwnership must be BucketOwnerEnforced, BucketOwnerPreferred or ObjectWriter, was '" + s + "'");
    }

    /** The setting of a bucket record's {@code ownership=} line. */
    static ObjectOwnership ofRecord(String s) {
        try {
            return parse(s, S3Error.INVALID_ARGUMENT);
        } catch (S3Exception e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** A PutBucketOwnershipControls body: one Rule with one ObjectOwnership. */
    static ObjectOwnership fromXml(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "OwnershipControls");
        ObjectOwnership found = null;
        for (Element rule : S3Xml.children(root)) {
            if (!rule.getLocalName().equals("Rule") || found != null) {
                throw new S3Exception(S3Error.MALFORMED_XML, "OwnershipControls holds one Rule");
            }
            for (Element e : S3Xml.children(rule)) {
                if (e.getLocalName().equals("ObjectOwnership") && found == null) {
                    found = parse(e.getTextContent().trim(), S3Error.MALFORMED_XML);
                } else {
                    throw new S3Exception(S3Error.MALFORMED_XML, "a Rule holds one ObjectOwnership");
                }
            }
            if (found == null) {
                throw new S3Exception(S3Error.MALFORMED_XML, "a Rule holds one ObjectOwnership");
            }
        }
        if (found == null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "OwnershipControls holds one Rule");
        }
        return found;
    }

    byte[] toXml() {
        return (S3Xml.HEAD + "<OwnershipControls xmlns=\"" + S3Xml.NS + "\"><Rule><ObjectOwnership>" + xml
                + "</ObjectOwnership></Rule></OwnershipControls>").getBytes(StandardCharsets.UTF_8);
    }

    /** Whether a request's headers set an ACL (x-amz-acl or any x-amz-grant-*). */
    static boolean setsAcl(Function<String, String> header) {
        return header.apply("x-amz-acl") != null || setsAclGrants(header);
    }

    /**
     * Why a request that sets an ACL is refused in a bucket with {@code o} (null: no controls), or
     * null. {@code object}: it sets an object's ACL (PutObject, CopyObject, CreateMultipartUpload,
     * PutObjectAcl); {@code body}: a PutObjectAcl / PutBucketAcl with an AccessControlPolicy body.
     */
    static S3Exception aclRefusal(ObjectOwnership o, Function<String, String> header, boolean object, boolean body) {
        if (o != BUCKET_OWNER_ENFORCED || (!body && !setsAcl(header))) {
            return null;
        }
        String canned = header.apply("x-amz-acl");
        boolean ownerFull = !body && canned != null && canned.trim().equals("bucket-owner-full-control")
                && !setsAclGrants(header);
        if (object && ownerFull) {
            return null;
        }
        return new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED, "the bucket's ObjectOwnership is BucketOwnerEnforced: ACLs are disabled");
    }

    private static boolean setsAclGrants(Function<String, String> header) {
        return header.apply("x-amz-grant-read") != null || header.apply("x-amz-grant-write") != null
                || header.apply("x-amz-grant-read-acp") != null || header.apply("x-amz-grant-write-acp") != null
                || header.apply("x-amz-grant-full-control") != null;
    }

    /** Whether a bucket with ACL {@code acl} may have {@code o}: BucketOwnerEnforced needs an ACL that grants nothing beyond the owner. */
    public static boolean allowedWith(ObjectOwnership o, S3Access.Acl acl) {
        return o != BUCKET_OWNER_ENFORCED || acl.grants().isEmpty();
    }
}
