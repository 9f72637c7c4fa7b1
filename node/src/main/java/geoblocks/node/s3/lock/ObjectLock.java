package geoblocks.node.s3.lock;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3Xml;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * S3 Object Lock's decisions (docs/s3.md, "Object lock"), pure, with an injected clock: what a
 * version's retention and legal hold are, whether a version may be deleted now, whether a retention
 * may be replaced by another, and the retention a new version starts with (the request's headers, else
 * the bucket's default rule).
 * <ul>
 *   <li>A legal hold that is ON refuses every delete of the version, bypass or not.</li>
 *   <li>A COMPLIANCE retention refuses every delete until its date; it may only be extended (same mode,
 *       a later or equal date).</li>
 *   <li>A GOVERNANCE retention refuses deletes until its date unless the request bypasses governance
 *       ({@code x-amz-bypass-governance-retention: true} from the bucket's owner); without the bypass it
 *       may only be extended in the same mode, with it anything goes (shortened, removed, made COMPLIANCE).</li>
 *   <li>A retention whose date has passed holds nothing: it may be replaced or the version deleted.</li>
 * </ul>
 * The state a version is written with travels in its metadata ({@link #META_RETENTION}, {@link #META_HOLD});
 * later changes are records beside it ({@link S3ObjectLock}).
 */
public final class ObjectLock {
    /** Version metadata: the retention the version was written with ({@code G} or {@code C}, then the date in epoch ms). */
    public static final String META_RETENTION = "lock";
    /** Version metadata: {@code 1} when the version was written with a legal hold ON. */
    public static final String META_HOLD = "hold";
    static final long DAY_MILLIS = 86_400_000L;

    private final LongSupplier clock;

    public ObjectLock(LongSupplier clock) {
        this.clock = clock;
    }

    public long now() {
        return clock.getAsLong();
    }

    public enum Mode {
        GOVERNANCE, COMPLIANCE;

        /** The mode S3 names exactly (upper case); anything else is {@code error}. */
        static Mode parse(String s, S3Error error) throws S3Exception {
            if ("GOVERNANCE".equals(s)) {
                return GOVERNANCE;
            }
            if ("COMPLIANCE".equals(s)) {
                return COMPLIANCE;
            }
            throw new S3Exception(error, "the object lock mode must be GOVERNANCE or COMPLIANCE, was '" + s + "'");
        }
    }

    /** A retention: the mode and the date (epoch ms) until which it holds. */
    public record Retention(Mode mode, long untilMillis) {
        public Retention {
            Objects.requireNonNull(mode, "mode");
        }

        String encode() {
            return (mode == Mode.GOVERNANCE ? "G" : "C") + untilMillis;
        }

        /** A retention as {@link #encode} wrote it; null for null or an empty string (none). */
        static Retention decode(String s) {
            if (s == null || s.isEmpty()) {
                return null;
            }
            Mode m = switch (s.charAt(0)) {
                case 'G' -> Mode.GOVERNANCE;
                case 'C' -> Mode.COMPLIANCE;
                default -> throw new IllegalArgumentException("unknown retention '" + s + "'");
            };
            return new Retention(m, Long.parseLong(s.substring(1)));
        }

        /** Whether it still holds at {@code now}. */
        public boolean active(long now) {
            return now < untilMillis;
        }
    }

    /** A version's lock: its retention (null: none) and whether a legal hold is ON. */
    public record State(Retention retention, boolean legalHold) {
        public static final State NONE = new State(null, false);
    }

    /** A bucket's default retention: a mode and a period of whole days or whole years (one of them 0). */
    public record Rule(Mode mode, int days, int years) {
        public Rule {
            Objects.requireNonNull(mode, "mode");
            if ((days > 0) == (years > 0) || days < 0 || years < 0) {
                throw new IllegalArgumentException("a default retention has days or years (> 0), not both: " + days + ", " + years);
            }
        }

        /** The date a version written at {@code now} is retained until. */
        public long until(long now) {
            return years > 0 ? OffsetDateTime.ofInstant(Instant.ofEpochMilli(now), ZoneOffset.UTC).plusYears(years)
                    .toInstant().toEpochMilli() : now + days * DAY_MILLIS;
        }
    }

    /** A bucket's object lock configuration (object lock is enabled whenever a bucket has one); rule may be null. */
    public record Config(Rule rule) {
        public static final Config ENABLED = new Config(null);

        /** The value of the bucket record's {@code object-lock} line. */
        public String encode() {
            return rule == null ? "Enabled" : "Enabled " + rule.mode() + " " + (rule.days() > 0 ? rule.days() + "d" : rule.years() + "y");
        }

        public static Config decode(String s) {
            if (s == null) {
                return null;
            }
            String[] f = s.trim().split(" ");
            if (!f[0].equals("Enabled") || (f.length != 1 && f.length != 3)) {
                throw new IllegalArgumentException("object-lock line '" + s + "'");
            }
            if (f.length == 1) {
                return ENABLED;
            }
            Mode m = Mode.valueOf(f[1]);
            int n = Integer.parseInt(f[2].substring(0, f[2].length() - 1));
            return new Config(f[2].endsWith("y") ? new Rule(m, 0, n) : new Rule(m, n, 0));
        }
    }

    /** What a write's {@code x-amz-object-lock-*} headers ask for: a retention (or null) and a hold (or null: not said). */
    public record Requested(Retention retention, Boolean legalHold) {
        public static final Requested NONE = new Requested(null, null);

        public boolean any() {
            return retention != null || legalHold != null;
        }
    }

    /**
     * The {@code x-amz-object-lock-mode}, {@code -retain-until-date} and {@code -legal-hold} headers
     * ({@code header}: a value by name, or null). InvalidArgument for a mode without a date or the
     * reverse, an unknown mode or hold status, a date that is not ISO 8601 or not in the future.
     */
    public Requested requested(Function<String, String> header) throws S3Exception {
        String mode = header.apply("x-amz-object-lock-mode");
        String until = header.apply("x-amz-object-lock-retain-until-date");
        String hold = header.apply("x-amz-object-lock-legal-hold");
        Retention r = null;
        if ((mode == null) != (until == null)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-object-lock-retain-until-date and x-amz-object-lock-mode"
                    + " must both be supplied");
        }
        if (mode != null) {
            long t = parseDate(until, S3Error.INVALID_ARGUMENT);
            r = new Retention(Mode.parse(mode.trim(), S3Error.INVALID_ARGUMENT), t);
            if (!r.active(now())) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "the retain until date must be in the future");
            }
        }
        Boolean h = null;
        if (hold != null) {
            h = parseHold(hold.trim(), S3Error.INVALID_ARGUMENT);
        }
        return new Requested(r, h);
    }

    /** ON or OFF (exactly); anything else is {@code error}. */
    static boolean parseHold(String s, S3Error error) throws S3Exception {
        if ("ON".equals(s)) {
            return true;
        }
        if ("OFF".equals(s)) {
            return false;
        }
        throw new S3Exception(error, "the legal hold status must be ON or OFF, was '" + s + "'");
    }

    /** An ISO 8601 date-time with an offset (S3's {@code 2030-01-01T00:00:00Z}, fractions allowed) in epoch ms. */
    static long parseDate(String s, S3Error error) throws S3Exception {
        try {
            return OffsetDateTime.parse(s.trim()).toInstant().toEpochMilli();
        } catch (DateTimeParseException | NullPointerException e) {
            throw new S3Exception(error, "'" + s + "' is not an ISO 8601 date and time");
        }
    }

    /**
     * The metadata a new version carries: the retention asked for, else the bucket's default rule's,
     * and the hold when asked ON. A request asking for either on a bucket without object lock is
     * InvalidRequest; a bucket without object lock and a request without headers: none.
     */
    public Map<String, String> versionMeta(Config bucket, Requested asked) throws S3Exception {
        if (bucket == null) {
            if (asked.any()) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "the bucket has no object lock configuration");
            }
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        Retention r = asked.retention();
        if (r == null && bucket.rule() != null) {
            r = new Retention(bucket.rule().mode(), bucket.rule().until(now()));
        }
        if (r != null) {
            out.put(META_RETENTION, r.encode());
        }
        if (Boolean.TRUE.equals(asked.legalHold())) {
            out.put(META_HOLD, "1");
        }
        return out;
    }

    /** The state a version was written with, from its metadata. */
    public static State ofMeta(Map<String, String> meta) {
        Retention r;
        try {
            r = Retention.decode(meta.get(META_RETENTION));
        } catch (IllegalArgumentException e) {
            r = null; // not written by this gateway: no lock
        }
        return new State(r, "1".equals(meta.get(META_HOLD)));
    }

    /**
     * Why deleting a version in state {@code s} is refused now (AccessDenied in S3), or null when it
     * may be deleted. {@code bypass}: the request bypasses governance retention (and may).
     */
    public String deleteRefusal(State s, boolean bypass) {
        if (s.legalHold()) {
            return "the version is under a legal hold";
        }
        Retention r = s.retention();
        if (r == null || !r.active(now())) {
            return null;
        }
        if (r.mode() == Mode.COMPLIANCE) {
            return "the version is retained in COMPLIANCE mode until " + S3Xml.iso(r.untilMillis());
        }
        return bypass ? null : "the version is retained in GOVERNANCE mode until " + S3Xml.iso(r.untilMillis())
                + " (x-amz-bypass-governance-retention lifts it for the bucket's owner)";
    }

    /**
     * Why replacing retention {@code current} (null: none) by {@code wanted} (null: removing it) is
     * refused now (AccessDenied), or null when allowed.
     */
    public String retentionRefusal(Retention current, Retention wanted, boolean bypass) {
        if (current == null || !current.active(now())) {
            return null;
        }
        boolean extends_ = wanted != null && wanted.mode() == current.mode() && wanted.untilMillis() >= current.untilMillis();
        if (extends_) {
            return null;
        }
        if (current.mode() == Mode.COMPLIANCE) {
            return "a COMPLIANCE retention (until " + S3Xml.iso(current.untilMillis()) + ") can only be extended";
        }
        return bypass ? null : "a GOVERNANCE retention (until " + S3Xml.iso(current.untilMillis()) + ") can only be"
                + " extended without x-amz-bypass-governance-retention";
    }

    /** A retention a PutObjectRetention sets must lie in the future (InvalidArgument otherwise). */
    public void checkFuture(Retention wanted) throws S3Exception {
        if (wanted != null && !wanted.active(now())) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "the retain until date must be in the future");
        }
    }
}
