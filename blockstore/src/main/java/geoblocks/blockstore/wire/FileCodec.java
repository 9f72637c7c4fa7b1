package geoblocks.blockstore.wire;

import geoblocks.blockstore.wire.BenchOp.*;
import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.blockstore.wire.PeerOp.*;
import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Codec of the file protocol. Layout: header (see {@link Wire}), the protocol version byte
 * (0x80 + the version, one of {@link #RANGE}; any other is refused with a message that names both), a one-byte op tag, the
 * request id, then the op's fields in record order: i8/i32/i64 big-endian, booleans as one byte,
 * strings as u16 length + UTF-8, byte arrays as i32 length + bytes, lists as u16 count + elements.
 *
 * <pre>
 * +----------------+---------+-----+---------+----------------------------+
 * | header         | version | tag | req i64 | op fields ...              |
 * +----------------+---------+-----+---------+----------------------------+
 * </pre>
 *
 * <p>Versions: this build reads and writes versions {@link #RANGE}; a message is written at the version
 * its {@link FileMsg} carries, which the sender picks per peer (the version the transport's handshake
 * agreed, see {@code geoblocks.net.PeerVersions}). Every version keeps the prefix {@code header |
 * version | tag | req}. What changed:
 * <ul>
 * <li>3: the first version with a version byte;
 * <li>4: {@link FailureCode#UNSUPPORTED}, and an unknown op tag decodes as {@link FileOp.Unknown}, which
 *     the node answers UNSUPPORTED (version 3 refuses the message, and its sender waits out its
 *     timeout); {@link FailureCode#INSUFFICIENT_STORAGE}. At version 3, UNSUPPORTED is written as
 *     INVALID and INSUFFICIENT_STORAGE as INTERNAL.
 * <li>5: a {@link ClientOp.StatusReply} ends with how long each LEDBAT flow has been stalled and what the
 *     members run ({@link ClientOp.Versions}); written
 *     to a peer at 3 or 4 without it. Failure codes {@link FailureCode#BLOCK_MISSING},
 *     {@link FailureCode#BLOCK_CORRUPT} (written as UNAVAILABLE at 3 and 4) and {@link FailureCode#IO_ERROR}
 *     (written as INTERNAL). A {@code cluster finalize} request is a {@link ClientOp.ClusterReq} of
 *     action "finalize", which a node of 4 answers INVALID (an action it does not know).
 * </ul>
 *
 * One table ({@link #TABLE}) gives each op its tag, class, reader and writer; encoding and
 * decoding both use it, and it is checked at class load to cover every op once. Each family of
 * ops keeps its rows beside it ({@link ClientCodec}, {@link PeerCodec}, {@link BenchCodec}); the
 * shared ops' rows are here, the field encodings in {@link Fields}.
 *
 * Sizes are computed by running the same encoder against a counting sink, so size and layout
 * cannot disagree. Decoding bounds every length: strings at {@value #MAX_STRING} bytes, data at
 * {@value #MAX_DATA} bytes, lists at {@value #MAX_LIST} entries.
 */
public final class FileCodec implements WireCodec<FileMsg> {
    public static final FileCodec INSTANCE = new FileCodec();
    /** The file protocol's newest version; a change of any op's layout or tags takes the next one. */
    public static final int VERSION = 5;
    /**
     * The versions this build reads and writes: its own, the previous release's (0.2.x speaks 3-4), and 3, which a
     * 0.2.x node writes to a peer until their handshake agrees a version (its lowest: every peer in range reads it).
     */
    public static final geoblocks.net.VersionRange RANGE = new geoblocks.net.VersionRange(3, VERSION);
    /** The file protocol's codec id on a geoblocks network (its frames' kind byte, its Kompics serializer id). */
    public static final int CODEC_ID = 100;
    /**
     * A version's byte on the wire is 0x80 + the version. Nodes from before the version byte read
     * it as an op tag, and they know no tag above 52, so they refuse a versioned message as an
     * unknown op instead of misreading it; their messages (a tag of 1..52 there) are refused here.
     */
    static final int VERSION_BYTE = 0x80 + VERSION;
    /**
     * Largest data array a message may carry (16 MiB, the largest {@code chunk-bytes}). Whether a
     * message fits its network's frame is up to {@code chunk-bytes}: GeoNetwork frames hold up to
     * {@code geoblocks.network.max-frame} (4 MiB by default), Kompics' NettyNetwork and the simulator
     * 65,536 bytes, hence 60,000-byte chunks there.
     */
    public static final int MAX_DATA = geoblocks.blockstore.core.NodeSettings.MAX_CHUNK;
    public static final int MAX_STRING = 2048;
    public static final int MAX_LIST = 1000;
    /**
     * Most bytes the entries of one {@link ClientOp.ListPart} take on the wire: with the header and
     * the rest of the message well below the smallest frame a node runs with (65,536 bytes with
     * Kompics' NettyNetwork and the simulator), whatever the names (up to 1,088 bytes) and their
     * metadata.
     */
    public static final int MAX_LIST_PART_BYTES = 48 * 1024;

    private FileCodec() {}

    @Override
    public Class<FileMsg> messageClass() {
        return FileMsg.class;
    }

    @Override
    public geoblocks.net.VersionRange versions() {
        return RANGE;
    }

    @Override
    public int encodedSize(FileMsg msg) {
        Fields.Counter c = new Fields.Counter();
        FileOp op = asWritten(msg);
        entry(op).write(op, c);
        return Wire.headerSize(msg.getHeader()) + 2 + 8 + c.n;
    }

    @Override
    public void encode(FileMsg msg, ByteBuffer out) {
        write(msg, out, new Fields.Writer(out));
    }

    /** The header, version, tag and {@code req}, then the op's fields through {@code fields} (which writes to {@code out}). */
    private static void write(FileMsg msg, ByteBuffer out, Fields.Writer fields) {
        FileOp op = asWritten(msg);
        OpRow<?> e = entry(op);
        Wire.writeHeader(msg.getHeader(), out);
        out.put((byte) (0x80 + msg.wireVersion()));
        out.put((byte) e.tag());
        out.putLong(op.req());
        e.write(op, fields);
    }

    /** A {@link GetData}'s block bytes: a transport may send them as they are. */
    @Override
    public Bytes tail(FileMsg msg) {
        return msg.op() instanceof GetData d ? d.data() : null;
    }

    @Override
    public void encodeHead(FileMsg msg, ByteBuffer out) {
        write(msg, out, new Fields.HeadWriter(out));
    }

    @Override
    public FileMsg decode(ByteBuffer in) throws MalformedMessageException {
        return decode(in, null);
    }

    /** With a keeper, a {@link GetData}'s bytes stay in the received buffer (the consumer releases them). */
    @Override
    public FileMsg decode(ByteBuffer in, Keeper keeper) throws MalformedMessageException {
        NetHeader h = Wire.readHeader(in);
        int version = Wire.readU8(in, "file protocol version");
        if (version < 0x80) {
            throw new MalformedMessageException("a file message from before protocol versions (byte " + version
                    + " where the version byte goes; this node speaks versions " + RANGE + "): upgrade the sender"
                    + " (see docs/upgrading.md)");
        }
        version -= 0x80;
        if (!RANGE.contains(version)) {
            throw new MalformedMessageException(geoblocks.net.VersionRange.mismatch("file protocol", RANGE,
                    geoblocks.net.VersionRange.only(version)));
        }
        int tag = Wire.readU8(in, "op tag");
        OpRow<?> e = tag < BY_TAG.length ? BY_TAG[tag] : null;
        Fields.In r = new Fields.In(in, keeper);
        if (e == null) {
            if (version < 4) {
                throw new MalformedMessageException("unknown file op tag " + tag);
            }
            long req = r.i64();
            in.position(in.limit()); // the fields of an op we do not know: the frame ends them
            return new FileMsg(h, new FileOp.Unknown(req, tag), version);
        }
        long req = r.i64();
        FileOp op = e.reader().read(req, r);
        if (op instanceof Failed f && version < f.code().since()) {
            throw new MalformedMessageException("failure code " + f.code() + " in a version " + version
                    + " message (it came with " + f.code().since() + ")");
        }
        return new FileMsg(h, op, version);
    }

    /**
     * {@code msg}'s op as its version writes it: below 5, a status reply without what the members run; a
     * failure whose code came with a later version carries the code it had before
     * ({@link FailureCode#atVersion}).
     */
    private static FileOp asWritten(FileMsg msg) {
        if (msg.wireVersion() < 5 && msg.op() instanceof StatusReply r && r.versions() != null) {
            return r.withoutVersions();
        }
        if (msg.op() instanceof Failed f && msg.wireVersion() < f.code().since()) {
            return new Failed(f.req(), f.code().atVersion(msg.wireVersion()), f.error());
        }
        return msg.op();
    }

    /** The table's entry for {@code op}'s class. */
    private static OpRow<?> entry(FileOp op) {
        OpRow<?> e = BY_CLASS.get(op.getClass());
        if (e == null) {
            throw new IllegalArgumentException("no tag for " + op.getClass());
        }
        return e;
    }

    /** The rows of the shared ops ({@link FileOp.Shared}). */
    static final List<OpRow<?>> SHARED = List.of(
            OpRow.of(13, ManifestPart.class, (req, r) -> new ManifestPart(req, r.bool(), r.i32(), r.i32(), r.bytes()),
                    (p, o) -> { o.bool(p.publish()); o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data()); }),
            OpRow.of(14, Done.class, (req, r) -> new Done(req, r.str()), (p, o) -> o.str(p.info())),
            OpRow.of(15, Failed.class, (req, r) -> new Failed(req, r.failureCode(), r.str()),
                    (p, o) -> { o.u8(p.code().wire()); o.str(p.error()); }));

    /**
     * The file protocol, version {@value #VERSION}: every op's tag, class, reader and writer, used by
     * both directions, joined from the families' rows. Tags are the protocol: never reuse or
     * renumber one (a retired op keeps its tag, see {@link PeerOp.DeleteFile}); a new op takes the
     * next free tag (the largest is {@value #LAST_TAG}). FileCodecTest pins every op's bytes.
     */
    private static final List<OpRow<?>> TABLE = join(ClientCodec.ROWS, SHARED, PeerCodec.ROWS, BenchCodec.ROWS);
    /** The largest tag in use. */
    static final int LAST_TAG = 57;

    private static final Map<Class<?>, OpRow<?>> BY_CLASS = new HashMap<>();
    private static final OpRow<?>[] BY_TAG;

    static {
        int max = 0;
        for (OpRow<?> e : TABLE) {
            if (e.tag() < 1 || e.tag() > 255) {
                throw new ExceptionInInitializerError("file op tag " + e.tag() + " outside 1..255");
            }
            if (BY_CLASS.put(e.type(), e) != null) {
                throw new ExceptionInInitializerError(e.type().getSimpleName() + " appears twice in the file protocol");
            }
            max = Math.max(max, e.tag());
        }
        if (max != LAST_TAG) {
            throw new ExceptionInInitializerError("the largest file op tag is " + max + ", not LAST_TAG " + LAST_TAG);
        }
        BY_TAG = new OpRow<?>[max + 1];
        for (OpRow<?> e : TABLE) {
            if (BY_TAG[e.tag()] != null) {
                throw new ExceptionInInitializerError("file op tag " + e.tag() + " is used twice");
            }
            BY_TAG[e.tag()] = e;
        }
        for (Class<? extends FileOp> c : FileOps.records()) {
            if (!BY_CLASS.containsKey(c) && c != FileOp.Unknown.class) { // Unknown: only the decoder makes one
                throw new ExceptionInInitializerError(c.getSimpleName() + " has no row in the file protocol");
            }
        }
    }

    @SafeVarargs
    private static List<OpRow<?>> join(List<OpRow<?>>... families) {
        List<OpRow<?>> all = new ArrayList<>();
        for (List<OpRow<?>> f : families) {
            all.addAll(f);
        }
        return List.copyOf(all);
    }

    /** The tag of {@code type} (for tests and diagnostics). */
    static int tagOf(Class<? extends FileOp> type) {
        OpRow<?> e = BY_CLASS.get(type);
        if (e == null) {
            throw new IllegalArgumentException("no tag for " + type);
        }
        return e.tag();
    }

    /** Bytes {@code e} takes in a {@link ClientOp.ListPart} (see {@link #MAX_LIST_PART_BYTES}). */
    public static int listEntrySize(ClientOp.ListEntry e) {
        return ClientCodec.listEntrySize(e);
    }
}
