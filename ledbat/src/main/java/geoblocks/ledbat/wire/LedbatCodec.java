package geoblocks.ledbat.wire;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.VersionRange;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import se.sics.kompics.network.Transport;

/**
 * Codec of LEDBAT datagrams (serializer id 110). Big-endian; after the common {@link Wire} header:
 *
 * <pre>
 *  0       1       2       3       4       5       6
 * +-------+-------+-------+-------+-------+-------+
 * |version| type  | flags |         flow id       |   version = 2; type 1 = DATA, 2 = ACK,
 * +-------+-------+-------+-------+-------+-------+   3 = PROBE, 4 = PROBE-ACK (flow id = probe id)
 *                                                     DATA flags: bit 0 = FIN (of the stream), bit 1 = ACK-NOW,
 *                                                     bit 2 = PART (a part of a segment: two u16 follow the length)
 * DATA:
 * +-----------------------------------------------+
 * |      flow sequence number (u48, 6 bytes)      |
 * +-----------------------------------------------+---------------+
 * |              send timestamp, microseconds (i64)               |
 * +-------------------------------+---------------+---------------+
 * |        stream id (i32)        | length (u16)  | payload ...   |
 * +-------------------------------+---------------+---------------+   payload length <= 1400 bytes
 * | with PART: part offset (u16) | segment length (u16) |   where the payload lies in its segment's
 * ACK:
 * +---------------------------------------------------------------+
 * |          cumulative ack = next seq expected (u63)             |
 * +---------------------------------------------------------------+
 * |        echoed send timestamp of the triggering packet (i64)   |
 * +---------------------------------------------------------------+
 * |     one-way delay sample: receive time - timestamp, µs (i64)  |
 * +-------------------------------+-------------------------------+
 * |  receiver duplicates (u32)    |  receiver out-of-order (u32)  |
 * +-------+-----------------------+-------------------------------+
 * |sackLen| SACK bitmap, sackLen <= 128 bytes; bit i (LSB first)  |
 * +-------+  = packet cumAck + 1 + i received                     |
 * PROBE (path MTU, RFC 8899):          PROBE-ACK:
 * +-------------------------------+    +---------------+
 * | padding: zero bytes to the    |    | size (u16)    |  the encoded size of the PROBE received
 * | size probed (not checked)     |    +---------------+
 * +-------------------------------+
 * </pre>
 *
 * A DATA datagram with a full payload is 1 (Kompics serializer id) + 15 (IPv4 header) + 27 + 1400 =
 * 1,443 bytes, under the 1,500 bytes Kompics' UDP receive path handles; sealed by GeoNetwork
 * (+28) and with IPv4 and UDP headers (+28) it is a 1,499-byte IP packet, within a 1,500-byte MTU
 * (hence the 6-byte sequence number: 2^48 packets per flow). That is the largest; the payload of
 * each peer's packets follows the path MTU its search confirmed (LedbatComponent, PathMtuSearch), and
 * PROBEs are padded to the size being tried. Decoding checks every field
 * and throws {@link MalformedMessageException} naming the bad value.
 */
public final class LedbatCodec implements WireCodec<LedbatPacket> {
    public static final LedbatCodec INSTANCE = new LedbatCodec();
    public static final int SERIALIZER_ID = 110;
    public static final int VERSION = 2;
    public static final int MAX_PAYLOAD = 1400;
    /** DATA sequence numbers are 48 bits on the wire. */
    public static final long MAX_SEQ = (1L << 48) - 1;
    public static final int MAX_SACK = 128;
    /** Most padding of a PROBE: its datagram stays within the largest UDP payload. */
    public static final int MAX_PROBE_PADDING = 65_000;
    static final int TYPE_DATA = 1;
    static final int TYPE_ACK = 2;
    static final int TYPE_PROBE = 3;
    static final int TYPE_PROBE_ACK = 4;
    private static final byte[] ZEROS = new byte[1024];
    static final int FLAG_FIN = 1;
    static final int FLAG_ACK_NOW = 2;
    static final int FLAG_PART = 4;
    /** Bytes a PART adds to a DATA packet: part offset and segment length. */
    public static final int PART_FIELDS = 4;
    static final int COMMON = 1 + 1 + 1 + 4;
    static final int DATA_FIXED = 6 + 8 + 4 + 2;
    static final int ACK_FIXED = 8 + 8 + 8 + 4 + 4 + 1;

