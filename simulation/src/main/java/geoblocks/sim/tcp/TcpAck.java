package geoblocks.sim.tcp;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;

/**
 * A simulated TCP acknowledgement: the cumulative ACK number, the timestamp echoed from the
 * segment that caused it and up to three SACK blocks. Wire size 40 bytes plus the SACK option. Immutable.
 */
public final class TcpAck extends NetMsg {
    public final long ackNo;
    public final long echoNs;
    private final long[] sack;

    private final int headerBytes;

    public TcpAck(NetHeader header, long ackNo, long echoNs, long[] sack) {
        this(header, ackNo, echoNs, sack, TcpSegment.HEADER_BYTES);
    }

    public TcpAck(NetHeader header, long ackNo, long echoNs, long[] sack, int headerBytes) {
        super(header);
        this.ackNo = ackNo;
        this.echoNs = echoNs;
        this.sack = sack.clone();
        this.headerBytes = headerBytes;
    }

    /** SACK blocks as {start, end} pairs (a copy). */
    public long[] sack() {
        return sack.clone();
    }

    long[] sackUnsafe() {
        return sack;
    }

    @Override
    public int wireSize() {
        return headerBytes + (sack.length == 0 ? 0 : 2 + 4 * sack.length);
    }

    @Override
    public String toString() {
        return "TcpAck{" + ackNo + "}";
    }
}
