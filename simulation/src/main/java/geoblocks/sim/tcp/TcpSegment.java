package geoblocks.sim.tcp;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;

/**
 * A simulated TCP data segment: bytes [seq, seq + len) of a flow and the sender's timestamp (ns)
 * for the receiver to echo. Only ever exists inside the simulator (no codec); its wire size is
 * its IP and TCP header (40 bytes unless given) plus the payload. Immutable.
 */
public final class TcpSegment extends NetMsg {
    public static final int HEADER_BYTES = 40;

    public final long seq;
    public final int len;
    public final long tsNs;

    public final int headerBytes;

    public TcpSegment(NetHeader header, long seq, int len, long tsNs) {
        this(header, seq, len, tsNs, HEADER_BYTES);
    }

    /** @param headerBytes IP and TCP header bytes (52 with the timestamp option Linux uses) */
    public TcpSegment(NetHeader header, long seq, int len, long tsNs, int headerBytes) {
        super(header);
        this.seq = seq;
        this.len = len;
        this.tsNs = tsNs;
        this.headerBytes = headerBytes;
    }

    @Override
    public int wireSize() {
        return headerBytes + len;
    }

    @Override
    public String toString() {
        return "TcpSegment{" + seq + "+" + len + "}";
    }
}
