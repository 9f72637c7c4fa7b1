package geoblocks.node.s3.bucket;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.TagSet;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.w3c.dom.Element;

/**
 * A bucket's lifecycle configuration (PutBucketLifecycleConfiguration): its rules, parsed and checked
 * with S3's error codes, and written back as the document GetBucketLifecycleConfiguration answers.
 * Supported actions: Expiration ({@code Days}, {@code Date}, {@code ExpiredObjectDeleteMarker}),
 * NoncurrentVersionExpiration ({@code NoncurrentDays}, {@code NewerNoncurrentVersions}) and
 * AbortIncompleteMultipartUpload ({@code DaysAfterInitiation}); filters: the rule's legacy
 * {@code Prefix}, or a {@code Filter} with {@code Prefix}, {@code Tag}, {@code ObjectSizeGreaterThan},
 * {@code ObjectSizeLessThan} or an {@code And} of them. Transitions are refused NotImplemented (there
 * are no storage classes). {@link LifecycleRules} evaluates the rules. Pure.
 */
record LifecycleConfig(List<Rule> rules) {
    static final int MAX_RULES = 1000;
    static final int MAX_ID = 255;

    LifecycleConfig {
        rules = List.copyOf(rules);
    }

    /**
     * One rule. {@code legacyPrefix}: the prefix was the rule's own {@code Prefix} element (not a
     * Filter), kept so the document reads back as it was sent. Null fields are absent.
     */
    record Rule(String id, boolean enabled, boolean legacyPrefix, String prefix, Map<String, String> tags,
            Long sizeGreaterThan, Long sizeLessThan, Integer expirationDays, Long expirationDateMillis,
            boolean expiredObjectDeleteMarker, Integer noncurrentDays, Integer newerNoncurrentVersions,
            Integer abortDays) {
        Rule {
            tags = Collections.unmodifiableMap(new TreeMap<>(tags));
        }

        /** Whether the rule's filter takes object {@code key} of {@code size} bytes with {@code tags}. */
        boolean matches(String key, long size, Map<String, String> objectTags) {
            if (!key.startsWith(prefix)) {
                return false;
            }
            if (sizeGreaterThan != null && size <= sizeGreaterThan) {
                return false;
            }
            if (sizeLessThan != null && size >= sizeLessThan) {
                return false;
            }
            for (Map.Entry<String, String> t : tags.entrySet()) {
                if (!t.getValue().equals(objectTags.get(t.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether any enabled rule filters by tags (then the runner reads the objects' tags). */
    boolean needsTags() {
        return rules.stream().anyMatch(r -> r.enabled() && !r.tags().isEmpty());
    }

    static LifecycleConfig parse(byte[] body) throws S3Exception {
        Element root = S3Xml.parse(body, "LifecycleConfiguration");
        List<Rule> rules = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Element r : S3Xml.children(root)) {
            if (!r.getLocalName().equals("Rule")) {
                throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + r.getLocalName() + "> in LifecycleConfiguration");
            }
            Rule rule = rule(r, rules.size());
            if (!ids.add(rule.id())) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "two rules have the ID '" + rule.id() + "'");
            }
            rules.add(rule);
        }
        if (rules.isEmpty() || rules.size() > MAX_RULES) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a lifecycle configuration has 1 to " + MAX_RULES + " rules, this one "
                    + rules.size());
        }
        return new LifecycleConfig(rules);
    }

    private static Rule rule(Element r, int index) throws S3Exception {
        String id = null;
        String status = null;
        String legacy = null;
        Element filter = null;
        Element expiration = null;
        Element noncurrent = null;
        Element abort = null;
        for (Element f : S3Xml.children(r)) {
            switch (f.getLocalName()) {
                case "ID" -> id = f.getTextContent().trim();
                case "Status" -> status = f.getTextContent().trim();
                case "Prefix" -> legacy = f.getTextContent();
                case "Filter" -> filter = f;
                case "Expiration" -> expiration = f;
                case "NoncurrentVersionExpiration" -> noncurrent = f;
                case "AbortIncompleteMultipartUpload" -> abort = f;
                case "Transition", "NoncurrentVersionTransition" -> throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                        "lifecycle transitions are not supported (the gateway has one storage class)");
                default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + f.getLocalName() + "> in a Rule");
            }
        }
        if (id == null || id.isEmpty()) {
            id = "rule-" + (index + 1);
        }
        if (id.length() > MAX_ID) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "a rule's ID has at most " + MAX_ID + " characters, this one "
                    + id.length());
        }
        if (!"Enabled".equals(status) && !"Disabled".equals(status)) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a rule's Status must be Enabled or Disabled, was '" + status + "'");
        }
        if (legacy != null && filter != null) {
            throw new S3Exception(S3Error.MALFORMED_XML, "a rule has a Prefix or a Filter, not both");
        }
        String prefix = legacy == null ? "" : legacy;
        Map<String, String> tags = new TreeMap<>();
        Long[] sizes = new Long[2];
        if (filter != null) {
            prefix = filter(filter, tags, sizes, false);
        }
        Integer days = null;
        Long date = null;
        boolean marker = false;
        if (expiration != null) {
            for (Element f : S3Xml.children(expiration)) {
                switch (f.getLocalName()) {
                    case "Days" -> days = positive(f, "Expiration Days");
                    case "Date" -> date = midnight(f.getTextContent().trim());
                    case "ExpiredObjectDeleteMarker" -> marker = bool(f);
                    default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + f.getLocalName()
                            + "> in Expiration");
                }
            }
            int given = (days != null ? 1 : 0) + (date != null ? 1 : 0) + (marker ? 1 : 0);
            if (given != 1 && !(given == 0 && hasChild(expiration, "ExpiredObjectDeleteMarker"))) {
                throw new S3Exception(S3Error.MALFORMED_XML, "an Expiration has one of Days, Date and ExpiredObjectDeleteMarker");
            }
            if (marker && !tags.isEmpty()) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "ExpiredObjectDeleteMarker cannot be used with a tag filter");
            }
        }
        Integer noncurrentDays = null;
        Integer newer = null;
        if (noncurrent != null) {
            for (Element f : S3Xml.children(noncurrent)) {
                switch (f.getLocalName()) {
                    case "NoncurrentDays" -> noncurrentDays = positive(f, "NoncurrentDays");
                    case "NewerNoncurrentVersions" -> newer = positive(f, "NewerNoncurrentVersions");
                    default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + f.getLocalName()
                            + "> in NoncurrentVersionExpiration");
                }
            }
            if (noncurrentDays == null) {
                throw new S3Exception(S3Error.MALFORMED_XML, "a NoncurrentVersionExpiration needs NoncurrentDays");
            }
        }
        Integer abortDays = null;
        if (abort != null) {
            for (Element f : S3Xml.children(abort)) {
                if (!f.getLocalName().equals("DaysAfterInitiation")) {
                    throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + f.getLocalName()
                            + "> in AbortIncompleteMultipartUpload");
                }
                abortDays = positive(f, "DaysAfterInitiation");
            }
            if (abortDays == null) {
                throw new S3Exception(S3Error.MALFORMED_XML, "an AbortIncompleteMultipartUpload needs DaysAfterInitiation");
            }
            if (!tags.isEmpty()) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "AbortIncompleteMultipartUpload cannot be used with a tag filter");
            }
        }
        if (expiration == null && noncurrent == null && abort == null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "rule '" + id + "' has no action (Expiration,"
                    + " NoncurrentVersionExpiration or AbortIncompleteMultipartUpload)");
        }
        return new Rule(id, "Enabled".equals(status), legacy != null, prefix, tags, sizes[0], sizes[1], days, date, marker,
                noncurrentDays, newer, abortDays);
    }

    private static boolean hasChild(Element e, String name) {
        return S3Xml.children(e).stream().anyMatch(c -> c.getLocalName().equals(name));
    }

    /** Reads a Filter (or the And inside it) into tags and sizes; returns its prefix. */
    private static String filter(Element f, Map<String, String> tags, Long[] sizes, boolean inAnd) throws S3Exception {
        String prefix = ""; // several conditions outside an And are taken as their And (as Ceph does; AWS refuses them)
        for (Element c : S3Xml.children(f)) {
            switch (c.getLocalName()) {
                case "Prefix" -> {
                    prefix = c.getTextContent();
                }
                case "Tag" -> {
                    String k = null;
                    String v = null;
                    for (Element kv : S3Xml.children(c)) {
                        if (kv.getLocalName().equals("Key")) {
                            k = kv.getTextContent();
                        } else if (kv.getLocalName().equals("Value")) {
                            v = kv.getTextContent();
                        }
                    }
                    if (k == null || v == null) {
                        throw new S3Exception(S3Error.MALFORMED_XML, "a filter's Tag needs a Key and a Value");
                    }
                    TagSet.check(k, v);
                    if (tags.put(k, v) != null) {
                        throw new S3Exception(S3Error.INVALID_ARGUMENT, "the filter names the tag '" + k + "' twice");
                    }
                }
                case "ObjectSizeGreaterThan" -> {
                    sizes[0] = size(c);
                }
                case "ObjectSizeLessThan" -> {
                    sizes[1] = size(c);
                }
                case "And" -> {
                    if (inAnd) {
                        throw new S3Exception(S3Error.MALFORMED_XML, "an And cannot hold another And");
                    }
                    prefix = filter(c, tags, sizes, true);
                }
                default -> throw new S3Exception(S3Error.MALFORMED_XML, "unexpected element <" + c.getLocalName() + "> in a Filter");
            }
        }
        if (sizes[0] != null && sizes[1] != null && sizes[1] <= sizes[0]) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "ObjectSizeLessThan must be above ObjectSizeGreaterThan");
        }
        return prefix;
    }

    private static int positive(Element e, String what) throws S3Exception {
        try {
            int n = Integer.parseInt(e.getTextContent().trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException x) {
            // below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, what + " must be a positive integer, was '" + e.getTextContent() + "'");
    }

    private static long size(Element e) throws S3Exception {
        try {
            long n = Long.parseLong(e.getTextContent().trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException x) {
            // below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, e.getLocalName() + " must be a non-negative integer, was '"
                + e.getTextContent() + "'");
    }

    private static boolean bool(Element e) throws S3Exception {
        String v = e.getTextContent().trim();
        if (!v.equals("true") && !v.equals("false")) {
            throw new S3Exception(S3Error.MALFORMED_XML, "ExpiredObjectDeleteMarker must be true or false, was '" + v + "'");
        }
        return v.equals("true");
    }

    /** An Expiration Date: ISO 8601, at midnight UTC ({@code 2030-01-01} or {@code 2030-01-01T00:00:00Z}), as epoch ms. */
    static long midnight(String s) throws S3Exception {
        long ms;
        try {
            ms = s.length() == 10 ? LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
                    : OffsetDateTime.parse(s).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "an Expiration Date must be an ISO 8601 date, was '" + s + "'");
        }
        if (ms % 86_400_000L != 0) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "an Expiration Date must be at midnight UTC, was '" + s + "'");
        }
        return ms;
    }

    /** The document GetBucketLifecycleConfiguration answers (and the record the bucket keeps). */
    byte[] toXml() {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
                .append("<LifecycleConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        for (Rule r : rules) {
            sb.append("<Rule>");
            S3Xml.el(sb, "ID", r.id());
            if (r.legacyPrefix()) {
                S3Xml.el(sb, "Prefix", r.prefix());
            } else {
                int n = (r.prefix().isEmpty() ? 0 : 1) + r.tags().size() + (r.sizeGreaterThan() == null ? 0 : 1)
                        + (r.sizeLessThan() == null ? 0 : 1);
                sb.append("<Filter>").append(n > 1 ? "<And>" : "");
                if (!r.prefix().isEmpty() || n == 0) {
                    S3Xml.el(sb, "Prefix", r.prefix());
                }
                r.tags().forEach((k, v) -> {
                    sb.append("<Tag>");
                    S3Xml.el(sb, "Key", k);
                    S3Xml.el(sb, "Value", v);
                    sb.append("</Tag>");
                });
                if (r.sizeGreaterThan() != null) {
                    S3Xml.el(sb, "ObjectSizeGreaterThan", r.sizeGreaterThan());
                }
                if (r.sizeLessThan() != null) {
                    S3Xml.el(sb, "ObjectSizeLessThan", r.sizeLessThan());
                }
                sb.append(n > 1 ? "</And>" : "").append("</Filter>");
            }
            S3Xml.el(sb, "Status", r.enabled() ? "Enabled" : "Disabled");
            if (r.expirationDays() != null || r.expirationDateMillis() != null || r.expiredObjectDeleteMarker()) {
                sb.append("<Expiration>");
                if (r.expirationDays() != null) {
                    S3Xml.el(sb, "Days", r.expirationDays());
                }
                if (r.expirationDateMillis() != null) {
                    S3Xml.el(sb, "Date", Instant.ofEpochMilli(r.expirationDateMillis()).toString()
                            .replace("Z", ".000Z"));
                }
                if (r.expiredObjectDeleteMarker()) {
                    S3Xml.el(sb, "ExpiredObjectDeleteMarker", "true");
                }
                sb.append("</Expiration>");
            }
            if (r.noncurrentDays() != null) {
                sb.append("<NoncurrentVersionExpiration>");
                S3Xml.el(sb, "NoncurrentDays", r.noncurrentDays());
                if (r.newerNoncurrentVersions() != null) {
                    S3Xml.el(sb, "NewerNoncurrentVersions", r.newerNoncurrentVersions());
                }
                sb.append("</NoncurrentVersionExpiration>");
            }
            if (r.abortDays() != null) {
                sb.append("<AbortIncompleteMultipartUpload>");
                S3Xml.el(sb, "DaysAfterInitiation", r.abortDays());
                sb.append("</AbortIncompleteMultipartUpload>");
            }
            sb.append("</Rule>");
        }
        return sb.append("</LifecycleConfiguration>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
