package geoblocks.network;

import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/** A test message family whose data ends the message as a tail ({@link WireCodec#tail}), as a block in a GetData does. */
public final class TailMsg extends NetMsg {
    public final long seq;
    public final Bytes data;

    public TailMsg(NetHeader h, long seq, Bytes data) {
        super(h);
        this.seq = seq;
        this.data = data;
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    public static final WireCodec<TailMsg> CODEC = new WireCodec<>() {
        @Override
        public Class<TailMsg> messageClass() {
            return TailMsg.class;
        }

        @Override
        public int encodedSize(TailMsg m) {
            return Wire.headerSize(m.getHeader()) + 8 + 4 + m.data.length();
        }

        @Override
        public void encode(TailMsg m, ByteBuffer out) {
            encodeHead(m, out);
            out.put(m.data.nio());
        }

        @Override
        public Bytes tail(TailMsg m) {
            return m.data;
        }

        @Override
        public void encodeHead(TailMsg m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.putLong(m.seq);
            out.putInt(m.data.length());
        }

        @Override
        public TailMsg decode(ByteBuffer in) throws MalformedMessageException {
            return decode(in, null);
        }

        @Override
        public TailMsg decode(ByteBuffer in, Keeper keeper) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            long seq = Wire.readLong(in, "seq");
            int n = Wire.readInt(in, "data length");
            if (n < 0) {
                throw new MalformedMessageException("data length " + n);
            }
            Wire.need(in, n, "data");
            Bytes data;
            if (keeper == null) {
                byte[] copy = new byte[n];
                in.get(copy);
                data = Bytes.wrap(copy);
            } else {
                data = keeper.keep(in.position(), n);
                in.position(in.position() + n);
            }
            return new TailMsg(h, seq, data);
        }
    };
}
