package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.RttRow;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * An RTT probe (ping) or its echo (pong), sent over UDP. The pong echoes the ping's sequence number
 * and send time, so the prober measures the RTT on its own clock. Either may carry the sender's
 * load (its disk space and recent block I/O) for placement, and after it the sender's {@link RttRow}
 * (its RTT to each peer) for the cluster's RTT matrix. A probe without them (an older node, or no
 * meter) ends after the send time; one with a load but no row (an older node) ends after the load.
 * A row is only sent after a load.
 *
 * <pre>
 * +--------+---------+----------+----------------+----------------------------------------------------+
 * | header | kind u8 | seq i64  | sentNanos i64  | optional load: disk total i64 | disk free i64 |      |
 * |        |         |          |                |   disk reserve i64 | block I/O bytes/s i64         |
 * +--------+---------+----------+----------------+----------------------------------------------------+
 * | optional row: count u8 (0..32), then per peer: id length u8 (1..32) | id (ASCII) |                  |
 * |   RTT u32 in microseconds (0xFFFFFFFF: down)                                                      |
 * +---------------------------------------------------------------------------------------------------+
 * | version 2 on, after a row: extensions, each type u8 | length u8 | that many bytes (unknown: skipped) |
 * +---------------------------------------------------------------------------------------------------+
 * </pre>
 *
 * <p>Versions ({@link #VERSIONS}): the kind byte holds the version in its high nibble and pong in its
 * lowest bit. Version 1 (0.2.x and before) writes 0 (ping) or 1 (pong) and refuses any other byte; version
 * 2 writes 0x20 or 0x21 and reads both versions. A node writes its probes to a peer at the version their
 * TCP handshake agreed (the probe's family, codec {@value #CODEC_ID}, offers its range in the HELLO): a
 * peer no handshake told about yet gets version 1, which every peer reads; a pong goes at its ping's
 * version. Version 2 ends with extensions framed by their length, so a later addition is skipped by
 * nodes that do not know it and needs no new version.
 */
public final class RttProbe extends NetMsg {
    public static final Codec CODEC = new Codec();
    /** The RTT probe's codec id on a geoblocks network (its Kompics serializer id too). */
    public static final int CODEC_ID = 101;
    /** The versions this build reads and writes. */
    public static final geoblocks.net.VersionRange VERSIONS = new geoblocks.net.VersionRange(1, 2);
    private static final int LOAD_BYTES = 32;
    /** The wire's RTT of a peer that is down. */
    private static final long ROW_DOWN = 0xFFFF_FFFFL;
    private final boolean pong;
    private final long seq;
    private final long sentNanos;
    /** The sender's load, or null. */
    private final NodeLoad load;
    /** The sender's RTT row, or null (never without a load). */
    private final RttRow row;
    /** The version this probe is written at (see the class comment). */
    private final int version;

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos) {
        this(header, pong, seq, sentNanos, null);
    }

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load) {
        this(header, pong, seq, sentNanos, load, null);
    }

    /** A probe carrying the sender's {@code load} and RTT {@code row} (null: none; a row needs a load). */
    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load, RttRow row) {
        this(header, pong, seq, sentNanos, load, row, VERSIONS.min());
    }

    private RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load, RttRow row, int version) {
        super(header);
        if (!VERSIONS.contains(version)) {
            throw new IllegalArgumentException("RTT probe version " + version + " outside " + VERSIONS);
        }
        this.version = version;
        if (row != null && load == null) {
            throw new IllegalArgumentException("an RTT row rides after a load; give NodeLoad.UNKNOWN if none is measured");
        }
        this.pong = pong;
        this.seq = seq;
        this.sentNanos = sentNanos;
        this.load = load;
        this.row = row;
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

    /** The sender's RTT row, or null when the probe carries none. */
    public RttRow row() {
        return row;
    }

    public RttProbe echo() {
        return echo(null);
    }

    /** The pong of this ping, carrying the answering node's {@code load} (null: none). */
    public RttProbe echo(NodeLoad load) {
        return echo(load, null);
    }

    /** The pong of this ping, carrying the answering node's {@code load} and RTT {@code row} (null: none). */
    public RttProbe echo(NodeLoad load, RttRow row) {
        return new RttProbe(getHeader().reply(), true, seq, sentNanos, load, row, version);
    }

    /** This probe written at {@code version} (one of {@link #VERSIONS}). */
    public RttProbe at(int version) {
        return version == this.version ? this : new RttProbe(getHeader(), pong, seq, sentNanos, load, row, version);
    }

    @Override
    public int wireVersion() {
        return version;
    }

    /**
     * UDP payload this probe may fill: the size every path is assumed to take (QUIC's 1,200 bytes). RTT
     * probes do not search the path MTU, and the network never fragments (docs/network.md).
     */
    public static final int MAX_DATAGRAM = 1200;

    /**
     * This probe, or the same without its RTT row when the row would make its datagram (as GeoNetwork
     * sends it) larger than {@link #MAX_DATAGRAM}: only a cluster near the row's limits (32 peers with
     * 32-byte ids) gets there, and a probe without a row is one its peers already accept.
     */
    public RttProbe fitted() {
        if (row == null || wireSize() + geoblocks.net.Wire.DATAGRAM_OVERHEAD <= MAX_DATAGRAM) {
            return this;
        }
        return new RttProbe(getHeader(), pong, seq, sentNanos, load, null, version);
    }

    /** Probes and their answers leave before the bulk datagrams queued to the same peer. */
    @Override
    public boolean isControl() {
        return true;
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
        public geoblocks.net.VersionRange versions() {
            return VERSIONS;
        }

        @Override
        public int encodedSize(RttProbe m) {
            return Wire.headerSize(m.getHeader()) + 17 + (m.load == null ? 0 : LOAD_BYTES) + rowSize(m.row);
        }

        private static int rowSize(RttRow row) {
            if (row == null) {
                return 0;
            }
            int n = 1;
            for (String r : row.rttMicros().keySet()) {
                n += 1 + r.getBytes(StandardCharsets.US_ASCII).length + 4;
            }
            return n;
        }

        @Override
        public void encode(RttProbe m, ByteBuffer out) {
            Wire.writeHeader(m.getHeader(), out);
            out.put((byte) ((m.version == 1 ? 0 : m.version << 4) | (m.pong ? 1 : 0))).putLong(m.seq).putLong(m.sentNanos);
            if (m.load != null) {
                DiskSpace d = m.load.disk();
                out.putLong(d.totalBytes()).putLong(d.freeBytes()).putLong(d.reserveBytes()).putLong(m.load.ioBytesPerSecond());
            }
            if (m.row != null) {
                out.put((byte) m.row.rttMicros().size());
                m.row.rttMicros().forEach((r, us) -> {
                    byte[] id = r.getBytes(StandardCharsets.US_ASCII);
                    out.put((byte) id.length).put(id).putInt((int) (us == RttRow.DOWN ? ROW_DOWN : us));
                });
            }
        }

        @Override
        public RttProbe decode(ByteBuffer in) throws MalformedMessageException {
            NetHeader h = Wire.readHeader(in);
            int kind = Wire.readU8(in, "probe kind");
            int version = kind >>> 4 == 0 ? 1 : kind >>> 4;
            int pong = kind & 0x0f;
            if (pong > 1 || version == 1 && kind > 1 || !VERSIONS.contains(version)) {
                throw new MalformedMessageException("RTT probe kind byte 0x" + Integer.toHexString(kind) + " is not a ping"
                        + " or pong of a version this node reads (" + VERSIONS + ": 0x00/0x01, 0x20/0x21)");
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
            RttRow row = in.hasRemaining() ? readRow(in) : null;
            if (version >= 2) {
                while (in.hasRemaining()) { // extensions: none is known yet, each is skipped by its length
                    Wire.readU8(in, "RTT probe extension type");
                    int len = Wire.readU8(in, "RTT probe extension length");
                    Wire.need(in, len, "RTT probe extension");
                    in.position(in.position() + len);
                }
            }
            return new RttProbe(h, pong == 1, seq, sent, load, row, version);
        }

        private static RttRow readRow(ByteBuffer in) throws MalformedMessageException {
            int n = Wire.readU8(in, "RTT row count");
            if (n > RttRow.MAX_PEERS) {
                throw new MalformedMessageException("RTT row count " + n + " exceeds limit " + RttRow.MAX_PEERS);
            }
            TreeMap<String, Long> row = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                int len = Wire.readU8(in, "RTT row region id length");
                if (len < 1 || len > RttRow.MAX_ID_BYTES) {
                    throw new MalformedMessageException("RTT row region id length " + len + " outside 1.." + RttRow.MAX_ID_BYTES);
                }
                Wire.need(in, len + 4, "RTT row entry");
                byte[] id = new byte[len];
                in.get(id);
                String region = new String(id, StandardCharsets.US_ASCII);
                if (!RttRow.validId(region)) {
                    throw new MalformedMessageException("RTT row region id must match " + RttRow.ID_PATTERN + ", was '"
                            + region.replaceAll("[^ -~]", "?") + "'");
                }
                long us = Integer.toUnsignedLong(in.getInt());
                if (row.put(region, us == ROW_DOWN ? RttRow.DOWN : us) != null) {
                    throw new MalformedMessageException("RTT row lists region '" + region + "' twice");
                }
            }
            return new RttRow(row);
        }
    }
}
