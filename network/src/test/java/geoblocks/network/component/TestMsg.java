package geoblocks.network.component;

import geoblocks.net.AccessKey;
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

    /** The access key of the connection it arrived on (test family: keyed clients may send it), or null. */
    final AccessKey key;

    TestMsg(NetHeader h, long seq, byte[] payload) {
        this(h, seq, payload, null);
    }

    private TestMsg(NetHeader h, long seq, byte[] payload, AccessKey key) {
        super(h);
        this.seq = seq;
        this.payload = payload;
        this.key = key;
    }

    @Override
    public boolean servesKeys() {
        return true;
    }

    @Override
    public NetMsg fromKey(AccessKey k) {
        return new TestMsg(getHeader(), seq, payload, k);
    }

    @Override
    public AccessKey key() {
        return key;
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
