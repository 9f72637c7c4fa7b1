package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import java.util.Objects;
import se.sics.kompics.network.Transport;

/**
 * Base of the LEDBAT datagrams ({@link DataPacket}, {@link AckPacket}, and the path MTU search's
 * {@link ProbePacket} and {@link ProbeAck}, whose flow id field is a probe id): a UDP header plus the
 * sender-chosen flow id that, with the sender's address, names the flow (the one congestion-controlled
 * connection that carries every stream from that sender to this peer). Immutable; every
 * transmission is a new instance. Layouts are drawn in {@link LedbatCodec}.
 */
public abstract sealed class LedbatPacket extends NetMsg permits DataPacket, AckPacket, ProbePacket, ProbeAck {
    private final int flowId;

    protected LedbatPacket(NetHeader header, int flowId) {
        super(header);
        if (header.protocol() != Transport.UDP) {
            throw new IllegalArgumentException("LEDBAT packets travel over UDP, not " + header.protocol());
        }
        this.flowId = flowId;
    }

    public final int flowId() {
        return flowId;
    }

    @Override
    public final int wireSize() {
        return LedbatCodec.INSTANCE.encodedSize(this);
    }

    static NetHeader requireHeader(NetHeader h) {
        return Objects.requireNonNull(h, "header");
    }
}
