package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;

/**
 * An RTT probe (ping) or its echo (pong), sent over UDP. The pong echoes the ping's sequence number
 * and send time, so the prober measures the RTT on its own clock. Either may carry the sender's
 * load (its disk space and recent block I/O) for placement; a probe without one (an older node, or
 * no meter) ends after the send time.
 *
 * <pre>
 * +--------+---------+----------+----------------+----------------------------------------------------+
 * | header | pong u8 | seq i64  | sentNanos i64  | optional load: disk total i64 | disk free i64 |      |
 * |        | (0/1)   |          |                |   disk reserve i64 | block I/O bytes/s i64         |
 * +--------+---------+----------+----------------+----------------------------------------------------+
 * </pre>
 */
public final class RttProbe extends NetMsg {
    public static final Codec CODEC = new Codec();
    private static final int LOAD_BYTES = 32;
    private final boolean pong;
    private final long seq;
    private final long sentNanos;
    /** The sender's load, or null. */
    private final NodeLoad load;

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos) {
        this(header, pong, seq, sentNanos, null);
    }

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load) {
        super(header);
        this.pong = pong;
        this.seq = seq;
        this.sentNanos = sentNanos;
        this.load = load;
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

    /** The sender's load, or null when the probe carries none. */
    public NodeLoad load() {
        return load;
    }

    public RttProbe echo() {
        return echo(null);
    }

    /** The pong of this ping, carrying the answering node's {@code load} (null: none). */
    public RttProbe echo(NodeLoad load) {
        return new RttProbe(getHeader().reply(), true, seq, sentNanos, load);
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
            return Wire.headerSize(m.getHeader()) + 17 + (m.load == null ? 0 : LOAD_BYTES);
        }

        @Override
        public void encode(RttProbe m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.put((byte) (m.pong ? 1 : 0)).putLong(m.seq).putLong(m.sentNanos);
            if (m.load != null) {
                DiskSpace d = m.load.disk();
                out.putLong(d.totalBytes()).putLong(d.freeBytes()).putLong(d.reserveBytes()).putLong(m.load.ioBytesPerSecond());
            }
        }

        @Override
        public RttProbe decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            int pong = Wire.readU8(in, "pong flag");
            if (pong > 1) {
                throw new MalformedMessageException("pong flag must be 0 or 1, was " + pong);
            }
            long seq = Wire.readLong(in, "seq");
            long sent = Wire.readLong(in, "sent time");
            NodeLoad load = null;
            if (in.hasRemaining()) {
                long total = Wire.readLong(in, "disk total");
                long free = Wire.readLong(in, "disk free");
                long reserve = Wire.readLong(in, "disk reserve");
                long io = Wire.readLong(in, "I/O rate");
                if (total < 0 || free < 0 || reserve < 0 || io < 0) {
                    throw new MalformedMessageException("load fields must not be negative, were disk total " + total
                            + ", free " + free + ", reserve " + reserve + ", I/O rate " + io);
                }
                load = new NodeLoad(new DiskSpace(total, free, reserve), io);
            }
            return new RttProbe(h, pong == 1, seq, sent, load);
        }
    }
}
