package geoblocks.ledbat.core;

import java.util.ArrayDeque;

/**
 * The sender side of one reliable stream: cuts queued application bytes into MSS-sized segments with
 * consecutive sequence numbers, tracks what is in flight, applies cumulative and selective ACKs,
 * detects losses and queues retransmissions. A segment counts as lost when a segment transmitted at
 * least {@link #DUP_THRESH} transmissions after it has been acknowledged (the duplicate-ACK threshold
 * of RFC 5681/6675 applied to transmission order, so retransmissions are judged too), or on a
 * timeout (RFC 6298 section 5.4: everything unacknowledged is resent). Invariants:
 * {@code una <= nextSeq}; flight bytes = sum of IN_FLIGHT segment lengths; the FIN is the last segment.
 */
public final class SendWindow {
    static final int DUP_THRESH = 3;

    private final int mss;
    private Segment[] ring = new Segment[1024];
    private long una;
    private long nextSeq;
    private long flightBytes;

    private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    private int pendingOffset;
    private long queuedBytes;
    private boolean finQueued;
    private boolean finCreated;

    private final LongRing txOrder = new LongRing();    // (seq, txIndex) in transmission order
    private final LongRing retransmit = new LongRing(); // (seq, 0) of LOST segments, oldest first
    private long txCounter;
    private long highestAckedTx = -1;

    private long sentPackets;
    private long resentPackets;
    private long sentBytes;
    private long resentBytes;
    private long ackedBytes;
    private long lostPackets;
    private int lastLosses;

    public SendWindow(int mss) {
        this.mss = mss;
    }

    /** Queues application bytes; the array must not be modified afterwards. */
    public void offer(byte[] data) {
        if (finQueued) {
            throw new IllegalStateException("stream already closed for sending");
        }
        if (data.length > 0) {
            pending.add(data);
            queuedBytes += data.length;
        }
    }

    /** True once {@link #close} was called: no more data may be offered. */
    public boolean isClosed() {
        return finQueued;
    }

    /** Queues the FIN after all queued data. Idempotent. */
    public void close() {
        finQueued = true;
    }

    /**
     * The next segment to transmit within {@code cwnd} bytes, or null: lost segments first, then new
     * data, then the FIN. The segment is marked in flight and stamped with {@code now}.
     */
    public Segment nextToSend(long now, double cwnd) {
        while (!retransmit.isEmpty()) {
            Segment s = get(retransmit.peekA());
            if (s == null || s.state != Segment.State.LOST) {
                retransmit.poll();
                continue;
            }
            if (!fits(s.length, cwnd)) {
                return null;
            }
            retransmit.poll();
            resentPackets++;
            resentBytes += s.length;
            return transmit(s, now);
        }
        if (!fits(Math.min(mss, queuedBytes), cwnd)) {
            return null;
        }
        Segment s = cut();
        if (s == null) {
            return null;
        }
        sentPackets++;
        sentBytes += s.length;
        return transmit(s, now);
    }

    private boolean fits(long len, double cwnd) {
        return flightBytes == 0 || flightBytes + len <= cwnd;
    }

    private Segment transmit(Segment s, long now) {
        s.state = Segment.State.IN_FLIGHT;
        s.txIndex = txCounter++;
        s.sentAt = now;
        s.transmissions++;
        flightBytes += s.length;
        txOrder.add(s.seq, s.txIndex);
        return s;
    }

    /** Cuts the next new segment from the pending bytes (copying only to fill a segment across chunks). */
    private Segment cut() {
        if (queuedBytes == 0) {
            if (finQueued && !finCreated) {
                finCreated = true;
                return store(new Segment(nextSeq, new byte[0], 0, 0, true));
            }
            return null;
        }
        byte[] head = pending.peek();
        int left = head.length - pendingOffset;
        Segment s;
        if (left >= mss || pending.size() == 1) {
            int len = Math.min(left, mss);
            s = new Segment(nextSeq, head, pendingOffset, len, false);
            consume(len);
        } else {
            int len = (int) Math.min(mss, queuedBytes);
            byte[] buf = new byte[len];
            int filled = 0;
            while (filled < len) {
                byte[] h = pending.peek();
                int n = Math.min(len - filled, h.length - pendingOffset);
                System.arraycopy(h, pendingOffset, buf, filled, n);
                filled += n;
                consume(n);
            }
            s = new Segment(nextSeq, buf, 0, len, false);
        }
        return store(s);
    }

    private void consume(int n) {
        pendingOffset += n;
        queuedBytes -= n;
        if (pendingOffset == pending.peek().length) {
            pending.poll();
            pendingOffset = 0;
        }
    }

