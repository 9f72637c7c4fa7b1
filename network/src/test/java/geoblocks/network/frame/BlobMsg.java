package geoblocks.network.frame;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/** A test message family for codec tests: a header and an opaque payload. */
final class BlobMsg extends NetMsg {
    final byte[] payload;

    BlobMsg(NetHeader h, byte[] payload) {
        super(h);
        this.payload = payload;
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    /** Payload length that makes the encoded message exactly {@code encodedSize} bytes. */
    static int payloadFor(NetHeader h, int encodedSize) {
        return encodedSize - Wire.headerSize(h) - 4;
    }

    static final WireCodec<BlobMsg> CODEC = new WireCodec<>() {
        @Override
        public Class<BlobMsg> messageClass() {
            return BlobMsg.class;
        }

        @Override
        public int encodedSize(BlobMsg m) {
            return Wire.headerSize(m.getHeader()) + 4 + m.payload.length;
        }

        @Override
        public void encode(BlobMsg m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            Wire.writeBytes(m.payload, out);
        }

        @Override
        public BlobMsg decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            return new BlobMsg(h, Wire.readBytes(in, 256 << 20, "payload"));
        }
    };
}
