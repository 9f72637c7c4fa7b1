package geoblocks.ledbat.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The receiver side of one reliable stream: buffers segments that arrive out of order (up to
 * {@code capacity} packets ahead), hands payloads to the application strictly in sequence order
 * exactly once, counts duplicates and reordering, and describes what it holds as a cumulative ACK
 * (next expected sequence number) plus a selective-ACK bitmap of the packets after it.
 * Invariants: every sequence number below {@link #next()} was delivered once; buffered sequence
 * numbers lie in {@code (next, next + capacity)}.
 */
public final class ReceiveWindow {
    /** Largest SACK bitmap in bytes (covers 1,024 packets after the cumulative ACK). */
    public static final int MAX_SACK_BYTES = 128;

    /** What happened to an arriving segment. */
    public enum Outcome { IN_ORDER, OUT_OF_ORDER, DUPLICATE, BEYOND_WINDOW }

    private final byte[][] slots;
    private final boolean[] present;
    private final int mask;
    private long next;
    private long highest = -1;
    private long finSeq = -1;
    private final List<byte[]> deliverable = new ArrayList<>();
    private long deliverableBytes;

    private long received;
    private long duplicates;
    private long outOfOrder;
    private long beyondWindow;
    private long deliveredBytes;

    public ReceiveWindow(int capacityPackets) {
        int cap = Integer.highestOneBit(Math.max(16, capacityPackets - 1)) << 1;
        slots = new byte[cap][];
        present = new boolean[cap];
        mask = cap - 1;
    }

    /** Accepts one segment; in-order payloads become available through {@link #drainDeliverable}. */
    public Outcome onSegment(long seq, byte[] payload, boolean fin) {
        received++;
        if (seq < next) {
            duplicates++;
            return Outcome.DUPLICATE;
        }
        if (seq - next > mask || (finSeq >= 0 && seq > finSeq)) {
            beyondWindow++;
            return Outcome.BEYOND_WINDOW;
        }
        if (seq > next && present[(int) (seq & mask)]) {
            duplicates++;
            return Outcome.DUPLICATE;
        }
        if (fin) {
            finSeq = seq;
        }
        highest = Math.max(highest, seq);
        if (seq > next) {
            outOfOrder++;
            slots[(int) (seq & mask)] = payload;
            present[(int) (seq & mask)] = true;
            return Outcome.OUT_OF_ORDER;
        }
        deliver(payload);
        while (present[(int) (next & mask)]) {
            int i = (int) (next & mask);
            present[i] = false;
            byte[] p = slots[i];
            slots[i] = null;
            deliver(p);
        }
        return Outcome.IN_ORDER;
    }

    private void deliver(byte[] payload) {
        if (payload.length > 0) {
            deliverable.add(payload);
            deliverableBytes += payload.length;
            deliveredBytes += payload.length;
        }
        next++;
    }

    /** Bytes delivered in order and not yet drained. */
    public long deliverableBytes() {
        return deliverableBytes;
    }

    /** Removes and returns the in-order bytes received since the last call, concatenated. */
    public byte[] drainDeliverable() {
        byte[] out;
        if (deliverable.size() == 1) {
            out = deliverable.get(0);
        } else {
            out = new byte[(int) deliverableBytes];
            int pos = 0;
            for (byte[] p : deliverable) {
                System.arraycopy(p, 0, out, pos, p.length);
                pos += p.length;
            }
        }
        deliverable.clear();
        deliverableBytes = 0;
        return out;
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
        java.util.Arrays.fill(out, 0, len, (byte) 0);
        for (int i = 0; i < bits; i++) {
            if (present[(int) ((next + 1 + i) & mask)]) {
                out[i >> 3] |= (byte) (1 << (i & 7));
            }
        }
        return len;
    }

    /** The cumulative ACK: the next sequence number expected. */
    public long next() {
        return next;
    }

    /** The FIN arrived and everything before it was delivered. */
    public boolean isComplete() {
        return finSeq >= 0 && next > finSeq;
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
