package geoblocks.node.s3.bucket;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * A bucket's CORS configuration (PutBucketCors): its rules, parsed with S3's checks, written back as
 * GetBucketCors answers it, and matched against a request's {@code Origin}, method and requested
 * headers. An origin or header pattern may hold one {@code *} (any run of characters). Pure.
 */
record CorsConfig(List<Rule> rules) {
    static final int MAX_RULES = 100;
    static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");

    CorsConfig {
        rules = List.copyOf(rules);
    }

    record Rule(String id, List<String> methods, List<String> origins, List<String> headers, List<String> expose,
            Integer maxAgeSeconds) {
        Rule {
            methods = List.copyOf(methods);
            origins = List.copyOf(origins);
            headers = List.copyOf(headers);
            expose = List.copyOf(expose);
        }

        /** The origin pattern of this rule that {@code origin} matches, or null. */
        String origin(String origin) {
            for (String o : origins) {
                if (glob(o, origin)) {
                    return o;
                }
            }
            return null;
        }

        boolean allowsHeaders(List<String> requested) {
            for (String h : requested) {
                boolean ok = false;
                for (String p : headers) {
                    if (glob(p.toLowerCase(Locale.ROOT), h.toLowerCase(Locale.ROOT))) {
                        ok = true;
                        break;
                    }
                }
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }

    /** What a matching rule lets the response say (the Access-Control-* headers). */
    record Match(String allowOrigin, String allowMethods, String allowHeaders, String expose, Integer maxAge) {}

    /** Whether {@code value} matches {@code pattern}, where one {@code *} stands for any run of characters. */
    static boolean glob(String pattern, String value) {
        int star = pattern.indexOf('*');
        if (star < 0) {
            return pattern.equals(value);
        }
        String pre = pattern.substring(0, star);
        String post = pattern.substring(star + 1);
        return value.length() >= pre.length() + post.length() && value.startsWith(pre) && value.endsWith(post);
    }

    /**
     * The first rule that allows {@code origin} with {@code method} and every header of {@code requestHeaders};
     * null when none does.
     */
    Match match(String origin, String method, List<String> requestHeaders) {
        if (origin == null || method == null) {
            return null;
        }
        for (Rule r : rules) {
            String o = r.origin(origin);
            if (o == null || !r.methods().contains(method) || !r.allowsHeaders(requestHeaders)) {
                continue;
            }
            return new Match(o.equals("*") ? "*" : origin, String.join(", ", r.methods()),
                    requestHeaders.isEmpty() ? null : String.join(", ", requestHeaders),
                    r.expose().isEmpty() ? null : String.join(", ", r.expose()), r.maxAgeSeconds());
        }
        return null;
    }

    /** The header list of an {@code Access-Control-Request-Headers} value. */
    static List<String> headerList(String value) {
        List<String> out = new ArrayList<>();
        if (value != null) {
            for (String h : value.split(",")) {
                if (!h.isBlank()) {
                    out.add(h.trim());
                }
            }
        }
        return out;
    }

    static CorsConfig parse(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "CORSConfiguration");
        List<Rule> rules = new ArrayList<>();
        for (Element r : S3Xml.children(root)) {
            if (!r.getLocalName().equals("CORSRule")) {
                throw malformed("unexpected element " + r.getLocalName());
            }
            String id = null;
            Integer maxAge = null;
            List<String> methods = new ArrayList<>();
            List<String> origins = new ArrayList<>();
            List<String> headers = new ArrayList<>();
            List<String> expose = new ArrayList<>();
            for (Element e : S3Xml.children(r)) {
                String v = e.getTextContent().trim();
                switch (e.getLocalName()) {
                    case "ID" -> id = v;
                    case "AllowedMethod" -> {
                        if (!METHODS.contains(v)) {
                            throw new S3Exception(S3Error.INVALID_REQUEST, "Found unsupported HTTP method in CORS config. Unsupported method is " + v);
                        }
                        methods.add(v);
                    }
                    case "AllowedOrigin" -> origins.add(oneStar(v, "AllowedOrigin"));
                    case "AllowedHeader" -> headers.add(oneStar(v, "AllowedHeader"));
                    case "ExposeHeader" -> expose.add(v);
                    case "MaxAgeSeconds" -> {
                        try {
                            maxAge = Integer.parseInt(v);
                        } catch (NumberFormatException x) {
                            throw malformed("MaxAgeSeconds '" + v + "' is not a number");
                        }
                    }
                    default -> throw malformed("unexpected element " + e.getLocalName() + " in CORSRule");
                }
            }
            if (methods.isEmpty() || origins.isEmpty()) {
                throw malformed("a CORSRule needs at least one AllowedMethod and one AllowedOrigin");
            }
            rules.add(new Rule(id, methods, origins, headers, expose, maxAge));
        }
        if (rules.isEmpty() || rules.size() > MAX_RULES) {
            throw malformed("a CORSConfiguration has 1 to " + MAX_RULES + " CORSRule elements");
        }
        return new CorsConfig(rules);
    }

    private static String oneStar(String v, String what) throws S3Exception {
        if (v.indexOf('*') != v.lastIndexOf('*')) {
            throw new S3Exception(S3Error.INVALID_REQUEST, what + " \"" + v + "\" can not have more than one wildcard.");
        }
        return v;
    }

    private static S3Exception malformed(String why) {
        return new S3Exception(S3Error.MALFORMED_XML, why);
    }

    byte[] toXml() {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD).append("<CORSConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        for (Rule r : rules) {
            sb.append("<CORSRule>");
            if (r.id() != null) {
                S3Xml.el(sb, "ID", r.id());
            }
            r.headers().forEach(h -> S3Xml.el(sb, "AllowedHeader", h));
            r.methods().forEach(m -> S3Xml.el(sb, "AllowedMethod", m));
            r.origins().forEach(o -> S3Xml.el(sb, "AllowedOrigin", o));
            r.expose().forEach(e -> S3Xml.el(sb, "ExposeHeader", e));
            if (r.maxAgeSeconds() != null) {
                S3Xml.el(sb, "MaxAgeSeconds", r.maxAgeSeconds());
            }
            sb.append("</CORSRule>");
        }
        return sb.append("</CORSConfiguration>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
