package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.FileOp.*;
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
 * (0x80 + {@value #VERSION}; any other is refused with a message that names both), a one-byte op tag, the
 * request id, then the op's fields in record order: i8/i32/i64 big-endian, booleans as one byte,
 * strings as u16 length + UTF-8, byte arrays as i32 length + bytes, lists as u16 count + elements.
 *
 * <pre>
 * +----------------+---------+-----+---------+----------------------------+
 * | header         | version | tag | req i64 | op fields ...              |
 * +----------------+---------+-----+---------+----------------------------+
 * </pre>
 *
 * One table ({@link #TABLE}) gives each op its tag, class, reader and writer; encoding and
 * decoding both use it, and it is checked at class load to cover every op once.
 *
 * Sizes are computed by running the same encoder against a counting sink, so size and layout
 * cannot disagree. Decoding bounds every length: strings at {@value #MAX_STRING} bytes, data at
 * {@value #MAX_DATA} bytes, lists at {@value #MAX_LIST} entries.
 */
public final class FileCodec implements WireCodec<FileMsg> {
    public static final FileCodec INSTANCE = new FileCodec();
    /** The file protocol's version byte; a change of any op's layout or tags takes the next one. */
    public static final int VERSION = 2;
    /**
     * The version as its byte on the wire: 0x80 + VERSION. Nodes from before the version byte read
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
     * Most bytes the entries of one {@link ListPart} take on the wire: with the header and the rest
     * of the message well below Netty's 65,536-byte frame, whatever the names (up to 1,088 bytes)
     * and their metadata.
     */
    public static final int MAX_LIST_PART_BYTES = 48 * 1024;

    private FileCodec() {}

    @Override
    public Class<FileMsg> messageClass() {
        return FileMsg.class;
    }

    @Override
    public int encodedSize(FileMsg msg) {
        Counter c = new Counter();
        entry(msg.op()).write(msg.op(), c);
        return Wire.headerSize(msg.getHeader()) + 2 + 8 + c.n;
    }

    @Override
    public void encode(FileMsg msg, ByteBuffer out) {
        FileOp op = msg.op();
        Op<?> e = entry(op);
        Wire.writeHeader(msg.getHeader(), out);
        out.put((byte) VERSION_BYTE);
        out.put((byte) e.tag());
        out.putLong(op.req());
        e.write(op, new Writer(out));
    }

    @Override
    public FileMsg decode(ByteBuffer in) throws MalformedMessageException {
        NetHeader h = Wire.readHeader(in);
        int version = Wire.readU8(in, "file protocol version");
        if (version != VERSION_BYTE) {
            if (version < 0x80) {
                throw new MalformedMessageException("a file message from before protocol versions (byte " + version
                        + " where the version byte goes; this node speaks version " + VERSION + "): run the same"
                        + " geoblocks build on every node and client");
            }
            version -= 0x80;
            throw new MalformedMessageException("file protocol version " + version + " is not spoken here (this node"
                    + " speaks version " + VERSION + "): run the same geoblocks build on every node and client");
        }
        int tag = Wire.readU8(in, "op tag");
        Op<?> e = tag < BY_TAG.length ? BY_TAG[tag] : null;
        if (e == null) {
            throw new MalformedMessageException("unknown file op tag " + tag);
        }
        Reader r = new Reader(in);
        long req = r.i64();
        return new FileMsg(h, e.reader().read(req, r));
    }

    /** The table's entry for {@code op}'s class. */
    private static Op<?> entry(FileOp op) {
        Op<?> e = BY_CLASS.get(op.getClass());
        if (e == null) {
            throw new IllegalArgumentException("no tag for " + op.getClass());
        }
        return e;
    }

    /** Reads an op's fields after its {@code req}. */
    @FunctionalInterface
    private interface Read<T extends FileOp> {
        T read(long req, Reader r) throws MalformedMessageException;
    }

    /** Writes an op's fields after its {@code req}; the same code counts sizes and writes bytes. */
    @FunctionalInterface
    private interface Write<T extends FileOp> {
        void write(T op, Out o);
    }

    /** One row of the protocol: an op's tag, its class, and how its fields are read and written. */
    private record Op<T extends FileOp>(int tag, Class<T> type, Read<T> reader, Write<T> writer) {
        void write(FileOp op, Out o) {
            writer.write(type.cast(op), o);
        }
    }

    private static <T extends FileOp> Op<T> op(int tag, Class<T> type, Read<T> reader, Write<T> writer) {
        return new Op<>(tag, type, reader, writer);
    }

    /**
     * The file protocol, version {@value #VERSION}: every op's tag, class, reader and writer, used by
     * both directions. Tags are the protocol: never reuse or renumber one (a retired op keeps its
     * tag, see {@link DeleteFile}); a new op takes the next free tag. FileCodecTest pins every op's
     * bytes.
     */
    private static final List<Op<?>> TABLE = List.of(
            op(1, PutBegin.class,
                    (req, r) -> new PutBegin(req, r.str(), r.i64(), r.i32(), r.str(), r.str(), cond(r), meta(r)),
                    (p, o) -> {
                        o.str(p.name()); o.i64(p.size()); o.i32(p.blockSize()); o.str(p.policy()); o.str(p.ack());
                        cond(o, p.condition()); meta(o, p.meta());
                    }),
            op(2, PutData.class,
                    (req, r) -> new PutData(req, r.i32(), r.i32(), r.i32(), r.bool(), r.bytes(), r.u8(), r.i32()),
                    (p, o) -> {
                        o.i32(p.block()); o.i32(p.offset()); o.i32(p.blockCrc()); o.bool(p.last()); o.bytes(p.data());
                        o.u8(p.codec()); o.i32(p.rawCrc());
                    }),
            op(3, GetBegin.class, (req, r) -> new GetBegin(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); }),
            op(4, GetAck.class, (req, r) -> new GetAck(req, r.i64()), (p, o) -> o.i64(p.consumed())),
            op(5, ListReq.class, (req, r) -> new ListReq(req, r.str(), r.str(), r.i32(), r.bool()),
                    (p, o) -> { o.str(p.prefix()); o.str(p.after()); o.i32(p.limit()); o.bool(p.deleted()); }),
            op(6, StatReq.class, (req, r) -> new StatReq(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); }),
            op(7, DeleteReq.class, (req, r) -> new DeleteReq(req, r.str(), cond(r), meta(r)),
                    (p, o) -> { o.str(p.name()); cond(o, p.condition()); meta(o, p.meta()); }),
            op(8, StatusReq.class, (req, r) -> new StatusReq(req), (p, o) -> { }),
            op(9, PutProgress.class, (req, r) -> new PutProgress(req, r.i64()), (p, o) -> o.i64(p.durableBytes())),
            op(10, GetData.class, (req, r) -> new GetData(req, r.i64(), r.bytes()),
                    (p, o) -> { o.i64(p.offset()); o.bytes(p.data()); }),
            op(11, ListPart.class, FileCodec::listPart, (p, o) -> {
                o.u16(p.entries().size());
                for (ListEntry e : p.entries()) {
                    entry(o, e);
                }
                o.bool(p.more());
            }),
            op(12, StatusReply.class, FileCodec::statusReply, FileCodec::statusReply),
            op(13, ManifestPart.class, (req, r) -> new ManifestPart(req, r.bool(), r.i32(), r.i32(), r.bytes()),
                    (p, o) -> { o.bool(p.publish()); o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data()); }),
            op(14, Done.class, (req, r) -> new Done(req, r.str()), (p, o) -> o.str(p.info())),
            op(15, Failed.class, (req, r) -> new Failed(req, r.failureCode(), r.str()),
                    (p, o) -> { o.u8(p.code().wire()); o.str(p.error()); }),
            op(16, ReplicaData.class,
                    (req, r) -> new ReplicaData(req, r.str(), r.i32(), r.i32(), r.i32(), r.bool(), r.bytes()),
                    (p, o) -> {
                        o.str(p.blockId()); o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bool(p.background());
                        o.bytes(p.data());
                    }),
            op(17, ReplicaStored.class, (req, r) -> new ReplicaStored(req, r.str()), (p, o) -> o.str(p.blockId())),
            op(18, FetchBlock.class, (req, r) -> new FetchBlock(req, r.str()), (p, o) -> o.str(p.blockId())),
            op(19, BlockData.class, (req, r) -> new BlockData(req, r.i32(), r.i32(), r.i32(), r.bytes()),
                    (p, o) -> { o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bytes(p.data()); }),
            op(20, LookupManifest.class, (req, r) -> new LookupManifest(req, r.str()), (p, o) -> o.str(p.name())),
            op(21, DeleteFile.class, (req, r) -> new DeleteFile(req, r.str()), (p, o) -> o.str(p.name())),
            op(22, BackgroundFetch.class, (req, r) -> new BackgroundFetch(req, r.str(), r.i32(), r.i32()),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); }),
            op(23, BackgroundOffer.class, (req, r) -> new BackgroundOffer(req, r.str(), r.i32(), r.i32()),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); }),
            op(24, BackgroundStored.class, (req, r) -> new BackgroundStored(req, r.str(), r.bool(), r.str()),
                    (p, o) -> { o.str(p.blockId()); o.bool(p.ok()); o.str(p.error()); }),
            op(25, StatPending.class, (req, r) -> {
                boolean known = r.bool();
                int n = r.count();
                List<PendingCopy> copies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    copies.add(new PendingCopy(r.i32(), r.str()));
                }
                return new StatPending(req, known, copies);
            }, (p, o) -> {
                o.bool(p.known());
                o.u16(p.copies().size());
                for (PendingCopy c : p.copies()) {
                    o.i32(c.block()); o.str(c.region());
                }
            }),
            op(26, PoliciesReq.class, (req, r) -> new PoliciesReq(req), (p, o) -> { }),
            op(27, PoliciesReply.class, (req, r) -> {
                String region = r.str();
                int n = r.count();
                List<PolicyInfo> policies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    policies.add(new PolicyInfo(r.str(), r.str(), r.i32(), r.str()));
                }
                return new PoliciesReply(req, region, policies);
            }, (p, o) -> {
                o.str(p.region());
                o.u16(p.policies().size());
                for (PolicyInfo i : p.policies()) {
                    o.str(i.name()); o.str(i.kind()); o.i32(i.copies()); o.str(i.rules());
                }
            }),
            op(28, MoveReq.class, (req, r) -> new MoveReq(req, r.str(), strings(r)),
                    (p, o) -> { o.str(p.name()); strings(o, p.regions()); }),
            op(29, MoveCopy.class, (req, r) -> new MoveCopy(req, r.str(), r.i32(), r.i32(), strings(r)),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); strings(o, p.holders()); }),
            op(30, DropBlocks.class, (req, r) -> new DropBlocks(req, r.str(), strings(r)),
                    (p, o) -> { o.str(p.name()); strings(o, p.blockIds()); }),
            op(31, VersionsReq.class, (req, r) -> new VersionsReq(req, r.str()), (p, o) -> o.str(p.name())),
            op(32, VersionList.class, (req, r) -> {
                int n = r.count();
                List<VersionEntry> versions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    versions.add(new VersionEntry(r.i64(), r.str(), r.i64(), r.str(), r.i64(), r.i64(), r.bool(), meta(r)));
                }
                return new VersionList(req, versions, r.bool());
            }, (p, o) -> {
                o.u16(p.versions().size());
                for (VersionEntry v : p.versions()) {
                    o.i64(v.clock()); o.str(v.clockRegion()); o.i64(v.size()); o.str(v.uploadedAt());
                    o.i64(v.createdMillis()); o.i64(v.locEpoch()); o.bool(v.deleted()); meta(o, v.meta());
                }
                o.bool(p.more());
            }),
            op(33, Committed.class, (req, r) -> new Committed(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.version()); o.str(p.info()); }),
            op(34, CreateClaim.class, (req, r) -> new CreateClaim(req, r.i32(), r.i32(), r.bytes(), cond(r)),
                    (p, o) -> { o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data()); cond(o, p.condition()); }),
            op(35, Claimed.class, (req, r) -> new Claimed(req, r.i64(), r.str()),
                    (p, o) -> { o.i64(p.clock()); o.str(p.region()); }),
            op(36, SyncDigest.class, (req, r) -> new SyncDigest(req, longs(r)), (p, o) -> longs(o, p.buckets())),
            op(37, SyncNames.class, (req, r) -> {
                int n = r.count();
                List<NameDigest> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    names.add(new NameDigest(r.str(), r.i64()));
                }
                return new SyncNames(req, names, r.bool());
            }, (p, o) -> {
                o.u16(p.names().size());
                for (NameDigest n : p.names()) {
                    o.str(n.name()); o.i64(n.digest());
                }
                o.bool(p.more());
            }),
            op(38, NetBenchReq.class,
                    (req, r) -> new NetBenchReq(req, r.str(), r.str(), r.i32(), r.i64(), r.i64(), r.i32(), r.i32()),
                    (p, o) -> {
                        o.str(p.to()); o.str(p.mode()); o.i32(p.streams()); o.i64(p.bytes()); o.i64(p.rateBps());
                        o.i32(p.durationMs()); o.i32(p.payload());
                    }),
            op(39, NetBenchOpen.class, (req, r) -> new NetBenchOpen(req, r.i64(), r.str()),
                    (p, o) -> { o.i64(p.test()); o.str(p.mode()); }),
            op(40, NetBenchData.class, (req, r) -> new NetBenchData(req, r.i64(), r.i32(), r.i64(), r.i64(), r.bytes()),
                    (p, o) -> {
                        o.i64(p.test()); o.i32(p.stream()); o.i64(p.seq()); o.i64(p.sentNanos()); o.bytes(p.data());
                    }),
            op(41, NetBenchAck.class, (req, r) -> new NetBenchAck(req, r.i64(), r.i32(), r.i64()),
                    (p, o) -> { o.i64(p.test()); o.i32(p.stream()); o.i64(p.bytes()); }),
            op(42, NetBenchEnd.class, (req, r) -> new NetBenchEnd(req, r.i64()), (p, o) -> o.i64(p.test())),
            op(43, NetBenchReport.class, (req, r) -> new NetBenchReport(req, r.i64(), r.i64(), r.i64(), r.i64()),
                    (p, o) -> { o.i64(p.packets()); o.i64(p.bytes()); o.i64(p.jitterNanos()); o.i64(p.spanNanos()); }),
            op(44, NetBenchResult.class, (req, r) -> new NetBenchResult(req, r.str(), r.i32(), r.i64(), r.i64(), r.i64(),
                    r.i64(), r.i64(), r.i64(), r.i64()), (p, o) -> {
                        o.str(p.mode()); o.i32(p.streams()); o.i64(p.offeredBps()); o.i64(p.sentBytes());
                        o.i64(p.sentPackets()); o.i64(p.receivedBytes()); o.i64(p.receivedPackets()); o.i64(p.nanos());
                        o.i64(p.jitterNanos());
                    }),
            op(45, GetRead.class, (req, r) -> new GetRead(req, r.str(), r.str(), r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank()); }),
            op(46, FetchPaced.class, (req, r) -> new FetchPaced(req, r.str()), (p, o) -> o.str(p.blockId())),
            op(47, FetchMore.class, (req, r) -> new FetchMore(req, r.i64()), (p, o) -> o.i64(p.received())),
            op(48, FetchCancel.class, (req, r) -> new FetchCancel(req), (p, o) -> { }),
            op(49, GetRange.class, (req, r) -> new GetRange(req, r.str(), r.str(), r.str(), r.str(), r.i64(), r.i64()),
                    (p, o) -> {
                        o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank()); o.i64(p.first());
                        o.i64(p.last());
                    }),
            op(50, SyncLeaves.class, (req, r) -> {
                int n = r.count();
                List<BucketLeaves> buckets = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    buckets.add(new BucketLeaves(r.i32(), longs(r)));
                }
                return new SyncLeaves(req, buckets, r.bool());
            }, (p, o) -> {
                o.u16(p.buckets().size());
                for (BucketLeaves b : p.buckets()) {
                    o.i32(b.bucket());
                    longs(o, b.leaves());
                }
                o.bool(p.more());
            }),
            op(51, SyncNamesReq.class, (req, r) -> {
                int n = r.count();
                List<Integer> leaves = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    leaves.add(r.i32());
                }
                return new SyncNamesReq(req, leaves);
            }, (p, o) -> {
                o.u16(p.leaves().size());
                for (int leaf : p.leaves()) {
                    o.i32(leaf);
                }
            }),
            op(52, HoldBlocks.class, (req, r) -> new HoldBlocks(req, strings(r)), (p, o) -> strings(o, p.fileIds())),
            op(53, LayoutSync.class, (req, r) -> new LayoutSync(req, r.i64(), r.i64(), r.bytes()),
                    (p, o) -> { o.i64(p.version()); o.i64(p.digest()); o.bytes(p.layout()); }),
            op(54, ClusterReq.class, (req, r) -> new ClusterReq(req, r.str(), r.str(), r.str(), r.str(), r.i64(), r.bool()),
                    (p, o) -> {
                        o.str(p.action()); o.str(p.region()); o.str(p.address()); o.str(p.zone());
                        o.i64(p.capacityBytes()); o.bool(p.force());
                    }),
            op(55, ClusterReply.class, (req, r) -> {
                byte[] layout = r.bytes();
                int n = r.count();
                List<RegionReport> regions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    regions.add(new RegionReport(r.str(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64()));
                }
                return new ClusterReply(req, layout, regions, strings(r));
            }, (p, o) -> {
                o.bytes(p.layout());
                o.u16(p.regions().size());
                for (RegionReport g : p.regions()) {
                    o.str(g.region()); o.i64(g.reportedVersion()); o.i64(g.replicas()); o.i64(g.bytes()); o.i64(g.pendingVersions()); o.i64(g.shortBytes());
                }
                strings(o, p.warnings());
            }));

    private static final Map<Class<?>, Op<?>> BY_CLASS = new HashMap<>();
    private static final Op<?>[] BY_TAG;

    static {
        int max = 0;
        for (Op<?> e : TABLE) {
            if (e.tag() < 1 || e.tag() > 255) {
                throw new ExceptionInInitializerError("file op tag " + e.tag() + " outside 1..255");
            }
            if (BY_CLASS.put(e.type(), e) != null) {
                throw new ExceptionInInitializerError(e.type().getSimpleName() + " appears twice in the file protocol");
            }
            max = Math.max(max, e.tag());
        }
        BY_TAG = new Op<?>[max + 1];
        for (Op<?> e : TABLE) {
            if (BY_TAG[e.tag()] != null) {
                throw new ExceptionInInitializerError("file op tag " + e.tag() + " is used twice");
            }
            BY_TAG[e.tag()] = e;
        }
        checkRows(FileOp.class);
    }

    /** Every op record of {@code sealed} and of its sealed sub-interfaces ({@link FileOp.Control}) has a row. */
    private static void checkRows(Class<?> sealed) {
        for (Class<?> c : sealed.getPermittedSubclasses()) {
            if (c.isInterface()) {
                checkRows(c);
            } else if (!BY_CLASS.containsKey(c)) {
                throw new ExceptionInInitializerError(c.getSimpleName() + " has no row in the file protocol");
            }
        }
    }

    /** The tag of {@code type} (for tests and diagnostics). */
    static int tagOf(Class<? extends FileOp> type) {
        Op<?> e = BY_CLASS.get(type);
        if (e == null) {
            throw new IllegalArgumentException("no tag for " + type);
        }
        return e.tag();
    }

    private static ListPart listPart(long req, Reader r) throws MalformedMessageException {
        int n = r.count();
        List<ListEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries.add(new ListEntry(r.str(), r.i64(), r.i32(), r.str(), r.str(), r.i64(), meta(r)));
        }
        return new ListPart(req, entries, r.bool());
    }

    private static StatusReply statusReply(long req, Reader r) throws MalformedMessageException {
        String region = r.str();
        int n = r.count();
        List<PeerRtt> peers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            peers.add(new PeerRtt(r.str(), Double.longBitsToDouble(r.i64())));
        }
        long malformed = r.i64();
        long unauthenticated = r.i64();
        long scrubbed = r.i64();
        long repaired = r.i64();
        long unrepairable = r.i64();
        Transfers transfers = new Transfers(r.i64(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64());
        long queuedBytes = r.i64();
        int queuedCopies = r.i32();
        int m = r.count();
        List<LedbatPeer> flows = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            flows.add(new LedbatPeer(r.str(), r.bool(), r.i32(), r.i64(), r.i64(), r.i64(),
                    Double.longBitsToDouble(r.i64()), Double.longBitsToDouble(r.i64()),
                    Double.longBitsToDouble(r.i64()), r.i64()));
        }
        Background background = new Background(queuedBytes, queuedCopies, flows);
        Gc gc = new Gc(r.i64(), r.i64(), r.i64(), r.bool(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64(), r.i32());
        return new StatusReply(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable,
                transfers, background, gc);
    }

    private static void statusReply(StatusReply p, Out o) {
        o.str(p.region());
        o.u16(p.peers().size());
        for (PeerRtt peer : p.peers()) {
            o.str(peer.region()); o.i64(Double.doubleToLongBits(peer.rttMs()));
        }
        o.i64(p.malformed()); o.i64(p.unauthenticated());
        o.i64(p.scrubbed()); o.i64(p.repaired()); o.i64(p.unrepairable());
        Transfers t = p.transfers();
        o.i64(t.tcpSent()); o.i64(t.tcpReceived()); o.i64(t.ledbatSent()); o.i64(t.ledbatReceived());
        o.i64(t.tcpBackgroundSent()); o.i64(t.tcpBackgroundReceived());
        Background b = p.background();
        o.i64(b.queuedBytes()); o.i32(b.queuedCopies());
        o.u16(b.peers().size());
        for (LedbatPeer l : b.peers()) {
            o.str(l.region()); o.bool(l.active()); o.i32(l.streams()); o.i64(l.cwndBytes()); o.i64(l.queuedBytes());
            o.i64(l.inFlightBytes()); o.i64(Double.doubleToLongBits(l.queuingDelayMs()));
            o.i64(Double.doubleToLongBits(l.baseDelayMs())); o.i64(Double.doubleToLongBits(l.rttMs()));
            o.i64(l.retransmissions());
        }
        Gc g = p.gc();
        o.i64(g.collectedBlocks()); o.i64(g.collectedBytes()); o.i64(g.passes()); o.bool(g.running());
        o.i64(g.passChecked()); o.i64(g.passCollected()); o.i64(g.passInFlight()); o.i64(g.lastPassEndMillis());
        o.i64(g.settledSinceMillis()); o.i32(g.moves());
    }

    /** Bytes {@code e} takes in a {@link ListPart} (see {@link #MAX_LIST_PART_BYTES}). */
    public static int listEntrySize(ListEntry e) {
        Counter c = new Counter();
        entry(c, e);
        return c.n;
    }

    private static void entry(Out o, ListEntry e) {
        o.str(e.name()); o.i64(e.size()); o.i32(e.blockSize()); o.str(e.policy());
        o.str(e.uploadedAt()); o.i64(e.createdMillis()); meta(o, e.meta());
    }

    /** A version's metadata: u16 count, then key and value strings (keys ascending). */
    private static void meta(Out o, java.util.Map<String, String> meta) {
        o.u16(meta.size());
        new java.util.TreeMap<>(meta).forEach((k, v) -> {
            o.str(k);
            o.str(v);
        });
    }

    /**
     * A write condition: u8 flags (1: If-Match follows, 2: If-None-Match follows), the metadata
     * field, then each list present.
     * <pre>
     * +-------+-----------+-----------------+----------------------+
     * | flags | str field | [str If-Match]  | [str If-None-Match]  |
     * +-------+-----------+-----------------+----------------------+
     * </pre>
     */
    private static void cond(Out o, WriteCondition c) {
        o.u8((c.ifMatch() != null ? 1 : 0) | (c.ifNoneMatch() != null ? 2 : 0));
        o.str(c.field());
        if (c.ifMatch() != null) {
            o.str(c.ifMatch());
        }
        if (c.ifNoneMatch() != null) {
            o.str(c.ifNoneMatch());
        }
    }

    private static WriteCondition cond(Reader r) throws MalformedMessageException {
        int flags = r.u8();
        if ((flags & ~3) != 0) {
            throw new MalformedMessageException("unknown write condition flags " + flags);
        }
        String field = r.str();
        String ifMatch = (flags & 1) != 0 ? r.str() : null;
        String ifNoneMatch = (flags & 2) != 0 ? r.str() : null;
        try {
            return new WriteCondition(field, ifMatch, ifNoneMatch);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("bad write condition: " + e.getMessage());
        }
    }

    private static java.util.Map<String, String> meta(Reader r) throws MalformedMessageException {
        int n = r.count();
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            String k = r.str();
            if (out.put(k, r.str()) != null) {
                throw new MalformedMessageException("metadata key '" + k + "' appears twice");
            }
        }
        return out;
    }

    /** Reads one list element. */
    @FunctionalInterface
    private interface ReadOne<T> {
        T read(Reader r) throws MalformedMessageException;
    }

    /** A list: u16 count, then each element as {@code one} writes it. */
    private static <T> void list(Out o, List<T> list, java.util.function.BiConsumer<Out, T> one) {
        o.u16(list.size());
        for (T v : list) {
            one.accept(o, v);
        }
    }

    private static <T> List<T> list(Reader r, ReadOne<T> one) throws MalformedMessageException {
        int n = r.count();
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(one.read(r));
        }
        return List.copyOf(out);
    }

    private static void strings(Out o, List<String> list) {
        list(o, list, Out::str);
    }

    private static List<String> strings(Reader r) throws MalformedMessageException {
        return list(r, Reader::str);
    }

    private static void longs(Out o, List<Long> list) {
        list(o, list, Out::i64);
    }

    private static List<Long> longs(Reader r) throws MalformedMessageException {
        return list(r, Reader::i64);
    }

    private interface Out {
        void i32(int v);
        void i64(long v);
        void u16(int v);
        void u8(int v);
        void bool(boolean v);
        void str(String s);
        void bytes(byte[] b);
    }

    private static final class Counter implements Out {
        int n;
        public void i32(int v) { n += 4; }
        public void i64(long v) { n += 8; }
        public void u16(int v) { n += 2; }
        public void u8(int v) { n += 1; }
        public void bool(boolean v) { n += 1; }
        public void str(String s) { n += Wire.stringSize(s); }
        public void bytes(byte[] b) { n += 4 + b.length; }
    }

    private static final class Writer implements Out {
        private final ByteBuffer b;
        Writer(ByteBuffer b) { this.b = b; }
        public void i32(int v) { b.putInt(v); }
        public void i64(long v) { b.putLong(v); }
        public void u16(int v) { b.putShort((short) v); }
        public void u8(int v) { b.put((byte) v); }
        public void bool(boolean v) { b.put((byte) (v ? 1 : 0)); }
        public void str(String s) { Wire.writeString(s, b); }
        public void bytes(byte[] d) { Wire.writeBytes(d, b); }
    }

    private static final class Reader {
        private final ByteBuffer b;
        Reader(ByteBuffer b) { this.b = b; }
        int i32() throws MalformedMessageException { return Wire.readInt(b, "i32 field"); }
        long i64() throws MalformedMessageException { return Wire.readLong(b, "i64 field"); }
        int u8() throws MalformedMessageException { return Wire.readU8(b, "u8 field"); }
        boolean bool() throws MalformedMessageException {
            int v = Wire.readU8(b, "boolean field");
            if (v > 1) {
                throw new MalformedMessageException("boolean field must be 0 or 1, was " + v);
            }
            return v == 1;
        }
        String str() throws MalformedMessageException { return Wire.readString(b, MAX_STRING, "string field"); }
        FailureCode failureCode() throws MalformedMessageException {
            int v = Wire.readU8(b, "failure code");
            try {
                return FailureCode.ofWire(v);
            } catch (IllegalArgumentException e) {
                throw new MalformedMessageException(e.getMessage());
            }
        }
        byte[] bytes() throws MalformedMessageException { return Wire.readBytes(b, MAX_DATA, "data"); }
        int count() throws MalformedMessageException {
            Wire.need(b, 2, "list count");
            int n = Short.toUnsignedInt(b.getShort());
            if (n > MAX_LIST) {
                throw new MalformedMessageException("list of " + n + " entries exceeds " + MAX_LIST);
            }
            return n;
        }
    }
}
