package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;

/**
 * An acknowledgement of a flow: the cumulative ACK (next sequence number expected), a selective-ACK bitmap
 * of the packets after it (bit i, LSB first, = {@code cumAck + 1 + i} received), the echoed send
 * timestamp of the data packet that triggered it (for the RTT), the receiver's one-way delay
 * sample in microseconds (RFC 6817 section 2.3; clock offset included, it cancels against the base
 * delay), and the receiver's duplicate and out-of-order counters for statistics.
 */
public final class AckPacket extends LedbatPacket {
    private final long cumAck;
    private final long echoMicros;
    private final long delayMicros;
    private final int duplicates;
    private final int outOfOrder;
    private final byte[] sack;

    public AckPacket(NetHeader header, int flowId, long cumAck, long echoMicros, long delayMicros,
            int duplicates, int outOfOrder, byte[] sack) {
        super(requireHeader(header), flowId);
        if (cumAck < 0) {
            throw new IllegalArgumentException("cumulative ack must not be negative, was " + cumAck);
        }
        if (sack.length > LedbatCodec.MAX_SACK) {
            throw new IllegalArgumentException("sack bitmap of " + sack.length + " bytes exceeds " + LedbatCodec.MAX_SACK);
        }
        this.cumAck = cumAck;
        this.echoMicros = echoMicros;
        this.delayMicros = delayMicros;
        this.duplicates = duplicates;
        this.outOfOrder = outOfOrder;
        this.sack = sack;
    }

    public long cumAck() {
        return cumAck;
    }

    public long echoMicros() {
        return echoMicros;
    }

    public long delayMicros() {
        return delayMicros;
    }

    public int duplicates() {
        return duplicates;
    }

    public int outOfOrder() {
        return outOfOrder;
    }

    /** The SACK bitmap; callers must not modify it. */
    public byte[] sack() {
        return sack;
    }

    @Override
    public String toString() {
        // no header: see DataPacket.toString
        return "Ack{flow=" + flowId() + " cum=" + cumAck + " sack=" + sack.length + "B}";
    }
}
