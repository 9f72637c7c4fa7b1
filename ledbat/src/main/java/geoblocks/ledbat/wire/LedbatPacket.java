package geoblocks.ledbat.wire;

import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import java.util.Objects;
import se.sics.kompics.network.Transport;

/**
 * Base of the LEDBAT datagrams ({@link DataPacket}, {@link AckPacket}): a UDP header plus the
 * sender-chosen stream id that, with the sender's address, names the stream. Immutable; every
 * transmission is a new instance. Layouts are drawn in {@link LedbatCodec}.
 */
public abstract sealed class LedbatPacket extends NetMsg permits DataPacket, AckPacket {
    private final int streamId;

    protected LedbatPacket(NetHeader header, int streamId) {
        super(header);
        if (header.protocol() != Transport.UDP) {
            throw new IllegalArgumentException("LEDBAT packets travel over UDP, not " + header.protocol());
        }
        this.streamId = streamId;
    }

    public final int streamId() {
        return streamId;
    }

    @Override
    public final int wireSize() {
        return LedbatCodec.INSTANCE.encodedSize(this);
    }

    static NetHeader requireHeader(NetHeader h) {
        return Objects.requireNonNull(h, "header");
    }
}
