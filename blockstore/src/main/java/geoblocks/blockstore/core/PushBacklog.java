package geoblocks.blockstore.core;

/**
 * Bytes of background pushes not yet acknowledged by their peers: a push counts from when it is
 * offered or opened until its bytes are acknowledged, or until it ends (closed or failed), whichever
 * comes first; an offer counts its block while it waits for the peer's answer. Acknowledgements are
 * cumulative per push, capped at its size, and never go back. Pure: no clock, no I/O.
 */
public final class PushBacklog {
    /** One push: its size and how many of its bytes the peer acknowledged so far. */
    public static final class Push {
        private final long bytes;
        private long acked;

        private Push(long bytes) {
            this.bytes = bytes;
        }

        public long bytes() {
            return bytes;
        }

        public long acked() {
            return acked;
        }
    }

    private long backlog;

    /** A push of {@code bytes} starts; it counts until acknowledged or ended. */
    public Push start(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a push has >= 0 bytes, was " + bytes);
        }
        backlog += bytes;
        return new Push(bytes);
    }

    /** An offer of a {@code bytes} block waits for its answer. */
    public void offered(long bytes) {
        backlog += bytes;
    }

    /** The offer of a {@code bytes} block was answered (or went unanswered). */
    public void offerSettled(long bytes) {
        backlog -= bytes;
    }

    /** The peer acknowledged {@code acked} bytes of {@code p} in all (cumulative; less than before changes nothing). */
    public void acknowledged(Push p, long acked) {
        long now = Math.min(acked, p.bytes);
        if (now > p.acked) {
            backlog -= now - p.acked;
            p.acked = now;
        }
    }

    /** {@code p} ended (stream closed or failed): none of its bytes are owed any more. */
    public void ended(Push p) {
        backlog -= p.bytes - p.acked;
        p.acked = p.bytes;
    }

    /** Bytes owed to peers now. */
    public long bytes() {
        return backlog;
    }
}
