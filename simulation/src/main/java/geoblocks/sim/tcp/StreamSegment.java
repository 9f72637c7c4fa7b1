package geoblocks.sim.tcp;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import java.util.List;

/**
 * A data segment of a {@link TcpTransport} connection: bytes [seq, seq + len) of the byte stream
 * the node's TCP messages form, the sender's timestamp (ns) for the receiver to echo, and the
 * messages whose last byte lies in this range (with the stream offset just past each), which the
 * receiver hands up once every byte before that offset has arrived. Only ever exists inside the
 * simulator (no codec); its wire size is 40 bytes of IP and TCP header plus the payload. Immutable.
 */
public final class StreamSegment extends NetMsg {
    public final long seq;
    public final int len;
    public final long tsNs;
    /** Stream offsets just past each message in {@link #messages}, ascending. */
    final long[] ends;
    final List<NetMsg> messages;

    StreamSegment(NetHeader header, long seq, int len, long tsNs, long[] ends, List<NetMsg> messages) {
        super(header);
        if (ends.length != messages.size()) {
            throw new IllegalArgumentException(ends.length + " offsets for " + messages.size() + " messages");
        }
        this.seq = seq;
        this.len = len;
        this.tsNs = tsNs;
        this.ends = ends;
        this.messages = List.copyOf(messages);
    }

    @Override
    public int wireSize() {
        return TcpSegment.HEADER_BYTES + len;
    }

    @Override
    public String toString() {
        return "StreamSegment{" + seq + "+" + len + ", " + messages.size() + " messages}";
    }
}