    private Segment store(Segment s) {
        if (nextSeq - una >= ring.length) {
            Segment[] bigger = new Segment[ring.length * 2];
            for (long q = una; q < nextSeq; q++) {
                bigger[(int) (q & (bigger.length - 1))] = ring[(int) (q & (ring.length - 1))];
            }
            ring = bigger;
        }
        ring[(int) (nextSeq & (ring.length - 1))] = s;
        nextSeq++;
        return s;
    }

    private Segment get(long seq) {
        if (seq < una || seq >= nextSeq) {
            return null;
        }
        return ring[(int) (seq & (ring.length - 1))];
    }

    /**
     * Applies an ACK: everything below {@code cumAck} is received, and bit i of {@code sack}
     * (LSB-first within each byte) says that {@code cumAck + 1 + i} is. Returns the bytes newly
     * acknowledged, or -1 if the ACK is invalid (acknowledges data never sent) and was ignored.
     */
    public long onAck(long cumAck, byte[] sack, int sackLen) {
        lastLosses = 0;
        if (cumAck > nextSeq || cumAck < 0) {
            return -1;
        }
        long newly = 0;
        for (long q = una; q < cumAck; q++) {
            int i = (int) (q & (ring.length - 1));
            Segment s = ring[i];
            newly += acknowledge(s);
            ackedBytes += s.length;
            ring[i] = null;
        }
        una = Math.max(una, cumAck);
        for (int bit = 0; bit < sackLen * 8; bit++) {
            if ((sack[bit >> 3] & (1 << (bit & 7))) != 0) {
                Segment s = get(cumAck + 1 + bit);
                if (s != null && s.state != Segment.State.SACKED) {
                    newly += acknowledge(s);
                    s.state = Segment.State.SACKED;
                }
            }
        }
        detectLosses();
        return newly;
    }

    private long acknowledge(Segment s) {
        if (s.state == Segment.State.SACKED) {
            return 0;
        }
        if (s.state == Segment.State.IN_FLIGHT) {
            flightBytes -= s.length;
        }
        if (s.txIndex > highestAckedTx) {
            highestAckedTx = s.txIndex;
        }
        s.state = Segment.State.SACKED;
        return Math.max(1, s.length);
    }

    private void detectLosses() {
        while (!txOrder.isEmpty() && txOrder.peekB() + DUP_THRESH <= highestAckedTx) {
            Segment s = get(txOrder.peekA());
            long tx = txOrder.peekB();
            txOrder.poll();
            if (s != null && s.txIndex == tx && s.state == Segment.State.IN_FLIGHT) {
                markLost(s);
            }
        }
    }

    private void markLost(Segment s) {
        s.state = Segment.State.LOST;
        flightBytes -= s.length;
        retransmit.add(s.seq, 0);
        lostPackets++;
        lastLosses++;
    }

    /** The retransmission timer expired: every segment in flight is considered lost. Returns how many. */
    public int onTimeout() {
        lastLosses = 0;
        txOrder.clear();
        retransmit.clear();
        for (long q = una; q < nextSeq; q++) {
            Segment s = get(q);
            if (s.state == Segment.State.IN_FLIGHT) {
                markLost(s);
            } else if (s.state == Segment.State.LOST) {
                retransmit.add(s.seq, 0);
            }
        }
        return lastLosses;
    }

    /** Losses detected by the last {@link #onAck} or {@link #onTimeout}. */
    public int lastLosses() {
        return lastLosses;
    }

    public long flightBytes() {
        return flightBytes;
    }

    /** True while some sent segment is neither acknowledged nor known lost... or lost and not yet resent. */
    public boolean hasOutstanding() {
        return una < nextSeq;
    }

    /** Data or FIN waiting to be sent (new or retransmission). */
    public boolean hasWork() {
        return queuedBytes > 0 || (finQueued && !finCreated) || !retransmit.isEmpty();
    }

    /** The FIN was sent and everything up to and including it is acknowledged. */
    public boolean isComplete() {
        return finCreated && una == nextSeq;
    }

    public long una() {
        return una;
    }

    public long nextSeq() {
        return nextSeq;
    }

    public long queuedBytes() {
        return queuedBytes;
    }

    /** Application bytes acknowledged cumulatively (every byte before them too). */
    public long ackedBytes() {
        return ackedBytes;
    }

    public long sentPackets() {
        return sentPackets;
    }

    public long resentPackets() {
        return resentPackets;
    }

    public long sentBytes() {
        return sentBytes;
    }

    public long resentBytes() {
        return resentBytes;
    }

    public long lostPackets() {
        return lostPackets;
    }
}
