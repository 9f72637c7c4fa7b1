package geoblocks.blockstore.core.layout;

/**
 * How two nodes bring each other to the newest {@link Layout}: at the start of every anti-entropy
 * exchange, and to every member after an operator's change, a node sends its layout's version and
 * digest ({@code LayoutSync}), with the whole layout when it knows the peer is behind. The receiver
 * {@link #onSync decides}: adopt a newer layout that came whole; answer with its own layout when
 * its own is newer; answer with its version only when the sender's is newer but did not come whole
 * (the sender then sends it). Equal layouts end the exchange, so at most three messages pass and a
 * converged cluster sends one small message per anti-entropy exchange. Version 0 (each node's own
 * config) is never adopted from a peer: until an operator applies a change the config decides, as
 * before layouts. Pure.
 */
public final class LayoutGossip {
    private LayoutGossip() {}

    /** What to do about a peer's {@code LayoutSync}: adopt {@code adopt} (null: nothing), then reply (or not). */
    public record Decision(Layout adopt, Reply reply) {}

    /** The answer to send: none, this node's version only, or its whole layout. */
    public enum Reply {
        NONE, VERSION, WHOLE
    }

    /**
     * {@code mine}: this node's layout; the peer's {@code version} and {@code digest}, and its whole
     * layout when it sent one (else null).
     */
    public static Decision onSync(Layout mine, long version, long digest, Layout theirs) {
        if (theirs != null && theirs.version() > 0 && theirs.newerThan(mine)) {
            return new Decision(theirs, Reply.VERSION);
        }
        int cmp = compare(version, digest, mine.version(), mine.digest());
        if (cmp > 0 && version > 0) {
            return new Decision(null, theirs == null ? Reply.VERSION : Reply.NONE);
        }
        if (cmp < 0 && mine.version() > 0) {
            return new Decision(null, Reply.WHOLE);
        }
        return new Decision(null, Reply.NONE);
    }

    /** Orders (version, digest) pairs as {@link Layout#newerThan} orders layouts. */
    static int compare(long v1, long d1, long v2, long d2) {
        if (v1 != v2) {
            return Long.compare(v1, v2);
        }
        return Long.compareUnsigned(d1, d2);
    }
}
