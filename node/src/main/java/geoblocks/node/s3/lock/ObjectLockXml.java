package geoblocks.node.s3.lock;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import org.w3c.dom.Element;

/**
 * The documents of object lock: ObjectLockConfiguration, Retention and LegalHold, read (MalformedXML
 * for anything not of their shape, InvalidRetentionPeriod for a period that is not positive) and
 * written as S3 answers them. Pure.
 */
final class ObjectLockXml {
    private ObjectLockXml() {}

    /** A PutObjectLockConfiguration body: {@code ObjectLockEnabled} must be Enabled; the rule is optional. */
    static ObjectLock.Config config(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "ObjectLockConfiguration");
        String enabled = null;
        ObjectLock.Rule rule = null;
        for (Element e : S3Xml.children(root)) {
            switch (e.getLocalName()) {
                case "ObjectLockEnabled" -> enabled = e.getTextContent().trim();
                case "Rule" -> rule = rule(e);
                default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected <" + e.getLocalName() + "> in ObjectLockConfiguration");
            }
        }
        if (!"Enabled".equals(enabled)) {
            throw new S3Exception(S3Error.MALFORMED_XML, "ObjectLockEnabled must be Enabled, was '" + enabled + "'");
        }
        return new ObjectLock.Config(rule);
    }

    private static ObjectLock.Rule rule(Element r) throws S3Exception {
        Element dr = null;
        for (Element e : S3Xml.children(r)) {
            if (e.getLocalName().equals("DefaultRetention") && dr == null) {
                dr = e;
            } else {
                throw new S3Exception(S3Error.MALFORMED_XML, "a Rule holds one DefaultRetention");
            }
        }
        if (dr == null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a Rule holds one DefaultRetention");
        }
        String mode = null;
        Integer days = null;
        Integer years = null;
        for (Element e : S3Xml.children(dr)) {
            switch (e.getLocalName()) {
                case "Mode" -> mode = e.getTextContent().trim();
                case "Days" -> days = integer(e);
                case "Years" -> years = integer(e);
                default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected <" + e.getLocalName() + "> in DefaultRetention");
            }
        }
        ObjectLock.Mode m = ObjectLock.Mode.parse(mode, S3Error.MALFORMED_XML);
        if ((days == null) == (years == null)) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a DefaultRetention has either Days or Years");
        }
        int n = days != null ? days : years;
        if (n <= 0) {
            throw new S3Exception(S3Error.INVALID_RETENTION_PERIOD, "the default retention period must be a positive integer, was " + n);
        }
        return days != null ? new ObjectLock.Rule(m, n, 0) : new ObjectLock.Rule(m, 0, n);
    }

    private static int integer(Element e) throws S3Exception {
        try {
            return Integer.parseInt(e.getTextContent().trim());
        } catch (NumberFormatException x) {
            throw new S3Exception(S3Error.MALFORMED_XML, "<" + e.getLocalName() + "> must be an integer");
        }
    }

    /** A PutObjectRetention body; null when it names neither mode nor date (removing the retention). */
    static ObjectLock.Retention retention(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "Retention");
        String mode = null;
        String until = null;
        for (Element e : S3Xml.children(root)) {
            switch (e.getLocalName()) {
                case "Mode" -> mode = e.getTextContent().trim();
                case "RetainUntilDate" -> until = e.getTextContent().trim();
                default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected <" + e.getLocalName() + "> in Retention");
            }
        }
        if (mode == null && until == null) {
            return null;
        }
        if (mode == null || until == null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a Retention has both Mode and RetainUntilDate");
        }
        return new ObjectLock.Retention(ObjectLock.Mode.parse(mode, S3Error.MALFORMED_XML),
                ObjectLock.parseDate(until, S3Error.MALFORMED_XML));
    }

    /** A PutObjectLegalHold body: Status ON or OFF. */
    static boolean legalHold(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "LegalHold");
        String status = null;
        for (Element e : S3Xml.children(root)) {
            if (e.getLocalName().equals("Status")) {
                status = e.getTextContent().trim();
            }
        }
        return ObjectLock.parseHold(status, S3Error.MALFORMED_XML);
    }

    static byte[] config(ObjectLock.Config c) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<ObjectLockConfiguration xmlns=\"").append(S3Xml.NS).append("\">");
        S3Xml.el(sb, "ObjectLockEnabled", "Enabled");
        if (c.rule() != null) {
            sb.append("<Rule><DefaultRetention>");
            S3Xml.el(sb, "Mode", c.rule().mode().name());
            if (c.rule().days() > 0) {
                S3Xml.el(sb, "Days", c.rule().days());
            } else {
                S3Xml.el(sb, "Years", c.rule().years());
            }
            sb.append("</DefaultRetention></Rule>");
        }
        return sb.append("</ObjectLockConfiguration>").toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] retention(ObjectLock.Retention r) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<Retention xmlns=\"").append(S3Xml.NS).append("\">");
        S3Xml.el(sb, "Mode", r.mode().name());
        S3Xml.el(sb, "RetainUntilDate", S3Xml.iso(r.untilMillis()));
        return sb.append("</Retention>").toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] legalHold(boolean on) {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<LegalHold xmlns=\"").append(S3Xml.NS).append("\">");
        S3Xml.el(sb, "Status", on ? "ON" : "OFF");
        return sb.append("</LegalHold>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
