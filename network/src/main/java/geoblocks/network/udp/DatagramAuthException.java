package geoblocks.network.udp;

import java.io.IOException;

/**
 * Why a received datagram was refused by {@link DatagramSealer}; always carries a non-null
 * {@link Reason} and never leaves any receiver state changed.
 *
 * <p>Refusals are expected under attack or on a noisy network, so this exception does not
 * capture a stack trace (it is cheap to throw per packet). Callers should count and drop, not
 * log every occurrence.
 */
public final class DatagramAuthException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The category of refusal. */
    public enum Reason {
        /** Fewer bytes than {@link DatagramSealer#OVERHEAD}. */
        TOO_SHORT,
        /** The key id in the header is not the one this receiver expects. */
        UNKNOWN_KEY_ID,
        /** The sequence number was already seen or is older than the replay window. */
        REPLAY,
        /** The GCM tag did not verify: header, body or tag was altered, or the key is wrong. */
        BAD_TAG
    }

    private final Reason reason;

    /**
     * @param reason  category of refusal, not null
     * @param message detail naming the offending value
     */
    public DatagramAuthException(Reason reason, String message) {
        super(reason + ": " + message);
        if (reason == null) {
            throw new IllegalArgumentException("reason must not be null");
        }
        this.reason = reason;
    }

    /** @return the category of refusal, never null */
    public Reason reason() {
        return reason;
    }

    /** No stack trace: refusals are routine and may arrive at line rate. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
