package geoblocks.sim.tcp;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;

/**
 * A simulated TCP data segment: bytes [seq, seq + len) of a flow and the sender's timestamp (ns)
 * for the receiver to echo. Only ever exists inside the simulator (no codec); its wire size is
 * 40 bytes of IP and TCP header plus the payload. Immutable.
 */
public final class TcpSegment extends NetMsg {
    public static final int HEADER_BYTES = 40;

    public final long seq;
    public final int len;
    public final long tsNs;

    public TcpSegment(NetHeader header, long seq, int len, long tsNs) {
        super(header);
        this.seq = seq;
        this.len = len;
        this.tsNs = tsNs;
    }

    @Override
    public int wireSize() {
        return HEADER_BYTES + len;
    }

    @Override
    public String toString() {
        return "TcpSegment{" + seq + "+" + len + "}";
    }
}