    /**
     * LEDBAT's versions, offered in the transport's handshake: two nodes whose ranges do not meet are
     * told so when they connect, instead of dropping each other's datagrams as malformed. Every
     * datagram carries its version byte; this build reads and writes {@value #VERSION} only.
     */
    @Override
    public VersionRange versions() {
        return VersionRange.only(VERSION);
    }

    @Override
    public Class<LedbatPacket> messageClass() {
        return LedbatPacket.class;
    }

    @Override
    public int encodedSize(LedbatPacket msg) {
        int common = Wire.headerSize(msg.getHeader()) + COMMON;
        if (msg instanceof DataPacket d) {
            return common + DATA_FIXED + (d.part() ? PART_FIELDS : 0) + d.length();
        }
        if (msg instanceof AckPacket a) {
            return common + ACK_FIXED + a.sack().length;
        }
        if (msg instanceof ProbePacket p) {
            return common + p.padding();
        }
        return common + 2;
    }

    /** Size of a DATA packet's encoding with {@code payload} bytes under {@code header}. */
    public static int dataSize(NetHeader header, int payload) {
        return Wire.headerSize(header) + COMMON + DATA_FIXED + payload;
    }

    /** Size of an empty PROBE's encoding under {@code header} (padding adds to it). */
    public static int probeFixedSize(NetHeader header) {
        return Wire.headerSize(header) + COMMON;
    }

    @Override
    public void encode(LedbatPacket msg, ByteBuffer out) {
        Wire.writeHeader(msg.getHeader(), out);
        out.put((byte) VERSION);
        if (msg instanceof DataPacket d) {
            out.put((byte) TYPE_DATA).put((byte) ((d.fin() ? FLAG_FIN : 0) | (d.ackNow() ? FLAG_ACK_NOW : 0)
                    | (d.part() ? FLAG_PART : 0))).putInt(d.flowId());
            out.putShort((short) (d.seq() >>> 32)).putInt((int) d.seq());
            out.putLong(d.timestampMicros()).putInt(d.streamId()).putShort((short) d.length());
            if (d.part()) {
                out.putShort((short) d.partOffset()).putShort((short) d.segmentLength());
            }
            out.put(d.array(), d.offset(), d.length());
        } else if (msg instanceof ProbePacket p) {
            out.put((byte) TYPE_PROBE).put((byte) 0).putInt(p.flowId());
            for (int left = p.padding(); left > 0;) {
                int n = Math.min(left, ZEROS.length);
                out.put(ZEROS, 0, n);   // zeros, not whatever the buffer held before
                left -= n;
            }
        } else if (msg instanceof ProbeAck a) {
            out.put((byte) TYPE_PROBE_ACK).put((byte) 0).putInt(a.flowId()).putShort((short) a.probeSize());
        } else {
            AckPacket a = (AckPacket) msg;
            out.put((byte) TYPE_ACK).put((byte) 0).putInt(a.flowId());
            out.putLong(a.cumAck()).putLong(a.echoMicros()).putLong(a.delayMicros());
            out.putInt(a.duplicates()).putInt(a.outOfOrder());
            out.put((byte) a.sack().length).put(a.sack());
        }
    }

