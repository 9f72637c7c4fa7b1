package geoblocks.node.s3.access;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.w3c.dom.Element;

/** The XML of ACLs ({@code AccessControlPolicy}) and of the PublicAccessBlock configuration. Pure. */
final class AclXml {
    private static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";

    private AclXml() {}

    /** A Get*Acl answer: the owner (id and display name), the ACL's grants, then the owner's FULL_CONTROL grant. */
    static byte[] policy(String owner, Function<String, String> displayName, S3Access.Acl acl) {
        StringBuilder sb = new StringBuilder(HEAD).append("<AccessControlPolicy xmlns=\"").append(S3Xml.NS).append("\">");
        sb.append("<Owner>");
        S3Xml.el(sb, "ID", owner);
        S3Xml.el(sb, "DisplayName", displayName.apply(owner));
        sb.append("</Owner><AccessControlList>");
        List<S3Access.Grant> all = new ArrayList<>(acl.grants()); // the owner's FULL_CONTROL last, as RGW lists it
        all.add(new S3Access.Grant(owner, S3Access.Perm.FULL_CONTROL));
        for (S3Access.Grant g : all) {
            sb.append("<Grant>");
            if (g.grantee().equals(S3Access.ALL_USERS) || g.grantee().equals(S3Access.AUTHENTICATED)) {
                sb.append("<Grantee xmlns:xsi=\"").append(XSI).append("\" xsi:type=\"Group\">");
                S3Xml.el(sb, "URI", g.grantee().equals(S3Access.ALL_USERS) ? S3Access.ALL_USERS_URI : S3Access.AUTHENTICATED_URI);
            } else {
                sb.append("<Grantee xmlns:xsi=\"").append(XSI).append("\" xsi:type=\"CanonicalUser\">");
                S3Xml.el(sb, "ID", g.grantee());
                S3Xml.el(sb, "DisplayName", displayName.apply(g.grantee()));
            }
            sb.append("</Grantee>");
            S3Xml.el(sb, "Permission", g.perm().name());
            sb.append("</Grant>");
        }
        return sb.append("</AccessControlList></AccessControlPolicy>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The grants of a Put*Acl body; the owner it names must be {@code owner} (S3 refuses another owner).
     * The owner's own FULL_CONTROL grant is implied and dropped.
     */
    static S3Access.Acl parsePolicy(byte[] body, String owner) throws S3Exception {
        Element root = S3Xml.parse(body, "AccessControlPolicy");
        List<S3Access.Grant> grants = new ArrayList<>();
        for (Element e : S3Xml.children(root)) {
            if (e.getLocalName().equals("Owner")) {
                for (Element o : S3Xml.children(e)) {
                    if (o.getLocalName().equals("ID") && !o.getTextContent().trim().equals(owner)) {
                        throw new S3Exception(S3Error.ACCESS_DENIED, "the ACL's owner must be the bucket's owner '" + owner + "'");
                    }
                }
            } else if (e.getLocalName().equals("AccessControlList")) {
                for (Element g : S3Xml.children(e)) {
                    if (!g.getLocalName().equals("Grant")) {
                        throw new S3Exception(S3Error.MALFORMED_XML, "an AccessControlList holds Grant elements");
                    }
                    grants.add(grant(g));
                }
            }
        }
        return S3Access.withoutOwner(new S3Access.Acl(grants), owner);
    }

    private static S3Access.Grant grant(Element g) throws S3Exception {
        String grantee = null;
        S3Access.Perm perm = null;
        for (Element e : S3Xml.children(g)) {
            if (e.getLocalName().equals("Permission")) {
                perm = S3Access.Perm.of(e.getTextContent());
            } else if (e.getLocalName().equals("Grantee")) {
                String type = e.getAttributeNS(XSI, "type");
                for (Element v : S3Xml.children(e)) {
                    switch (v.getLocalName()) {
                        case "ID" -> grantee = S3Access.grantee("id", v.getTextContent().trim());
                        case "URI" -> grantee = S3Access.grantee("uri", v.getTextContent().trim());
                        case "EmailAddress" -> grantee = S3Access.grantee("emailAddress", v.getTextContent().trim());
                        default -> { }
                    }
                }
                if (grantee == null) {
                    throw new S3Exception(S3Error.MALFORMED_XML, "a Grantee (type '" + type + "') needs an ID or a URI");
                }
            }
        }
        if (grantee == null || perm == null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a Grant needs a Grantee and a Permission");
        }
        return new S3Access.Grant(grantee, perm);
    }

    static byte[] publicAccessBlock(S3Access.PublicAccessBlock b) {
        StringBuilder sb = new StringBuilder(HEAD).append("<PublicAccessBlockConfiguration xmlns=\"").append(S3Xml.NS)
                .append("\">");
        S3Xml.el(sb, "BlockPublicAcls", b.blockPublicAcls());
        S3Xml.el(sb, "IgnorePublicAcls", b.ignorePublicAcls());
        S3Xml.el(sb, "BlockPublicPolicy", b.blockPublicPolicy());
        S3Xml.el(sb, "RestrictPublicBuckets", b.restrictPublicBuckets());
        return sb.append("</PublicAccessBlockConfiguration>").toString().getBytes(StandardCharsets.UTF_8);
    }

    static S3Access.PublicAccessBlock parsePublicAccessBlock(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "PublicAccessBlockConfiguration");
        boolean[] v = new boolean[4];
        List<String> names = List.of("BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets");
        for (Element e : S3Xml.children(root)) {
            int i = names.indexOf(e.getLocalName());
            if (i < 0) {
                throw new S3Exception(S3Error.MALFORMED_XML, "unknown element <" + e.getLocalName() + "> in a"
                        + " PublicAccessBlockConfiguration");
            }
            String t = e.getTextContent().trim();
            if (!t.equals("true") && !t.equals("false")) {
                throw new S3Exception(S3Error.MALFORMED_XML, e.getLocalName() + " must be true or false, was '" + t + "'");
            }
            v[i] = t.equals("true");
        }
        return new S3Access.PublicAccessBlock(v[0], v[1], v[2], v[3]);
    }
}
