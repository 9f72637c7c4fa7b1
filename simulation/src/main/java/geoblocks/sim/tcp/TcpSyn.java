package geoblocks.sim.tcp;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;

/**
 * The connection set-up of a simulated TCP flow: a SYN ({@code ack = false}) and the receiver's
 * SYN-ACK ({@code ack = true}) echoing the SYN's timestamp. 60 bytes on the wire (IP, TCP and the
 * MSS, SACK-permitted, timestamp and window-scale options). Immutable.
 */
public final class TcpSyn extends NetMsg {
    public static final int WIRE_BYTES = 60;

    public final boolean ack;
    public final long tsNs;

    public TcpSyn(NetHeader header, boolean ack, long tsNs) {
        super(header);
        this.ack = ack;
        this.tsNs = tsNs;
    }

    @Override
    public int wireSize() {
        return WIRE_BYTES;
    }

    @Override
    public String toString() {
        return ack ? "TcpSynAck" : "TcpSyn";
    }
}
