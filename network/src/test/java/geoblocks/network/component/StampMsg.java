package geoblocks.network.component;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/**
 * A test family that asks for the network's times, as an RTT probe does: its send time rides on the
 * wire (-1 until the network stamps it), its read time stays on this side ({@code readNanos}, -1 until
 * stamped), and {@code handledNanos} is set by the receiving test component when its handler runs.
 */
final class StampMsg extends NetMsg {
    final long seq;
    final long sentNanos;
    final long readNanos;
    volatile long handledNanos = -1;

    StampMsg(NetHeader h, long seq, long sentNanos, long readNanos) {
        super(h);
        this.seq = seq;
        this.sentNanos = sentNanos;
        this.readNanos = readNanos;
    }

    @Override
    public NetMsg stampSent(long nanoTime) {
        return new StampMsg(getHeader(), seq, nanoTime, readNanos);
    }

    @Override
    public NetMsg stampReceived(long nanoTime) {
        return new StampMsg(getHeader(), seq, sentNanos, nanoTime);
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    static final WireCodec<StampMsg> CODEC = new WireCodec<>() {
        @Override
        public Class<StampMsg> messageClass() {
            return StampMsg.class;
        }

        @Override
        public int encodedSize(StampMsg m) {
            return Wire.headerSize(m.getHeader()) + 16;
        }

        @Override
        public void encode(StampMsg m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.putLong(m.seq).putLong(m.sentNanos);
        }

        @Override
        public StampMsg decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            return new StampMsg(h, Wire.readLong(in, "seq"), Wire.readLong(in, "sent"), -1);
        }
    };
}
