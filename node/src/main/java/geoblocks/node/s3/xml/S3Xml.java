package geoblocks.node.s3.xml;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.multipart.MultipartUploads;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.S3Deletes;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The S3 XML documents the gateway writes (errors, bucket lists, object listings, multipart answers)
 * with every text value escaped, and the two it reads (CreateBucketConfiguration,
 * CompleteMultipartUpload) with a parser that refuses DOCTYPEs and external entities. Bodies it reads
 * are at most {@link #MAX_BODY} bytes; anything not well formed or not of the expected shape is
 * MalformedXML.
 */
public final class S3Xml {
    public static final int MAX_BODY = 1 << 20;
    public static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";
    public static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private S3Xml() {}

    /** Escapes text for an XML element or attribute; characters XML 1.0 cannot carry become U+FFFD. */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '\uFFFD' : c);
            }
        }
        return sb.toString();
    }

    public static String iso(long millis) {
        return ISO.format(Instant.ofEpochMilli(millis));
    }

    public static void el(StringBuilder sb, String name, Object value) {
        sb.append('<').append(name).append('>').append(escape(String.valueOf(value))).append("</").append(name).append('>');
    }

    public static byte[] error(S3Error e, String message, String resource, String requestId) {
        StringBuilder sb = new StringBuilder(HEAD).append("<Error>");
        el(sb, "Code", e.code());
        el(sb, "Message", message == null ? e.message() : message);
        el(sb, "Resource", resource);
        el(sb, "RequestId", requestId);
        return sb.append("</Error>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** ListAllMyBucketsResult: {@code created} holds each bucket's creation time by name, listed by name. */
    public static byte[] buckets(String owner, String displayName, Map<String, Long> created) {
        StringBuilder sb = new StringBuilder(HEAD).append("<ListAllMyBucketsResult xmlns=\"").append(NS).append("\">");
        sb.append("<Owner>");
        el(sb, "ID", owner);
        el(sb, "DisplayName", displayName);
        sb.append("</Owner><Buckets>");
        new TreeMap<>(created).forEach((name, at) -> {
            sb.append("<Bucket>");
            el(sb, "Name", name);
            el(sb, "CreationDate", iso(at));
            sb.append("</Bucket>");
        });
        return sb.append("</Buckets></ListAllMyBucketsResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] location(String region) {
        StringBuilder sb = new StringBuilder(HEAD).append("<LocationConstraint xmlns=\"").append(NS).append("\">");
        return sb.append(escape(region)).append("</LocationConstraint>").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] initiateMultipart(String bucket, String key, String uploadId) {
        StringBuilder sb = new StringBuilder(HEAD).append("<InitiateMultipartUploadResult xmlns=\"").append(NS).append("\">");
        el(sb, "Bucket", bucket);
        el(sb, "Key", key);
        el(sb, "UploadId", uploadId);
        return sb.append("</InitiateMultipartUploadResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] completeMultipart(String location, String bucket, String key, String etag) {
        StringBuilder sb = new StringBuilder(HEAD).append("<CompleteMultipartUploadResult xmlns=\"").append(NS).append("\">");
        el(sb, "Location", location);
        el(sb, "Bucket", bucket);
        el(sb, "Key", key);
        el(sb, "ETag", ETags.quote(etag));
        return sb.append("</CompleteMultipartUploadResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The LocationConstraint of a CreateBucketConfiguration body; empty body or element: null. */
    public static String locationConstraint(byte[] body) throws S3Exception {
        if (isBlank(body)) {
            return null;
        }
        Element root = parse(body, "CreateBucketConfiguration");
        for (Element e : children(root)) {
            if (e.getLocalName().equals("LocationConstraint")) {
                String v = e.getTextContent().trim();
                return v.isEmpty() ? null : v;
            }
        }
        return null;
    }

    /**
     * The parts of a CompleteMultipartUpload body, as (part number, ETag, checksum algorithm or null,
     * its base64 value or null), in document order.
     */
    public static List<Object[]> completeParts(byte[] body) throws S3Exception {
        Element root = parse(body, "CompleteMultipartUpload");
        List<Object[]> parts = new ArrayList<>();
        for (Element part : children(root)) {
            if (!part.getLocalName().equals("Part")) {
                continue;
            }
            String number = null;
            String etag = null;
            Checksums.Algorithm checksum = null;
            String checksumValue = null;
            for (Element f : children(part)) {
                if (f.getLocalName().equals("PartNumber")) {
                    number = f.getTextContent().trim();
                } else if (f.getLocalName().equals("ETag")) {
                    etag = f.getTextContent().trim();
                } else if (f.getLocalName().startsWith("Checksum") && Checksums.Algorithm.parse(f.getLocalName().substring(8)) != null) {
                    checksum = Checksums.Algorithm.parse(f.getLocalName().substring(8));
                    checksumValue = f.getTextContent().trim();
                }
            }
            if (number == null || etag == null) {
                throw new S3Exception(S3Error.MALFORMED_XML, "each Part needs a PartNumber and an ETag");
            }
            try {
                parts.add(new Object[] {MultipartUploads.partNumber(number), etag, checksum, checksumValue});
            } catch (S3Exception e) {
                throw new S3Exception(S3Error.MALFORMED_XML, e.getMessage());
            }
        }
        return parts;
    }

    /**
     * The keys of a DeleteObjects body (at most 1000), each with its optional VersionId and ETag
     * (the key is deleted only if its current ETag is that one), and whether it asked for a quiet answer.
     */
    public record DeleteRequest(List<String> keys, boolean quiet, List<String> versionIds, List<String> etags,
            List<String> modifiedTimes, List<String> sizes) {
        /** Without version ids or conditions. */
        public DeleteRequest(List<String> keys, boolean quiet) {
            this(keys, quiet, Collections.nCopies(keys.size(), null), Collections.nCopies(keys.size(), null));
        }

        /** Without LastModifiedTime and Size conditions. */
        public DeleteRequest(List<String> keys, boolean quiet, List<String> versionIds, List<String> etags) {
            this(keys, quiet, versionIds, etags, Collections.nCopies(keys.size(), null),
                    Collections.nCopies(keys.size(), null));
        }

        /** The LastModifiedTime the {@code i}-th key's version must have to be deleted, or null. */
        public String modified(int i) {
            return modifiedTimes.get(i);
        }

        /** The Size the {@code i}-th key's version must have to be deleted, or null. */
        public String size(int i) {
            return sizes.get(i);
        }

        /** The ETag the {@code i}-th key must have to be deleted (an If-Match), or null. */
        public String etag(int i) {
            return etags.get(i);
        }

        /** The VersionId given with the {@code i}-th key, or null. */
        public String versionId(int i) {
            return versionIds.get(i);
        }
    }

    public static DeleteRequest deleteObjects(byte[] body) throws S3Exception {
        Element root = parse(body, "Delete");
        List<String> keys = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        List<String> etags = new ArrayList<>();
        List<String> times = new ArrayList<>();
        List<String> sizes = new ArrayList<>();
        boolean quiet = false;
        for (Element e : children(root)) {
            if (e.getLocalName().equals("Quiet")) {
                quiet = Boolean.parseBoolean(e.getTextContent().trim());
            } else if (e.getLocalName().equals("Object")) {
                String key = null;
                String version = null;
                String etag = null;
                String time = null;
                String size = null;
                for (Element f : children(e)) {
                    if (f.getLocalName().equals("Key")) {
                        key = f.getTextContent();
                    } else if (f.getLocalName().equals("VersionId")) {
                        version = f.getTextContent().trim();
                    } else if (f.getLocalName().equals("ETag")) {
                        etag = f.getTextContent().trim();
                    } else if (f.getLocalName().equals("LastModifiedTime")) {
                        time = f.getTextContent().trim();
                    } else if (f.getLocalName().equals("Size")) {
                        size = f.getTextContent().trim();
                    }
                }
                if (key == null) {
                    throw new S3Exception(S3Error.MALFORMED_XML, "each Object needs a Key");
                }
                keys.add(key);
                versions.add(version == null || version.isEmpty() ? null : version);
                etags.add(etag == null || etag.isEmpty() ? null : etag);
                times.add(time == null || time.isEmpty() ? null : time);
                sizes.add(size == null || size.isEmpty() ? null : size);
            }
        }
        if (keys.isEmpty() || keys.size() > 1000) {
            throw new S3Exception(S3Error.MALFORMED_XML, "DeleteObjects takes 1..1000 keys, this has " + keys.size());
        }
        return new DeleteRequest(keys, quiet, Collections.unmodifiableList(versions),
                Collections.unmodifiableList(etags), Collections.unmodifiableList(times),
                Collections.unmodifiableList(sizes));
    }

    /**
     * A DeleteObjects answer: the keys deleted (none when quiet; an entry {@code KEY + '\n' + VERSIONID}
     * when a version was named: keys hold no control characters) and the errors, each (key, code, message,
     * and the version id the request named, or null).
     */
    public static byte[] deleteResult(List<S3Deletes.Deleted> deleted, List<String[]> errors) {
        StringBuilder sb = new StringBuilder(HEAD).append("<DeleteResult xmlns=\"").append(NS).append("\">");
        for (S3Deletes.Deleted d : deleted) {
            sb.append("<Deleted>");
            el(sb, "Key", d.key());
            if (d.versionId() != null) {
                el(sb, "VersionId", d.versionId());
            }
            if (d.deleteMarker()) {
                el(sb, "DeleteMarker", "true");
            }
            if (d.markerVersionId() != null) {
                el(sb, "DeleteMarkerVersionId", d.markerVersionId());
            }
            sb.append("</Deleted>");
        }
        for (String[] e : errors) {
            sb.append("<Error>");
            el(sb, "Key", e[0]);
            if (e.length > 3 && e[3] != null) {
                el(sb, "VersionId", e[3]);
            }
            el(sb, "Code", e[1]);
            el(sb, "Message", e[2]);
            sb.append("</Error>");
        }
        return sb.append("</DeleteResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A CopyObject answer. */
    public static byte[] copyResult(String etag, long lastModifiedMillis) {
        StringBuilder sb = new StringBuilder(HEAD).append("<CopyObjectResult xmlns=\"").append(NS).append("\">");
        el(sb, "LastModified", iso(lastModifiedMillis));
        el(sb, "ETag", ETags.quote(etag));
        return sb.append("</CopyObjectResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** An UploadPartCopy answer. */
    public static byte[] copyPartResult(String etag, long lastModifiedMillis) {
        StringBuilder sb = new StringBuilder(HEAD).append("<CopyPartResult xmlns=\"").append(NS).append("\">");
        el(sb, "LastModified", iso(lastModifiedMillis));
        el(sb, "ETag", ETags.quote(etag));
        return sb.append("</CopyPartResult>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The Status of a PutBucketVersioning body (MfaDelete Enabled is refused: there is no MFA). */
    public static ObjectVersions.Status versioningStatus(byte[] body) throws S3Exception {
        Element root = parse(body, "VersioningConfiguration");
        String status = null;
        for (Element e : children(root)) {
            if (e.getLocalName().equals("Status")) {
                status = e.getTextContent().trim();
            } else if (e.getLocalName().equals("MfaDelete") && e.getTextContent().trim().equals("Enabled")) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "MFA delete is not supported");
            }
        }
        return ObjectVersions.Status.parse(status);
    }

    /** A GetBucketVersioning answer (no Status while versioning was never set). */
    public static byte[] versioning(ObjectVersions.Status s) {
        StringBuilder sb = new StringBuilder(HEAD).append("<VersioningConfiguration xmlns=\"").append(NS).append("\">");
        if (s != ObjectVersions.Status.OFF) {
            el(sb, "Status", s.xml());
        }
        return sb.append("</VersioningConfiguration>").toString().getBytes(StandardCharsets.UTF_8);
    }

    static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    public static Element parse(byte[] body, String rootName) throws S3Exception {
        if (body.length > MAX_BODY) {
            throw new S3Exception(S3Error.MALFORMED_XML, "XML bodies are at most " + MAX_BODY + " bytes, this has " + body.length);
        }
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(SAXParseException e) {}

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            Document d = b.parse(new ByteArrayInputStream(body));
            Element root = d.getDocumentElement();
            if (!rootName.equals(root.getLocalName())) {
                throw new S3Exception(S3Error.MALFORMED_XML, "expected a " + rootName + " document, got <" + root.getNodeName() + ">");
            }
            return root;
        } catch (SAXException | IOException e) {
            throw new S3Exception(S3Error.MALFORMED_XML, "the XML body is not well formed: " + e.getMessage());
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    public static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        NodeList nl = e.getChildNodes();
        for (int i = 0; i < nl.getLength(); i++) {
            if (nl.item(i).getNodeType() == Node.ELEMENT_NODE) {
                out.add((Element) nl.item(i));
            }
        }
        return out;
    }
}
