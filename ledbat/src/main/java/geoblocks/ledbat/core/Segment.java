package geoblocks.ledbat.core;

/**
 * One packet's worth of stream data in the send window: sequence number, payload slice and FIN
 * flag, plus its transmission state. The payload slice is never modified; each (re)transmission
 * becomes a new wire packet with a fresh timestamp.
 */
public final class Segment {
    enum State { UNSENT, IN_FLIGHT, SACKED, LOST }

    final long seq;
    final byte[] data;
    final int offset;
    final int length;
    final boolean fin;
    State state = State.UNSENT;
    long txIndex = -1;
    long sentAt;
    int transmissions;

    Segment(long seq, byte[] data, int offset, int length, boolean fin) {
        this.seq = seq;
        this.data = data;
        this.offset = offset;
        this.length = length;
        this.fin = fin;
    }

    public long seq() {
        return seq;
    }

    public byte[] data() {
        return data;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public boolean fin() {
        return fin;
    }

    /** True if this transmission is a retransmission. */
    public boolean isRetransmission() {
        return transmissions > 1;
    }
}
