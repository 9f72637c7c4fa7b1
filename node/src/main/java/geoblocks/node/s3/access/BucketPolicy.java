package geoblocks.node.s3.access;

import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A bucket policy: the subset of AWS's policy language docs/s3.md documents, parsed from the JSON a
 * client sends ({@link #parse}) and evaluated per request ({@link #evaluate}). Pure.
 *
 * <ul>
 *   <li>{@code Statement}: one object or a list. Each has {@code Effect} ({@code Allow} or {@code Deny}),
 *       {@code Principal}, {@code Action}, {@code Resource} and an optional {@code Condition}; {@code Sid} is kept
 *       but not used. {@code NotPrincipal}, {@code NotAction} and {@code NotResource} are refused (MalformedPolicy).</li>
 *   <li>{@code Principal}: {@code "*"} or {@code {"AWS": ...}} with {@code "*"}, an access key id, or an ARN
 *       {@code arn:aws:iam::ID:root} / {@code arn:aws:iam::ID:user/NAME} whose ID or NAME is an access key id
 *       (a key is its own account here); {@code {"CanonicalUser": KEYID}}; {@code {"Service": ...}} is accepted
 *       and matches no request (no AWS service calls this gateway). {@code "*"} also matches unsigned requests.</li>
 *   <li>{@code Action}: {@code "*"} or {@code s3:Name} patterns, case-insensitive, with {@code *} and {@code ?}.</li>
 *   <li>{@code Resource}: {@code arn:aws:s3:::BUCKET} or {@code arn:aws:s3:::BUCKET/KEY} patterns with
 *       {@code *} and {@code ?}; each must be able to name this bucket.</li>
 *   <li>{@code Condition}: operators {@code StringEquals}, {@code StringNotEquals}, {@code StringEqualsIgnoreCase},
 *       {@code StringNotEqualsIgnoreCase}, {@code StringLike}, {@code StringNotLike}, {@code Null}, {@code Bool},
 *       {@code IpAddress}, {@code NotIpAddress} and the {@code Numeric*} comparisons, each but {@code Null} also with
 *       {@code IfExists}. Every operator of a statement must hold (and every key under it); a key with
 *       several values holds when one does (for the negated operators: when none of them matches). A key the
 *       request lacks fails a positive operator, passes a negated one, and passes anything {@code IfExists}.</li>
 * </ul>
 * An explicit Deny wins over any Allow; with neither, the policy does not decide and the ACLs do.
 */
public final class BucketPolicy {
    /** AWS's limit on a bucket policy's size. */
    public static final int MAX_BYTES = 20 * 1024;

    public enum Decision { ALLOW, DENY, NONE }

    /** One condition: {@code op} (lower case, without IfExists) on {@code key} (as written) with its values. */
    record Condition(String op, boolean ifExists, String key, List<String> values) {}

    record Statement(boolean allow, List<String> principals, List<String> actions, List<String> resources,
            List<Condition> conditions) {}

    /**
     * A request as a policy sees it: the requester's key id (null: unsigned), the action ({@code s3:GetObject}),
     * the resource ARN, and the values of condition keys (asked by the name the policy writes; null when the
     * request has none). With {@code everyKey} the resource is {@code arn:aws:s3:::BUCKET/*} standing for every key
     * of the bucket at once (DeleteObjects): an Allow must cover every key, and a Deny of any key refuses.
     */
    public record Request(String requester, String action, String resource, Function<String, List<String>> context,
            boolean everyKey) {
        public Request(String requester, String action, String resource, Function<String, List<String>> context) {
            this(requester, action, resource, context, false);
        }
    }

    private static final Set<String> OPS = Set.of("stringequals", "stringnotequals", "stringequalsignorecase",
            "stringnotequalsignorecase", "stringlike", "stringnotlike", "null", "bool", "ipaddress", "notipaddress",
            "numericequals", "numericnotequals", "numericlessthan", "numericlessthanequals", "numericgreaterthan",
            "numericgreaterthanequals");
    /** Keys whose fixed values make an Allow to everyone non-public (as AWS judges "public"). */
    private static final Set<String> FIXED_KEYS = Set.of("aws:sourceip", "aws:sourcevpc", "aws:sourcevpce",
            "aws:sourcearn", "aws:sourceaccount", "aws:sourceowner", "aws:principalorgid", "aws:principalaccount",
            "aws:userid", "aws:principalarn");
    private static final String ARN = "arn:aws:s3:::";

    private final String text;
    private final List<Statement> statements;

    private BucketPolicy(String text, List<Statement> statements) {
        this.text = text;
        this.statements = statements;
    }

    /** The document as the client sent it (GetBucketPolicy answers it unchanged). */
    public String text() {
        return text;
    }

    List<Statement> statements() {
        return statements;
    }

    /** Parses and checks {@code json} as a policy of {@code bucket}; MalformedPolicy (400) says what is wrong. */
    public static BucketPolicy parse(String json, String bucket) throws S3Exception {
        if (json.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw bad("a bucket policy is at most " + MAX_BYTES + " bytes");
        }
        Object doc;
        try {
            doc = MiniJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> m)) {
            throw bad("a policy is a JSON object");
        }
        Object st = m.get("Statement");
        if (st == null) {
            throw bad("missing required field Statement");
        }
        List<Statement> out = new ArrayList<>();
        for (Object s : st instanceof List<?> l ? l : List.of(st)) {
            out.add(statement(s, bucket));
        }
        if (out.isEmpty()) {
            throw bad("Statement must not be empty");
        }
        return new BucketPolicy(json, List.copyOf(out));
    }

    private static Statement statement(Object o, String bucket) throws S3Exception {
        if (!(o instanceof Map<?, ?> s)) {
            throw bad("each Statement is a JSON object");
        }
        for (String no : List.of("NotPrincipal", "NotAction", "NotResource")) {
            if (s.containsKey(no)) {
                throw bad(no + " is not supported (Principal, Action and Resource are)");
            }
        }
        Object effect = s.get("Effect");
        if (!"Allow".equals(effect) && !"Deny".equals(effect)) {
            throw bad("Effect must be Allow or Deny, was " + effect);
        }
        List<String> principals = principals(s.get("Principal"));
        List<String> actions = strings(s.get("Action"), "Action");
        for (String a : actions) {
            if (!a.equals("*") && !a.toLowerCase(Locale.ROOT).startsWith("s3:")) {
                throw bad("Policy has invalid action '" + a + "' (s3:... or *)");
            }
        }
        List<String> resources = strings(s.get("Resource"), "Resource");
        for (String r : resources) {
            if (!r.startsWith(ARN)) {
                throw bad("Policy has invalid resource '" + r + "' (arn:aws:s3:::BUCKET[/KEY])");
            }
            String rest = r.substring(ARN.length());
            int slash = rest.indexOf('/');
            if (!glob(slash < 0 ? rest : rest.substring(0, slash), bucket)) {
                throw bad("Policy has invalid resource '" + r + "': it does not name bucket '" + bucket + "'");
            }
        }
        List<Condition> conditions = new ArrayList<>();
        Object c = s.get("Condition");
        if (c != null) {
            if (!(c instanceof Map<?, ?> cm)) {
                throw bad("Condition is a JSON object of operators");
            }
            for (Map.Entry<?, ?> e : cm.entrySet()) {
                String op = String.valueOf(e.getKey());
                boolean ifExists = op.endsWith("IfExists");
                String base = (ifExists ? op.substring(0, op.length() - "IfExists".length()) : op).toLowerCase(Locale.ROOT);
                if (!OPS.contains(base) || (ifExists && base.equals("null"))) {
                    throw bad("the condition operator '" + op + "' is not supported");
                }
                if (!(e.getValue() instanceof Map<?, ?> keys)) {
                    throw bad("the condition operator '" + op + "' takes an object of keys");
                }
                for (Map.Entry<?, ?> k : keys.entrySet()) {
                    List<String> values = strings(k.getValue(), "the values of " + k.getKey());
                    conditions.add(new Condition(base, ifExists, String.valueOf(k.getKey()), values));
                }
            }
        }
        return new Statement(effect.equals("Allow"), principals, actions, resources, List.copyOf(conditions));
    }

    private static List<String> principals(Object p) throws S3Exception {
        if ("*".equals(p)) {
            return List.of("*");
        }
        if (p instanceof Map<?, ?> m && !m.isEmpty()) {
            List<String> out = new ArrayList<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String type = String.valueOf(e.getKey());
                for (String v : strings(e.getValue(), "Principal " + type)) {
                    switch (type) {
                        case "AWS" -> out.add(principalId(v));
                        case "CanonicalUser" -> out.add(v);
                        case "Service" -> out.add("service:" + v); // a service is never a key: matches no request here
                        default -> throw bad("Principal type '" + type + "' is not supported (AWS, CanonicalUser, Service)");
                    }
                }
            }
            return List.copyOf(out);
        }
        throw bad("Principal must be \"*\" or {\"AWS\": ...} (access key ids or arn:aws:iam::ID:root ARNs),"
                + " {\"CanonicalUser\": ...} or {\"Service\": ...}");
    }

    /** {@code *}, a key id, or the ID (or user NAME, after a '/') of an IAM ARN. */
    private static String principalId(String v) throws S3Exception {
        if (!v.startsWith("arn:")) {
            return v;
        }
        String[] parts = v.split(":", 6);
        if (parts.length != 6 || !parts[2].equals("iam") || parts[4].isEmpty()) {
            throw bad("Principal '" + v + "' is not an arn:aws:iam::ID:root ARN");
        }
        String res = parts[5];
        return res.startsWith("user/") ? parts[4] + "|" + res.substring(5) : parts[4];
    }

    private static List<String> strings(Object v, String what) throws S3Exception {
        if (v instanceof String s) {
            return List.of(s);
        }
        if (v instanceof Boolean || v instanceof Number) {
            return List.of(String.valueOf(v));
        }
        if (v instanceof List<?> l && !l.isEmpty()) {
            List<String> out = new ArrayList<>();
            for (Object o : l) {
                if (!(o instanceof String || o instanceof Boolean || o instanceof Number)) {
                    throw bad(what + " must be strings");
                }
                out.add(String.valueOf(o));
            }
            return List.copyOf(out);
        }
        throw bad(v == null ? "missing required field " + what : what + " must be a string or a list of strings");
    }

    private static S3Exception bad(String why) {
        return new S3Exception(S3Error.MALFORMED_POLICY, why);
    }

    /** The decision for {@code r}: DENY when a matching Deny holds, else ALLOW when a matching Allow holds, else NONE. */
    public Decision evaluate(Request r) {
        boolean allowed = false;
        for (Statement s : statements) {
            if (!principal(s, r.requester()) || !action(s, r.action()) || !resource(s, r, !s.allow())
                    || !conditions(s, r.context())) {
                continue;
            }
            if (!s.allow()) {
                return Decision.DENY;
            }
            allowed = true;
        }
        return allowed ? Decision.ALLOW : Decision.NONE;
    }

    /** Whether the policy grants anything to everyone (an Allow to {@code *} not narrowed by a fixed-value key). */
    public boolean isPublic() {
        for (Statement s : statements) {
            if (s.allow() && s.principals().contains("*")
                    && s.conditions().stream().noneMatch(c -> FIXED_KEYS.contains(c.key().toLowerCase(Locale.ROOT)) && !negated(c.op()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether some statement's Condition asks for a key starting with {@code prefix} (lower case). */
    public boolean uses(String prefix) {
        return statements.stream().anyMatch(s -> s.conditions().stream().anyMatch(c -> c.key().toLowerCase(Locale.ROOT).startsWith(prefix)));
    }

    private static boolean principal(Statement s, String requester) {
        for (String p : s.principals()) {
            if (p.equals("*")) {
                return true;
            }
            if (requester != null && (p.equals(requester) || p.endsWith("|" + requester))) {
                return true;
            }
        }
        return false;
    }

    private static boolean action(Statement s, String action) {
        for (String a : s.actions()) {
            if (glob(a.toLowerCase(Locale.ROOT), action.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static boolean resource(Statement s, Request r, boolean deny) {
        for (String pattern : s.resources()) {
            if (!r.everyKey()) {
                if (glob(pattern, r.resource())) {
                    return true;
                }
                continue;
            }
            // every key of BUCKET at once (r.resource() is ARN BUCKET/*)
            String bucket = r.resource().substring(ARN.length(), r.resource().length() - 2);
            String rest = pattern.substring(ARN.length());
            int slash = rest.indexOf('/');
            if (slash < 0) { // no '/': only a trailing '*' reaches into the keys
                if (rest.endsWith("*") && glob(rest, bucket + "/*")) {
                    return true;
                }
            } else if (glob(rest.substring(0, slash), bucket) && (deny || rest.substring(slash + 1).equals("*"))) {
                return true; // an Allow must cover every key; a Deny of any key refuses
            }
        }
        return false;
    }

    private static boolean conditions(Statement s, Function<String, List<String>> context) {
        for (Condition c : s.conditions()) {
            if (!holds(c, context.apply(c.key()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean negated(String op) {
        return op.contains("not");
    }

    static boolean holds(Condition c, List<String> actual) {
        if (c.op().equals("null")) {
            boolean absent = actual == null || actual.isEmpty();
            return c.values().stream().anyMatch(v -> v.equalsIgnoreCase("true") == absent);
        }
        if (actual == null || actual.isEmpty()) {
            return c.ifExists() || negated(c.op());
        }
        boolean any = false;
        for (String a : actual) {
            for (String v : c.values()) {
                if (match(c.op(), v, a)) {
                    any = true;
                }
            }
        }
        return negated(c.op()) ? !any : any;
    }

    /** Whether {@code actual} matches the condition value {@code v} under {@code op} (the positive form of a negated one). */
    private static boolean match(String op, String v, String actual) {
        return switch (op) {
            case "stringequals", "stringnotequals" -> v.equals(actual);
            case "stringequalsignorecase", "stringnotequalsignorecase" -> v.equalsIgnoreCase(actual);
            case "stringlike", "stringnotlike" -> glob(v, actual);
            case "bool" -> v.equalsIgnoreCase(actual);
            case "ipaddress", "notipaddress" -> inCidr(v, actual);
            default -> numeric(op, v, actual);
        };
    }

    private static boolean numeric(String op, String v, String actual) {
        double want;
        double have;
        try {
            want = Double.parseDouble(v);
            have = Double.parseDouble(actual);
        } catch (NumberFormatException e) {
            return false;
        }
        return switch (op) {
            case "numericequals", "numericnotequals" -> have == want;
            case "numericlessthan" -> have < want;
            case "numericlessthanequals" -> have <= want;
            case "numericgreaterthan" -> have > want;
            default -> have >= want;
        };
    }

    /** Whether the address {@code ip} is inside {@code cidr} ({@code a.b.c.d/n}, IPv6 too; no '/' is one address). */
    static boolean inCidr(String cidr, String ip) {
        int slash = cidr.indexOf('/');
        byte[] net = literal(slash < 0 ? cidr : cidr.substring(0, slash));
        byte[] addr = literal(ip);
        if (net == null || addr == null || net.length != addr.length) {
            return false;
        }
        int bits;
        try {
            bits = slash < 0 ? net.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        for (int i = 0; i < net.length && bits > 0; i++, bits -= 8) {
            int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
            if ((net[i] & mask) != (addr[i] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** The bytes of a literal IPv4 or IPv6 address; null for anything else (never a name lookup). */
    private static byte[] literal(String a) {
        if (a.isEmpty() || !a.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')
                || (a.indexOf(':') < 0 && !a.chars().allMatch(c -> Character.isDigit(c) || c == '.'))) {
            return null;
        }
        try {
            return InetAddress.getByName(a).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether {@code s} matches {@code pattern} with {@code *} (any run, '/' too) and {@code ?} (one character). */
    static boolean glob(String pattern, String s) {
        int p = 0;
        int i = 0;
        int star = -1;
        int mark = 0;
        while (i < s.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
                p++;
                i++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = i;
            } else if (star >= 0) {
                p = star + 1;
                i = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
