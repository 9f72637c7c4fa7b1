package geoblocks.ledbat.core;

import java.util.ArrayDeque;

/**
 * The sending side of one stream multiplexed on a flow ({@link SendWindow}): the application bytes
 * queued on it and not yet cut into segments, whether it was closed, and what of it was sent and
 * acknowledged. Its bytes travel in order within the flow's sequence space; the stream is done when
 * its FIN was cut and every segment of it is acknowledged. Mutated only by its window.
 */
public final class SendStream {
    final int id;
    final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    int pendingOffset;
    long queuedBytes;
    boolean closeRequested;
    boolean finCut;
    /** In the window's round-robin queue of streams with something to cut. */
    boolean ready;
    /** Segments cut and not yet acknowledged. */
    int unacked;
    long sentBytes;
    long ackedBytes;
    /** In the window's list of streams an ACK acknowledged bytes of. */
    boolean touched;
    private long notifiedAcked;

    SendStream(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** Bytes offered and not yet cut into segments. */
    public long queuedBytes() {
        return queuedBytes;
    }

    /** Bytes of this stream acknowledged (cumulatively or selectively, each once). */
    public long ackedBytes() {
        return ackedBytes;
    }

    /** Bytes of this stream sent for the first time. */
    public long sentBytes() {
        return sentBytes;
    }

    /** {@code CloseStream} was asked: no more bytes may be offered. */
    public boolean isClosed() {
        return closeRequested;
    }

    /** The FIN was cut and every segment of this stream is acknowledged. */
    public boolean isDone() {
        return finCut && unacked == 0;
    }

    /** Something is left to cut: queued bytes, or the FIN after a close. */
    boolean hasWork() {
        return queuedBytes > 0 || (closeRequested && !finCut);
    }

    /**
     * Whether a progress report is due: at least {@code every} bytes acknowledged since the last
     * report, or the queue ran dry with something new acknowledged. Records the report when due.
     */
    public boolean progressDue(long every) {
        if (ackedBytes - notifiedAcked >= every || (ackedBytes > notifiedAcked && queuedBytes == 0)) {
            notifiedAcked = ackedBytes;
            return true;
        }
        return false;
    }
}
