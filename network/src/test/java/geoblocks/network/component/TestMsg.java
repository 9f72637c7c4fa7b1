package geoblocks.network.component;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/** A test message family: a sequence number and a payload. */
final class TestMsg extends NetMsg {
    final long seq;
    final byte[] payload;

    TestMsg(NetHeader h, long seq, byte[] payload) {
        super(h);
        this.seq = seq;
        this.payload = payload;
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    static final WireCodec<TestMsg> CODEC = new WireCodec<>() {
        @Override
        public Class<TestMsg> messageClass() {
            return TestMsg.class;
        }

        @Override
        public int encodedSize(TestMsg m) {
            return Wire.headerSize(m.getHeader()) + 8 + 4 + m.payload.length;
        }

        @Override
        public void encode(TestMsg m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.putLong(m.seq);
            Wire.writeBytes(m.payload, out);
        }

        @Override
        public TestMsg decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            long seq = Wire.readLong(in, "seq");
            return new TestMsg(h, seq, Wire.readBytes(in, 64 << 20, "payload"));
        }
    };
}
