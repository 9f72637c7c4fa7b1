package geoblocks.ledbat.core;

import java.util.Arrays;

/**
 * The receiver side of one flow: buffers segments that arrive out of order (up to
 * {@code capacity} packets ahead), hands each segment (its stream, payload and FIN flag) to a
 * {@link Sink} strictly in flow sequence order exactly once, counts duplicates and reordering, and
 * describes what it holds as a cumulative ACK (next expected sequence number) plus a selective-ACK
 * bitmap of the packets after it. The buffer starts small and doubles up to {@code capacity} as
 * segments arrive further ahead, so an idle or short flow costs little. Invariants: every sequence
 * number below {@link #next()} was delivered once; buffered sequence numbers lie in
 * {@code (next, next + capacity)}.
 */
public final class ReceiveWindow {
    /** Largest SACK bitmap in bytes (covers 1,024 packets after the cumulative ACK). */
    public static final int MAX_SACK_BYTES = 128;
    private static final int INITIAL_SLOTS = 64;

    /** What happened to an arriving segment. */
    /**
     * What became of a segment: delivered in order; delivered in order and filled (all or part of) a
     * gap, so buffered segments followed it or some still wait (to be acknowledged at once, RFC 5681
     * section 4.2, or a sender waiting out its reorder window would count it lost); buffered after a
     * gap; a duplicate; or beyond the window (dropped).
     */
    public enum Outcome { IN_ORDER, FILLED_GAP, OUT_OF_ORDER, DUPLICATE, BEYOND_WINDOW }

    /** Receives the flow's segments in order. */
    public interface Sink {
        void deliver(int stream, byte[] payload, boolean fin);
    }

    private final int capacity;
    private final Sink sink;
    private byte[][] slots;
    private int[] streams;
    private boolean[] fins;
    private boolean[] present;
    private int mask;
    private long next;
    private long highest;

    private long received;
    private long duplicates;
    private long outOfOrder;
    private long beyondWindow;
    private long deliveredBytes;

    /** A window expecting sequence number {@code start} first. */
    public ReceiveWindow(int capacityPackets, long start, Sink sink) {
        this.capacity = Integer.highestOneBit(Math.max(16, capacityPackets - 1)) << 1;
        this.sink = sink;
        this.next = start;
        this.highest = start - 1;
        allocate(Math.min(INITIAL_SLOTS, capacity));
    }

    private void allocate(int size) {
        byte[][] s = new byte[size][];
        int[] st = new int[size];
        boolean[] f = new boolean[size];
        boolean[] p = new boolean[size];
        int m = size - 1;
        for (long q = next + 1; q <= highest; q++) {
            int from = (int) (q & mask);
            if (present[from]) {
                int to = (int) (q & m);
                s[to] = slots[from];
                st[to] = streams[from];
                f[to] = fins[from];
                p[to] = true;
            }
        }
        slots = s;
        streams = st;
        fins = f;
        present = p;
        mask = m;
    }

    /** Accepts one segment of stream {@code stream}; in-order segments go to the sink at once. */
    public Outcome onSegment(long seq, int stream, byte[] payload, boolean fin) {
        received++;
        if (seq < next) {
            duplicates++;
            return Outcome.DUPLICATE;
        }
        if (seq - next >= capacity) {
            beyondWindow++;
            return Outcome.BEYOND_WINDOW;
        }
        while (seq - next > mask) {
            allocate(slots.length * 2);
        }
        int i = (int) (seq & mask);
        if (seq > next && present[i]) {
            duplicates++;
            return Outcome.DUPLICATE;
        }
        highest = Math.max(highest, seq);
        if (seq > next) {
            outOfOrder++;
            slots[i] = payload;
            streams[i] = stream;
            fins[i] = fin;
            present[i] = true;
            return Outcome.OUT_OF_ORDER;
        }
        deliver(stream, payload, fin);
        boolean filled = false;
        while (present[(int) (next & mask)]) {
            int j = (int) (next & mask);
            present[j] = false;
            byte[] p = slots[j];
            slots[j] = null;
            deliver(streams[j], p, fins[j]);
            filled = true;
        }
        return filled || highest >= next ? Outcome.FILLED_GAP : Outcome.IN_ORDER;
    }

    private void deliver(int stream, byte[] payload, boolean fin) {
        deliveredBytes += payload.length;
        next++;
        sink.deliver(stream, payload, fin);
    }

    /** True while segments after a hole are buffered. */
    public boolean holdsOutOfOrder() {
        return highest > next;
    }

    /**
     * Writes the SACK bitmap into {@code out} (bit i, LSB-first, = packet {@code next + 1 + i} is held)
     * and returns its length in bytes (0 when nothing is held out of order).
     */
    public int writeSack(byte[] out) {
        if (highest <= next) {
            return 0;
        }
        int bits = (int) Math.min(highest - next, Math.min(out.length, MAX_SACK_BYTES) * 8L);
        int len = (bits + 7) / 8;
        Arrays.fill(out, 0, len, (byte) 0);
        for (int i = 0; i < bits; i++) {
            long q = next + 1 + i;
            if (q - next <= mask && present[(int) (q & mask)]) {
                out[i >> 3] |= (byte) (1 << (i & 7));
            }
        }
        return len;
    }

    /** The cumulative ACK: the next sequence number expected. */
    public long next() {
        return next;
    }

    /** Slots currently allocated (grows up to the capacity). */
    int allocatedSlots() {
        return slots.length;
    }

    public long received() {
        return received;
    }

    public long duplicates() {
        return duplicates;
    }

    public long outOfOrder() {
        return outOfOrder;
    }

    public long beyondWindow() {
        return beyondWindow;
    }

    public long deliveredBytes() {
        return deliveredBytes;
    }
}
