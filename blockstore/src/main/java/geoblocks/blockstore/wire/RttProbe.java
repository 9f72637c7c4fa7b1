package geoblocks.blockstore.wire;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/**
 * An RTT probe (ping) or its echo (pong), sent over UDP. The pong echoes the ping's sequence number
 * and send time, so the prober measures the RTT on its own clock. Layout: header | pong u8 | seq i64
 * | sentNanos i64.
 */
public final class RttProbe extends NetMsg {
    public static final Codec CODEC = new Codec();
    private final boolean pong;
    private final long seq;
    private final long sentNanos;

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos) {
        super(header);
        this.pong = pong;
        this.seq = seq;
        this.sentNanos = sentNanos;
    }

    public boolean isPong() {
        return pong;
    }

    public long seq() {
        return seq;
    }

    public long sentNanos() {
        return sentNanos;
    }

    public RttProbe echo() {
        return new RttProbe(getHeader().reply(), true, seq, sentNanos);
    }

    @Override
    public int wireSize() {
        return CODEC.encodedSize(this);
    }

    /** Codec of {@link RttProbe}. */
    public static final class Codec implements WireCodec<RttProbe> {
        @Override
        public Class<RttProbe> messageClass() {
            return RttProbe.class;
        }

        @Override
        public int encodedSize(RttProbe m) {
            return Wire.headerSize(m.getHeader()) + 17;
        }

        @Override
        public void encode(RttProbe m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.put((byte) (m.pong ? 1 : 0)).putLong(m.seq).putLong(m.sentNanos);
        }

        @Override
        public RttProbe decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            int pong = Wire.readU8(in, "pong flag");
            if (pong > 1) {
                throw new MalformedMessageException("pong flag must be 0 or 1, was " + pong);
            }
            return new RttProbe(h, pong == 1, Wire.readLong(in, "seq"), Wire.readLong(in, "sent time"));
        }
    }
}
