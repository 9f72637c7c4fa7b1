package geoblocks.node.net;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/** The network conformance suite's message: a sequence number and a payload. */
final class ConformanceMsg extends NetMsg {
    /** Serializer id with Kompics' NettyNetwork, codec id with GeoNetwork. */
    static final int ID = 201;
    final long seq;
    final byte[] payload;

    ConformanceMsg(NetHeader h, long seq, byte[] payload) {
        super(h);
        this.seq = seq;
        this.payload = payload;
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    /** Encoded bytes besides the payload, for a header of {@code h}. */
    static int overhead(NetHeader h) {
        return Wire.headerSize(h) + 8 + 4;
    }

    static final WireCodec<ConformanceMsg> CODEC = new WireCodec<>() {
        @Override
        public Class<ConformanceMsg> messageClass() {
            return ConformanceMsg.class;
        }

        @Override
        public int encodedSize(ConformanceMsg m) {
            return overhead(m.getHeader()) + m.payload.length;
        }

        @Override
        public void encode(ConformanceMsg m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.putLong(m.seq);
            Wire.writeBytes(m.payload, out);
        }

        @Override
        public ConformanceMsg decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            long seq = Wire.readLong(in, "seq");
            return new ConformanceMsg(h, seq, Wire.readBytes(in, 256 << 20, "payload"));
        }
    };
}
