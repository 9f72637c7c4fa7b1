package geoblocks.blockstore.core;

import java.nio.charset.StandardCharsets;

/**
 * A condition a write (a put or a delete) places on its name's current live version, decided by the
 * name's owner region so that two conditional writes of one name never both pass on the same state
 * (docs/consistency.md, "Conditional writes"). The tags are entity tags as in RFC 9110 section 8.8.3
 * (quoted or not, {@code W/} ignored), compared with the live head's metadata field {@code field}
 * (the S3 gateway's {@code etag}):
 * <ul>
 *   <li>{@code ifMatch}: null (no condition), {@code *} (some live version must exist), or a
 *       comma-separated list of tags, one of which the live head's must be;</li>
 *   <li>{@code ifNoneMatch}: null, {@code *} (no live version may exist: {@code put --if-absent}),
 *       or tags, none of which the live head's may be.</li>
 * </ul>
 * {@link #check} is pure: the owner calls it on its live head under its one-at-a-time claim handler.
 * Invariant: {@code field} is not null; each list holds at most {@value #MAX_TAGS_BYTES} UTF-8 bytes.
 */
public record WriteCondition(String field, String ifMatch, String ifNoneMatch) {
    public static final int MAX_TAGS_BYTES = 1024;
    /** An unconditional write: the newest version wins (no owner involved). */
    public static final WriteCondition NONE = new WriteCondition("", null, null);
    /** Create only if the name has no live version ({@code put --if-absent}, S3's {@code If-None-Match: *}). */
    public static final WriteCondition ABSENT = new WriteCondition("", null, "*");

    /** What the owner found; every outcome but {@link #PASSED} refuses the write. */
    public enum Outcome {
        PASSED,
        /** {@code If-Match} was given and the name has no live version. */
        NOT_FOUND,
        /** {@code If-None-Match: *} and the name has a live version. */
        EXISTS,
        /** The live head's tag is not among {@code If-Match}'s, or is among {@code If-None-Match}'s. */
        MISMATCH
    }

    public WriteCondition {
        if (field == null) {
            throw new IllegalArgumentException("the condition's metadata field must not be null (\"\" for none)");
        }
        check("If-Match", ifMatch);
        check("If-None-Match", ifNoneMatch);
    }

    private static void check(String what, String tags) {
        if (tags != null && tags.getBytes(StandardCharsets.UTF_8).length > MAX_TAGS_BYTES) {
            throw new IllegalArgumentException(what + " holds " + tags.getBytes(StandardCharsets.UTF_8).length
                    + " bytes of tags; at most " + MAX_TAGS_BYTES);
        }
    }

    /** {@code If-Match} / {@code If-None-Match} on the metadata field {@code field}; null for a header not given. */
    public static WriteCondition on(String field, String ifMatch, String ifNoneMatch) {
        return new WriteCondition(field, ifMatch, ifNoneMatch);
    }

    /** No condition: the write needs no owner decision. */
    public boolean none() {
        return ifMatch == null && ifNoneMatch == null;
    }

    /** Exactly {@code If-None-Match: *}: a create if absent. */
    public boolean absentOnly() {
        return ifMatch == null && "*".equals(ifNoneMatch == null ? null : ifNoneMatch.trim());
    }

    /**
     * The owner's decision on the name's live head ({@code null} when it has none: never written,
     * or deleted). {@code If-Match} is evaluated first, as RFC 9110 section 13.2.2 orders them.
     */
    public Outcome check(Manifest liveHead) {
        String tag = liveHead == null ? null : liveHead.meta().get(field);
        if (ifMatch != null) {
            if (liveHead == null) {
                return Outcome.NOT_FOUND;
            }
            if (!matches(ifMatch, tag)) {
                return Outcome.MISMATCH;
            }
        }
        if (ifNoneMatch != null && liveHead != null && matches(ifNoneMatch, tag)) {
            return isStar(ifNoneMatch) ? Outcome.EXISTS : Outcome.MISMATCH;
        }
        return Outcome.PASSED;
    }

    private static boolean isStar(String tags) {
        for (String t : tags.split(",")) {
            if (t.trim().equals("*")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the list {@code tags} ({@code *} or entity tags) matches a version whose tag is {@code tag} (null: none). */
    public static boolean matches(String tags, String tag) {
        for (String t : tags.split(",")) {
            String v = t.trim();
            if (v.equals("*")) {
                return true;
            }
            if (tag != null && !v.isEmpty() && unquote(v).equals(unquote(tag))) {
                return true;
            }
        }
        return false;
    }

    private static String unquote(String tag) {
        String v = tag.startsWith("W/") ? tag.substring(2) : tag;
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    @Override
    public String toString() {
        if (none()) {
            return "unconditional";
        }
        return (ifMatch == null ? "" : "If-Match " + ifMatch) + (ifMatch != null && ifNoneMatch != null ? ", " : "")
                + (ifNoneMatch == null ? "" : "If-None-Match " + ifNoneMatch);
    }
}
