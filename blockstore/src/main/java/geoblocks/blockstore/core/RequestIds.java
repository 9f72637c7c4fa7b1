package geoblocks.blockstore.core;

/**
 * The request ids one issuer hands out when several issuers share the ports their answers come back on
 * (Kompics delivers a port's answers to every component connected to it): issuer {@code k} of {@code n}
 * issues {@code k, k + n, k + 2n, ...}, so two issuers' ids never meet and an answer's id names the one
 * that asked, with no state shared between them. Alone ({@code 1} of {@code 1}) it issues 1, 2, 3, ... Id
 * 0 is never issued (a node's connection warm-ups use it). Not thread-safe: one component issues from it.
 */
public final class RequestIds {
    private final int issuer;
    private final int issuers;
    private long last;

    /** Issuer {@code issuer} (1-based) of {@code issuers}. */
    public RequestIds(int issuer, int issuers) {
        if (issuers < 1 || issuer < 1 || issuer > issuers) {
            throw new IllegalArgumentException("issuer " + issuer + " of " + issuers + ": want 1 <= issuer <= issuers");
        }
        this.issuer = issuer;
        this.issuers = issuers;
    }

    /** The only issuer: ids 1, 2, 3, ... */
    public static RequestIds alone() {
        return new RequestIds(1, 1);
    }

    /** A new id, never issued before by this issuer nor by any other of its set. */
    public long next() {
        last = last == 0 ? issuer : Math.addExact(last, issuers);
        return last;
    }

    /**
     * True when {@code id} is of this issuer's series: an answer to it is this issuer's to take, or to count as
     * late. An id no issuer hands out (0 and below) is the first issuer's.
     */
    public boolean mine(long id) {
        if (id <= 0) {
            return issuer == 1;
        }
        return (id - issuer) % issuers == 0;
    }
}
