package geoblocks.ledbat.core;

/**
 * One packet's worth of a flow: the flow's sequence number, the stream the payload belongs to, the
 * payload slice and the stream's FIN flag, plus its transmission state. The payload slice is never
 * modified; each (re)transmission becomes a new wire packet with a fresh timestamp.
 */
public final class Segment {
    enum State { UNSENT, IN_FLIGHT, SACKED, LOST }

    final long seq;
    final SendStream stream;
    final byte[] data;
    final int offset;
    final int length;
    final boolean fin;
    State state = State.UNSENT;
    long txIndex = -1;
    long sentAt;
    int transmissions;

    Segment(long seq, SendStream stream, byte[] data, int offset, int length, boolean fin) {
        this.seq = seq;
        this.stream = stream;
        this.data = data;
        this.offset = offset;
        this.length = length;
        this.fin = fin;
    }

    public long seq() {
        return seq;
    }

    /** The id of the stream this segment carries bytes (or the FIN) of. */
    public int streamId() {
        return stream.id;
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

    /** The last segment of its stream. */
    public boolean fin() {
        return fin;
    }

    /** True if this transmission is a retransmission. */
    public boolean isRetransmission() {
        return transmissions > 1;
    }
}
