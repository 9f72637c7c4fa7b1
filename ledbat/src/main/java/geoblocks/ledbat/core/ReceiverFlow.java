package geoblocks.ledbat.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The receiving side of one flow from a peer, pure: a {@link ReceiveWindow} over the flow's
 * sequence space, and the demultiplexer that turns its in-order segments back into streams (each
 * stream's bytes in order, exactly once, with their offset; its end when its FIN is delivered).
 * Deliveries are gathered per stream and handed out by {@link #flush} when the flow is
 * acknowledged, so one ACK of eight packets gives at most one delivery per stream. A stream is
 * opened by its first segment (offset 0). When no stream is open and nothing is buffered the
 * window is released ({@link #release}) and only the cumulative ACK is kept: a retransmission
 * is still acknowledged, and a segment after it (a new stream on the same flow) starts a new window.
 */
public final class ReceiverFlow implements ReceiveWindow.Sink {
    /** Where {@link #flush} hands the streams' deliveries. */
    public interface Delivery {
        /** The next {@code data.length} bytes of {@code stream}, from byte {@code offset}. */
        void data(int stream, long offset, byte[] data);

        /** {@code stream} ended after {@code bytes} bytes. */
        void closed(int stream, long bytes);
    }

    private static final class Stream {
        final int id;
        long offset;
        /**
         * The bytes delivered since the last flush: {@code pending[0, pendingBytes)}. A lone payload is
         * kept as it is (never written to); the next one copies both into a buffer of this stream's,
         * sized like the last flush, so a steady ACK pattern fills it exactly and hands it out whole.
         */
        byte[] pending;
        int pendingBytes;
        boolean pendingIsPayload;
        int lastFlushBytes;
        boolean fin;
        boolean dirty;

        Stream(int id) {
            this.id = id;
        }

        void append(byte[] payload) {
            if (pending == null) {
                pending = payload;
                pendingBytes = payload.length;
                pendingIsPayload = true;
                return;
            }
            int need = pendingBytes + payload.length;
            if (pendingIsPayload || need > pending.length) {
                int size = pendingIsPayload ? Math.max(need, lastFlushBytes) : Math.max(need, pending.length * 2);
                byte[] b = new byte[size];
                System.arraycopy(pending, 0, b, 0, pendingBytes);
                pending = b;
                pendingIsPayload = false;
            }
            System.arraycopy(payload, 0, pending, pendingBytes, payload.length);
            pendingBytes = need;
        }

        /** The pending bytes as one array of exactly their length; nothing is pending afterwards. */
        byte[] take() {
            byte[] data = pendingBytes == pending.length ? pending : Arrays.copyOf(pending, pendingBytes);
            lastFlushBytes = pendingBytes;
            pending = null;
            pendingBytes = 0;
            pendingIsPayload = false;
            return data;
        }
    }

    private final int id;
    private final int capacity;
    private ReceiveWindow window;
    private long next;
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final List<Stream> dirty = new ArrayList<>();
    private Stream last;
    private int unacked;
    private boolean finDelivered;
    private long lastHeard;
    private long duplicates;
    private long outOfOrder;
    /** Segments arriving in parts (created at the first part: most flows never see one). */
    private SegmentParts parts;

    public ReceiverFlow(int id, int capacityPackets, long now) {
        this.id = id;
        this.capacity = capacityPackets;
        this.lastHeard = now;
    }

    public int id() {
        return id;
    }

    /** Accepts one segment of the flow at time {@code now}. */
    public ReceiveWindow.Outcome onSegment(long now, long seq, int stream, byte[] payload, boolean fin) {
        lastHeard = now;
        if (window == null) {
            if (seq < next) {
                duplicates++;
                unacked++;
                return ReceiveWindow.Outcome.DUPLICATE;
            }
            window = new ReceiveWindow(capacity, next, this);
        }
        ReceiveWindow.Outcome o = window.onSegment(seq, stream, payload, fin);
        switch (o) {
            case DUPLICATE -> duplicates++;
            case OUT_OF_ORDER -> outOfOrder++;
            default -> { }
        }
        next = window.next();
        unacked++;
        return o;
    }

    /**
     * Accepts one part of a segment (its sender's path MTU went down after it cut the segment): the
     * segment is accepted as {@link #onSegment} would once every byte arrived. Returns what became of
     * the segment then, or null while parts are missing. A part of a segment already received counts
     * as a duplicate.
     */
    public ReceiveWindow.Outcome onPart(long now, long seq, int stream, int partOffset, int segmentLength,
            byte[] payload, boolean fin) {
        if (seq < next) {
            return onSegment(now, seq, stream, payload, fin);   // a duplicate: nothing is delivered
        }
        lastHeard = now;
        if (parts == null) {
            parts = new SegmentParts();
        }
        byte[] whole = parts.add(seq, stream, partOffset, segmentLength, payload, fin);
        if (whole == null) {
            return null;
        }
        ReceiveWindow.Outcome o = onSegment(now, seq, stream, whole, fin);
        parts.forgetBelow(next);
        return o;
    }

    /**
     * Whether to acknowledge now: the segment asked for it, arrived out of order or twice, ended a
     * stream, or {@code ackEvery} segments are unacknowledged.
     */
    public boolean ackDue(ReceiveWindow.Outcome o, boolean ackNow, int ackEvery) {
        return ackNow || o != ReceiveWindow.Outcome.IN_ORDER || finDelivered || unacked >= ackEvery;
    }

    @Override
    public void deliver(int stream, byte[] payload, boolean fin) {
        Stream s = last != null && last.id == stream ? last : streams.get(stream);
        if (s == null) {
            s = new Stream(stream);
            streams.put(stream, s);
        }
        last = s;
        if (payload.length > 0) {
            s.append(payload);
        }
        if (fin) {
            s.fin = true;
            finDelivered = true;
        }
        if (!s.dirty) {
            s.dirty = true;
            dirty.add(s);
        }
    }

    /**
     * Hands out what was delivered in order since the last flush, per stream (bytes, then the end),
     * and marks the flow acknowledged (the caller sends the ACK).
     */
    public void flush(Delivery out) {
        for (Stream s : dirty) {
            s.dirty = false;
            if (s.pendingBytes > 0) {
                long at = s.offset;
                byte[] data = s.take();
                s.offset += data.length;
                out.data(s.id, at, data);
            }
            if (s.fin) {
                streams.remove(s.id);
                if (last == s) {
                    last = null;
                }
                out.closed(s.id, s.offset);
            }
        }
        dirty.clear();
        unacked = 0;
        finDelivered = false;
    }

    /** No stream is open and nothing is buffered out of order or waiting for {@link #flush}. */
    public boolean isQuiet() {
        return streams.isEmpty() && dirty.isEmpty() && (window == null || !window.holdsOutOfOrder());
    }

    /** Drops the window's buffers of a quiet flow, keeping the cumulative ACK. */
    public void release() {
        if (isQuiet()) {
            window = null;
        }
    }

    /** True while the window's buffers are held. */
    public boolean holdsWindow() {
        return window != null;
    }

    /** The ids of the open streams (for failing them). */
    public List<Integer> openStreams() {
        return new ArrayList<>(streams.keySet());
    }

    /** Writes the SACK bitmap into {@code out}; returns its length in bytes. */
    public int writeSack(byte[] out) {
        return window == null ? 0 : window.writeSack(out);
    }

    /** The cumulative ACK: the next flow sequence number expected. */
    public long next() {
        return next;
    }

    public long lastHeard() {
        return lastHeard;
    }

    public long duplicates() {
        return duplicates;
    }

    public long outOfOrder() {
        return outOfOrder;
    }
}
