package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;
import java.util.Arrays;

/**
 * A data segment of a flow: the flow's sequence number, the sender's send time in microseconds
 * (RFC 6817 section 2.3: every data packet carries a timestamp; the receiver's delay sample is its
 * receive time minus this), the stream the payload belongs to, the FIN flag on that stream's last
 * segment, the ACK-NOW flag, and a payload of at most {@link LedbatCodec#MAX_PAYLOAD} bytes. The
 * payload is a slice of an array that nobody modifies.
 */
public final class DataPacket extends LedbatPacket {
    private final long seq;
    private final long timestampMicros;
    private final boolean fin;
    private final boolean ackNow;
    private final int streamId;
    private final byte[] data;
    private final int offset;
    private final int length;
    /** With a part: where this payload starts in its segment's; -1 for a whole segment. */
    private final int partOffset;
    /** With a part: the whole segment's payload length. */
    private final int segmentLength;

    public DataPacket(NetHeader header, int flowId, long seq, long timestampMicros, int streamId, boolean fin,
            boolean ackNow, byte[] data, int offset, int length) {
        this(header, flowId, seq, timestampMicros, streamId, fin, ackNow, data, offset, length, -1, length);
    }

    /**
     * A part of a segment (the PART flag): {@code length} bytes of its payload from {@code partOffset}, of
     * {@code segmentLength} in all. A segment cut before its path's MTU went down is sent again in parts
     * that fit; the receiver joins them before the segment counts as received. {@code partOffset} -1 =
     * a whole segment.
     */
    public DataPacket(NetHeader header, int flowId, long seq, long timestampMicros, int streamId, boolean fin,
            boolean ackNow, byte[] data, int offset, int length, int partOffset, int segmentLength) {
        super(requireHeader(header), flowId);
        if (partOffset >= 0 && (segmentLength > LedbatCodec.MAX_PAYLOAD || partOffset + length > segmentLength)) {
            throw new IllegalArgumentException("part " + partOffset + "+" + length + " does not lie in a segment of "
                    + segmentLength + " bytes (max " + LedbatCodec.MAX_PAYLOAD + ")");
        }
        this.partOffset = partOffset;
        this.segmentLength = partOffset >= 0 ? segmentLength : length;
        if (seq < 0 || seq > LedbatCodec.MAX_SEQ) {
            throw new IllegalArgumentException("sequence number must be in 0..2^48-1, was " + seq);
        }
        if (length < 0 || length > LedbatCodec.MAX_PAYLOAD || offset < 0 || offset + length > data.length) {
            throw new IllegalArgumentException("payload slice " + offset + "+" + length + " invalid for "
                    + data.length + " bytes (max payload " + LedbatCodec.MAX_PAYLOAD + ")");
        }
        this.seq = seq;
        this.timestampMicros = timestampMicros;
        this.fin = fin;
        this.ackNow = ackNow;
        this.streamId = streamId;
        this.data = data;
        this.offset = offset;
        this.length = length;
    }

    public long seq() {
        return seq;
    }

    public long timestampMicros() {
        return timestampMicros;
    }

    /** The stream this payload belongs to (chosen by the sender, unique among its streams). */
    public int streamId() {
        return streamId;
    }

    /** The last segment of its stream. */
    public boolean fin() {
        return fin;
    }

    /** Set on the last packet of a burst: the receiver acknowledges at once instead of every ack-every-th packet. */
    public boolean ackNow() {
        return ackNow;
    }

    /** The payload as its own array (no copy when the slice is the whole array). */
    public byte[] payload() {
        if (offset == 0 && length == data.length) {
            return data;
        }
        return Arrays.copyOfRange(data, offset, offset + length);
    }

    byte[] array() {
        return data;
    }

    int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** A part of a segment, not a whole one. */
    public boolean part() {
        return partOffset >= 0;
    }

    /** Where this part's payload starts in its segment's (-1: a whole segment). */
    public int partOffset() {
        return partOffset;
    }

    /** The whole segment's payload length (this packet's for a whole segment). */
    public int segmentLength() {
        return segmentLength;
    }

    /**
     * Deliberately without the header: Kompics' NettyNetwork builds this string eagerly for a debug
     * log line on every received message, and formatting two IP addresses per datagram showed up in
     * profiles. {@link #getHeader()} has the addresses.
     */
    @Override
    public String toString() {
        return "Data{flow=" + flowId() + " stream=" + streamId + " seq=" + seq + " len=" + length
                + (partOffset >= 0 ? " part@" + partOffset + "/" + segmentLength : "") + (fin ? " FIN}" : "}");
    }
}
