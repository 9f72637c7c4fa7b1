package geoblocks.ledbat.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The sender side of one flow, the reliable sequence of segments to one peer that every stream to
 * that peer is multiplexed on: cuts the streams' queued bytes into MSS-sized segments with
 * consecutive flow sequence numbers, taking the streams with something to send either oldest first
 * (fifo: a stream sends until it has nothing queued) or in turn (round robin: one segment each),
 * tracks what is in flight, applies cumulative and selective ACKs,
 * detects losses and queues retransmissions. A segment counts as lost when a segment transmitted at
 * least {@link #DUP_THRESH} transmissions after it (of any stream of the flow) has been
 * acknowledged (the duplicate-ACK threshold of RFC 5681/6675 applied to transmission order, so
 * retransmissions are judged too) and it was sent more than the reorder window before that segment
 * (RACK, RFC 8985 section 6.2: a segment is lost when {@code sentAt + rackRtt + reorderWindow <= now},
 * checked on every ACK and by {@link #detectLosses} from the flow's timer), or on a timeout (RFC 6298
 * section 5.4: everything unacknowledged is resent). Unlike RFC 8985, which keeps the window at 0
 * until it sees reordering, the window applies from the flow's first RTT sample: a background flow
 * loses little by finding a real loss a quarter RTT later, and much by taking reordering for loss
 * in its first round trips (it leaves slow start). Reordering is counted when a segment sent once is
 * acknowledged after a segment sent later was acknowledged by an earlier ACK. A segment carries bytes of one stream; a stream's FIN rides on its last
 * data segment, or on an empty segment when the close comes after the data was cut. Invariants:
 * {@code una <= nextSeq}; flight bytes = sum of IN_FLIGHT segment lengths; a stream's segments are
 * in its byte order and its FIN is its last.
 */
public final class SendWindow {
    private static final byte[] EMPTY = new byte[0];

    static final int DUP_THRESH = 3;

    private int mss;
    /** Segments with more payload than this count as large (for a path MTU search's black-hole detection). */
    private int largeAbove = Integer.MAX_VALUE;
    private long largeLost;
    private long largeAcked;
    private Segment[] ring = new Segment[1024];
    private long una;
    private long nextSeq;
    private long flightBytes;

    /** Streams with bytes or a FIN to cut, in turn. */
    private final ArrayDeque<SendStream> ready = new ArrayDeque<>();
    private long queuedBytes;
    private final List<SendStream> completed = new ArrayList<>();
    private final List<SendStream> progressed = new ArrayList<>();

    private final LongRing txOrder = new LongRing();    // (seq, txIndex) in transmission order
    private final LongRing retransmit = new LongRing(); // (seq, 0) of LOST segments, oldest first
    private long txCounter;
    private long highestAckedTx = -1;
    private long highestAckedTxAtAck = -1;   // highestAckedTx before the ACK being applied
    private long rackXmitTs;                 // when the segment of highestAckedTx was sent
    private long rackRtt;                    // the time from that sending to its acknowledgement
    private long lastSentAt;
    private long reorderWindow;              // microseconds; 0 until the flow sets one
    private long reorderedPackets;

    private long sentPackets;
    private long resentPackets;
    private long sentBytes;
    private long resentBytes;
    private long ackedBytes;
    private long lostPackets;
    private int lastLosses;

    private final boolean fifo;

    /** With {@code fifo} the oldest stream with data sends until it has none; else streams take turns. */
    public SendWindow(int mss, boolean fifo) {
        this.mss = mss;
        this.fifo = fifo;
    }

    /**
     * The payload of segments cut from now on (a path MTU search confirmed another size); segments
     * already cut keep theirs.
     */
    public void mss(int mss) {
        if (mss <= 0) {
            throw new IllegalArgumentException("mss must be positive, was " + mss);
        }
        this.mss = mss;
    }

    public int mss() {
        return mss;
    }

    /** Segments with more than {@code payload} bytes count in {@link #largeLost} and {@link #largeAcked}. */
    public void largeAbove(int payload) {
        largeAbove = payload;
    }

    /** A new stream on this flow. */
    public SendStream open(int streamId) {
        return new SendStream(streamId);
    }

    /** Queues application bytes on {@code stream}; the array must not be modified afterwards. */
    public void offer(SendStream stream, byte[] data) {
        if (stream.closeRequested) {
            throw new IllegalStateException("stream " + stream.id + " already closed for sending");
        }
        if (data.length > 0) {
            stream.pending.add(data);
            stream.queuedBytes += data.length;
            queuedBytes += data.length;
            schedule(stream);
        }
    }

    /** Queues {@code stream}'s FIN after its queued data. Idempotent. */
    public void close(SendStream stream) {
        if (!stream.closeRequested) {
            stream.closeRequested = true;
            schedule(stream);
        }
    }

    private void schedule(SendStream s) {
        if (!s.ready && s.hasWork()) {
            s.ready = true;
            ready.addLast(s);
        }
    }

    /**
     * The next segment to transmit within {@code cwnd} bytes, or null: lost segments first, then the
     * next segment (data or FIN) of the stream whose turn it is. The segment is marked in flight and
     * stamped with {@code now}.
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
        SendStream st = ready.peekFirst();
        if (st == null || !fits(Math.min(mss, st.queuedBytes), cwnd)) {
            return null;
        }
        Segment s = cut(st);
        if (!st.hasWork()) {
            ready.pollFirst();
            st.ready = false;
        } else if (!fifo) {
            ready.addLast(ready.pollFirst()); // round robin: one segment per stream in turn
        } // fifo: its turn goes on until it has nothing queued
        sentPackets++;
        sentBytes += s.length;
        st.sentBytes += s.length;
        return transmit(s, now);
    }

    private boolean fits(long len, double cwnd) {
        return flightBytes == 0 || flightBytes + len <= cwnd;
    }

    private Segment transmit(Segment s, long now) {
        s.state = Segment.State.IN_FLIGHT;
        s.txIndex = txCounter++;
        s.sentAt = now;
        lastSentAt = now;
        s.transmissions++;
        flightBytes += s.length;
        txOrder.add(s.seq, s.txIndex);
        return s;
    }

    /**
     * Cuts the next segment of {@code st} (copying only to fill a segment across its chunks); the
     * FIN rides on it when it empties a closed stream.
     */
    private Segment cut(SendStream st) {
        st.unacked++;
        if (st.queuedBytes == 0) {
            st.finCut = true;
            return store(new Segment(nextSeq, st, EMPTY, 0, 0, true));
        }
        byte[] head = st.pending.peek();
        int left = head.length - st.pendingOffset;
        Segment s;
        if (left >= mss || st.pending.size() == 1) {
            int len = Math.min(left, mss);
            int off = st.pendingOffset;
            consume(st, len);
            s = new Segment(nextSeq, st, head, off, len, finNow(st));
        } else {
            int len = (int) Math.min(mss, st.queuedBytes);
            byte[] buf = new byte[len];
            int filled = 0;
            while (filled < len) {
                byte[] h = st.pending.peek();
                int n = Math.min(len - filled, h.length - st.pendingOffset);
                System.arraycopy(h, st.pendingOffset, buf, filled, n);
                filled += n;
                consume(st, n);
            }
            s = new Segment(nextSeq, st, buf, 0, len, finNow(st));
        }
        return store(s);
    }

    private static boolean finNow(SendStream st) {
        if (st.closeRequested && st.queuedBytes == 0) {
            st.finCut = true;
            return true;
        }
        return false;
    }

    private void consume(SendStream st, int n) {
        st.pendingOffset += n;
        st.queuedBytes -= n;
        queuedBytes -= n;
        if (st.pendingOffset == st.pending.peek().length) {
            st.pending.poll();
            st.pendingOffset = 0;
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
        return onAck(lastSentAt, cumAck, sack, sackLen);
    }

    /**
     * {@link #onAck(long, byte[], int)} for an ACK that arrived at {@code now} (microseconds, the
     * clock of {@link #nextToSend}); the time matters only with a reorder window (above: an ACK
     * applied without a time counts as arriving when the last segment was sent).
     */
    public long onAck(long now, long cumAck, byte[] sack, int sackLen) {
        lastLosses = 0;
        highestAckedTxAtAck = highestAckedTx;
        completed.clear();
        for (SendStream st : progressed) {
            st.touched = false;
        }
        progressed.clear();
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
        if (highestAckedTx > highestAckedTxAtAck) {
            rackRtt = Math.max(0, now - rackXmitTs);
        }
        detectLosses(now);
        return newly;
    }

    private long acknowledge(Segment s) {
        if (s.state == Segment.State.SACKED) {
            return 0;
        }
        if (s.state == Segment.State.IN_FLIGHT) {
            flightBytes -= s.length;
        }
        if (s.length > largeAbove) {
            largeAcked++;
        }
        if (s.transmissions == 1 && s.txIndex < highestAckedTxAtAck) {
            reorderedPackets++;   // sent once, acknowledged after a later one: it arrived late
        }
        if (s.txIndex > highestAckedTx) {
            highestAckedTx = s.txIndex;
            rackXmitTs = s.sentAt;
        }
        s.state = Segment.State.SACKED;
        SendStream st = s.stream;
        st.ackedBytes += s.length;
        if (--st.unacked == 0 && st.finCut) {
            completed.add(st);
        }
        if (!st.touched) {
            st.touched = true;
            progressed.add(st);
        }
        return Math.max(1, s.length);
    }

    /**
     * Marks lost the segments in flight that a later acknowledged transmission and the reorder window
     * say are lost at {@code now}; returns how many. The flow calls it
     * from its timer so that a segment waiting out the reorder window does not wait for the next ACK.
     */
    public int detectLosses(long now) {
        int found = 0;
        while (!txOrder.isEmpty()) {
            long tx = txOrder.peekB();
            Segment s = get(txOrder.peekA());
            if (s == null || s.txIndex != tx || s.state != Segment.State.IN_FLIGHT) {
                txOrder.poll();   // acknowledged, or sent again since
                continue;
            }
            // transmission order is also sending-time order, so the first that is not lost ends the scan
            if (tx + DUP_THRESH > highestAckedTx || s.sentAt + rackRtt + reorderWindow > now) {
                break;
            }
            txOrder.poll();
            markLost(s);
            found++;
        }
        return found;
    }

    /**
     * How long a segment may arrive after one sent later before it counts as lost (RACK's reo_wnd;
     * the flow sets a quarter of its minimum RTT). 0 = the duplicate threshold alone.
     */
    public void reorderWindow(long micros) {
        reorderWindow = Math.max(0, micros);
    }

    /** Whether a segment sent once was acknowledged after a segment sent after it. */
    public boolean reorderingSeen() {
        return reorderedPackets > 0;
    }

    /** Segments acknowledged after a segment sent later (each one a reordering seen). */
    public long reorderedPackets() {
        return reorderedPackets;
    }

    private void markLost(Segment s) {
        s.state = Segment.State.LOST;
        flightBytes -= s.length;
        retransmit.add(s.seq, 0);
        lostPackets++;
        lastLosses++;
        if (s.length > largeAbove) {
            largeLost++;
        }
    }

    /**
     * The path's MTU went down to {@code payload} bytes of segment: every segment in flight that is
     * longer cannot arrive, so it is marked lost at once (to be sent again in parts) instead of waiting
     * for the retransmission timer. Not a congestion signal. Returns how many.
     */
    public int loseLargerThan(int payload) {
        int found = 0;
        for (long q = una; q < nextSeq; q++) {
            Segment s = get(q);
            if (s.state == Segment.State.IN_FLIGHT && s.length > payload) {
                markLost(s);
                found++;
            }
        }
        return found;
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

    /** A lost segment waits to be sent again (what {@link #nextToSend} would take first). */
    public boolean retransmitPending() {
        while (!retransmit.isEmpty()) {
            Segment s = get(retransmit.peekA());
            if (s != null && s.state == Segment.State.LOST) {
                return true;
            }
            retransmit.poll();
        }
        return false;
    }

    /** Data or a FIN waiting to be sent (new or retransmission). */
    public boolean hasWork() {
        return !ready.isEmpty() || !retransmit.isEmpty();
    }

    /** Streams the last {@link #onAck} finished (FIN and every byte acknowledged), in that order. */
    public List<SendStream> completed() {
        return completed;
    }

    /** Streams the last {@link #onAck} acknowledged bytes of (finished ones included). */
    public List<SendStream> progressed() {
        return progressed;
    }

    public long una() {
        return una;
    }

    public long nextSeq() {
        return nextSeq;
    }

    /** Bytes offered on the flow's streams and not yet cut into segments. */
    public long queuedBytes() {
        return queuedBytes;
    }

    /** Payload bytes acknowledged cumulatively (every byte before them too). */
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

    /** Segments larger than {@link #largeAbove} found lost (each loss of each transmission). */
    public long largeLost() {
        return largeLost;
    }

    /** Segments larger than {@link #largeAbove} acknowledged. */
    public long largeAcked() {
        return largeAcked;
    }
}
