package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.RoundTrip;
import geoblocks.blockstore.core.RttRow;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.VersionRange;
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
 * | extension 1, hold (pongs): type 0x01 | length 0x08 | hold i64 in nanoseconds (>= 0)                 |
 * +---------------------------------------------------------------------------------------------------+
 * </pre>
 *
 * <p>Times (issue 42, an RTT that means something on a LAN): the network stamps a ping's send time as it
 * seals the datagram ({@link #stampSent}) and every probe's arrival as the socket read returns
 * ({@link #stampReceived}), so neither node's queues (Kompics, the network's lanes, a session being set up)
 * count as round trip. A version 2 pong with a row also carries its {@link #HOLD} extension: how long the
 * answering node held the ping, from the ping's arrival to the pong's sealing, both on its own clock; the
 * prober takes it off (NTP's offset-free delay: (t4 - t1) - (t3 - t2)). A pong of version 1, or without a
 * row (extensions only ride after one), carries no hold, and its round trip includes the answering node's.
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
    public static final VersionRange VERSIONS = new VersionRange(1, 2);
    private static final int LOAD_BYTES = 32;
    /** Extension type of a pong's hold (see the class comment). */
    public static final int HOLD = 1;
    /** {@link #receivedNanos} of a probe the network did not stamp (built here, or delivered in-process). */
    public static final long NOT_STAMPED = Long.MIN_VALUE;
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
    /** When the network read this probe (System.nanoTime), or NOT_STAMPED; never on the wire. */
    private final long receivedNanos;
    /** A pong to send: when its ping was read (this node's clock), or NOT_STAMPED; never on the wire. */
    private final long heldSinceNanos;
    /** A pong's hold extension in nanoseconds, or -1 when it carries none. */
    private final long holdNanos;
    /** Whether the network's send stamp counts (false: an emulated WAN delays it before the network; never on the wire). */
    private final boolean stampable;

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos) {
        this(header, pong, seq, sentNanos, null);
    }

    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load) {
        this(header, pong, seq, sentNanos, load, null);
    }

    /** A probe carrying the sender's {@code load} and RTT {@code row} (null: none; a row needs a load). */
    public RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load, RttRow row) {
        this(header, pong, seq, sentNanos, load, row, VERSIONS.min(), NOT_STAMPED, NOT_STAMPED, -1, true);
    }

    private RttProbe(NetHeader header, boolean pong, long seq, long sentNanos, NodeLoad load, RttRow row, int version,
            long receivedNanos, long heldSinceNanos, long holdNanos, boolean stampable) {
        super(header);
        this.stampable = stampable;
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
        if (holdNanos >= 0 && (version < 2 || row == null)) {
            throw new IllegalStateException("a hold rides in a version 2 extension, after a row");
        }
        this.receivedNanos = receivedNanos;
        this.heldSinceNanos = heldSinceNanos;
        this.holdNanos = holdNanos;
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

    /** When the network read this probe off its socket (System.nanoTime), or {@link #NOT_STAMPED}. */
    public long receivedNanos() {
        return receivedNanos;
    }

    /** A pong's {@link #HOLD}: how long the answering node held the ping, in nanoseconds; -1 when it says nothing. */
    public long holdNanos() {
        return holdNanos;
    }

    /**
     * This pong's round trip in nanoseconds ({@link RoundTrip#nanos}): from its ping's send time to its arrival
     * (the network's read stamp, else {@code handledNanos}, when the monitor's handler ran), less the answering
     * node's hold if it told it, and 0 where the stamps' errors take it below zero; {@link RoundTrip#NONE} for an
     * echo that measures nothing. Both ends are this node's clock; the hold is the other's, a duration.
     */
    public long roundTripNanos(long handledNanos) {
        long arrived = receivedNanos != NOT_STAMPED ? receivedNanos : handledNanos;
        return RoundTrip.nanos(sentNanos, arrived, holdNanos);
    }

    /**
     * This probe with the network's send stamp ignored, and no hold: what an RTT monitor sends through an emulated
     * WAN, which delays it before the network (the stamp would leave the emulated delay out).
     */
    public RttProbe unstamped() {
        return new RttProbe(getHeader(), pong, seq, sentNanos, load, row, version, receivedNanos, NOT_STAMPED, -1, false);
    }

    /** A ping as sealed at {@code nanoTime}: that is its send time. A pong with a hold: held until then. */
    @Override
    public RttProbe stampSent(long nanoTime) {
        if (!stampable) {
            return this;
        }
        if (!pong) {
            return new RttProbe(getHeader(), false, seq, nanoTime, load, row, version, receivedNanos, heldSinceNanos,
                    holdNanos, stampable);
        }
        if (holdNanos < 0 || heldSinceNanos == NOT_STAMPED) {
            return this;
        }
        return new RttProbe(getHeader(), true, seq, sentNanos, load, row, version, receivedNanos, heldSinceNanos,
                Math.max(0, nanoTime - heldSinceNanos), stampable);
    }

    @Override
    public RttProbe stampReceived(long nanoTime) {
        return new RttProbe(getHeader(), pong, seq, sentNanos, load, row, version, nanoTime, heldSinceNanos, holdNanos,
                stampable);
    }

    public RttProbe echo() {
        return echo(null);
    }

    /** The pong of this ping, carrying the answering node's {@code load} (null: none). */
    public RttProbe echo(NodeLoad load) {
        return echo(load, null);
    }

    /**
     * The pong of this ping, carrying the answering node's {@code load} and RTT {@code row} (null: none), at the
     * ping's version; with a {@link #HOLD} (filled in when the network seals it) when the network stamped the
     * ping's arrival and the pong can carry extensions (version 2, a row).
     */
    public RttProbe echo(NodeLoad load, RttRow row) {
        boolean hold = version >= 2 && row != null && receivedNanos != NOT_STAMPED;
        return new RttProbe(getHeader().reply(), true, seq, sentNanos, load, row, version, NOT_STAMPED,
                receivedNanos, hold ? 0 : -1, stampable);
    }

    /** This probe written at {@code version} (one of {@link #VERSIONS}); at version 1 without a hold. */
    public RttProbe at(int version) {
        return version == this.version ? this : new RttProbe(getHeader(), pong, seq, sentNanos, load, row, version,
                receivedNanos, heldSinceNanos, version >= 2 ? holdNanos : -1, stampable);
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
        if (row == null || wireSize() + Wire.DATAGRAM_OVERHEAD <= MAX_DATAGRAM) {
            return this;
        }
        return new RttProbe(getHeader(), pong, seq, sentNanos, load, null, version, receivedNanos, heldSinceNanos, -1,
                stampable);
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
        public VersionRange versions() {
            return VERSIONS;
        }

        @Override
        public int encodedSize(RttProbe m) {
            return Wire.headerSize(m.getHeader()) + 17 + (m.load == null ? 0 : LOAD_BYTES) + rowSize(m.row)
                    + (m.holdNanos >= 0 ? 2 + 8 : 0);
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
            if (m.holdNanos >= 0) { // only at version 2, after a row (the constructor's invariant)
                out.put((byte) HOLD).put((byte) 8).putLong(m.holdNanos);
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
            long hold = -1;
            if (version >= 2) {
                while (in.hasRemaining()) { // extensions: the hold is read, unknown ones are skipped by their length
                    int type = Wire.readU8(in, "RTT probe extension type");
                    int len = Wire.readU8(in, "RTT probe extension length");
                    Wire.need(in, len, "RTT probe extension");
                    if (type != HOLD) {
                        in.position(in.position() + len);
                        continue;
                    }
                    if (len != 8 || hold >= 0) {
                        throw new MalformedMessageException(hold >= 0 ? "RTT probe hold extension given twice"
                                : "RTT probe hold extension of " + len + " bytes, must be 8");
                    }
                    hold = in.getLong();
                    if (hold < 0) {
                        throw new MalformedMessageException("RTT probe hold must not be negative, was " + hold + " ns");
                    }
                }
            }
            return new RttProbe(h, pong == 1, seq, sent, load, row, version, NOT_STAMPED, NOT_STAMPED, hold, true);
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