    @Override
    public LedbatPacket decode(ByteBuffer in) throws MalformedMessageException {
        NetHeader h = Wire.readHeader(in);
        if (h.protocol() != Transport.UDP) {
            throw new MalformedMessageException("LEDBAT packet must be UDP, header says " + h.protocol());
        }
        int version = Wire.readU8(in, "version");
        if (version != VERSION) {
            throw new MalformedMessageException("unknown LEDBAT version " + version);
        }
        int type = Wire.readU8(in, "type");
        int flags = Wire.readU8(in, "flags");
        int flow = Wire.readInt(in, "flow id");
        switch (type) {
            case TYPE_DATA -> {
                if ((flags & ~(FLAG_FIN | FLAG_ACK_NOW | FLAG_PART)) != 0) {
                    throw new MalformedMessageException("unknown DATA flags 0x" + Integer.toHexString(flags));
                }
                Wire.need(in, 6, "sequence number");
                long seq = ((long) Short.toUnsignedInt(in.getShort()) << 32) | Integer.toUnsignedLong(in.getInt());
                long ts = Wire.readLong(in, "timestamp");
                int stream = Wire.readInt(in, "stream id");
                Wire.need(in, 2, "payload length");
                int len = Short.toUnsignedInt(in.getShort());
                if (len > MAX_PAYLOAD) {
                    throw new MalformedMessageException("payload length " + len + " exceeds " + MAX_PAYLOAD);
                }
                int partOffset = -1;
                int segmentLength = len;
                if ((flags & FLAG_PART) != 0) {
                    Wire.need(in, PART_FIELDS, "part fields");
                    partOffset = Short.toUnsignedInt(in.getShort());
                    segmentLength = Short.toUnsignedInt(in.getShort());
                    if (segmentLength > MAX_PAYLOAD || partOffset + len > segmentLength) {
                        throw new MalformedMessageException("part " + partOffset + "+" + len + " does not lie in a segment of "
                                + segmentLength + " bytes (max " + MAX_PAYLOAD + ")");
                    }
                }
                Wire.need(in, len, "payload");
                byte[] payload = new byte[len];
                in.get(payload);
                return new DataPacket(h, flow, seq, ts, stream, (flags & FLAG_FIN) != 0, (flags & FLAG_ACK_NOW) != 0,
                        payload, 0, len, partOffset, segmentLength);
            }
            case TYPE_ACK -> {
                if (flags != 0) {
                    throw new MalformedMessageException("unknown ACK flags 0x" + Integer.toHexString(flags));
                }
                long cum = seq(Wire.readLong(in, "cumulative ack"), "cumulative ack");
                long echo = Wire.readLong(in, "echoed timestamp");
                long delay = Wire.readLong(in, "delay sample");
                int dups = Wire.readInt(in, "duplicates");
                int ooo = Wire.readInt(in, "out-of-order");
                int sackLen = Wire.readU8(in, "sack length");
                if (sackLen > MAX_SACK) {
                    throw new MalformedMessageException("sack length " + sackLen + " exceeds " + MAX_SACK);
                }
                Wire.need(in, sackLen, "sack bitmap");
                byte[] sack = new byte[sackLen];
                in.get(sack);
                return new AckPacket(h, flow, cum, echo, delay, dups, ooo, sack);
            }
            case TYPE_PROBE -> {
                if (flags != 0) {
                    throw new MalformedMessageException("unknown PROBE flags 0x" + Integer.toHexString(flags));
                }
                int padding = in.remaining();
                if (padding > MAX_PROBE_PADDING) {
                    throw new MalformedMessageException("probe padding " + padding + " exceeds " + MAX_PROBE_PADDING);
                }
                in.position(in.limit());   // padding, skipped unread
                return new ProbePacket(h, flow, padding);
            }
            case TYPE_PROBE_ACK -> {
                if (flags != 0) {
                    throw new MalformedMessageException("unknown PROBE-ACK flags 0x" + Integer.toHexString(flags));
                }
                Wire.need(in, 2, "probe size");
                return new ProbeAck(h, flow, Short.toUnsignedInt(in.getShort()));
            }
            default -> throw new MalformedMessageException("unknown LEDBAT packet type " + type);
        }
    }

    private static long seq(long v, String what) throws MalformedMessageException {
        if (v < 0) {
            throw new MalformedMessageException(what + " must not be negative, was " + v);
        }
        return v;
    }
}
