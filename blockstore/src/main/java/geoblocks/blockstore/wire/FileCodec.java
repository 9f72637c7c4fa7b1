package geoblocks.blockstore.wire;

import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Codec of the file protocol. Layout: header (see {@link Wire}), a one-byte op tag, then the op's
 * fields in record order: i8/i32/i64 big-endian, booleans as one byte, strings as u16 length +
 * UTF-8, byte arrays as i32 length + bytes, lists as u16 count + elements.
 *
 * <pre>
 * +----------------+-----+---------+----------------------------+
 * | header         | tag | req i64 | op fields ...              |
 * +----------------+-----+---------+----------------------------+
 * </pre>
 *
 * Sizes are computed by running the same encoder against a counting sink, so size and layout
 * cannot disagree. Decoding bounds every length: strings at {@value #MAX_STRING} bytes, data at
 * {@value #MAX_DATA} bytes, lists at {@value #MAX_LIST} entries.
 */
public final class FileCodec implements WireCodec<FileMsg> {
    public static final FileCodec INSTANCE = new FileCodec();
    /** Largest data array in one message: keeps every message below Netty's 65,536-byte frame. */
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
        body(msg.op(), c);
        return Wire.headerSize(msg.getHeader()) + 1 + c.n;
    }

    @Override
    public void encode(FileMsg msg, ByteBuffer out) {
        Wire.writeHeader(msg.getHeader(), out);
        out.put(tag(msg.op()));
        body(msg.op(), new Writer(out));
    }

    @Override
    public FileMsg decode(ByteBuffer in) throws MalformedMessageException {
        NetHeader h = Wire.readHeader(in);
        int tag = Wire.readU8(in, "op tag");
        Reader r = new Reader(in);
        return new FileMsg(h, op(tag, r));
    }

    private static byte tag(FileOp op) {
        Class<?> c = op.getClass();
        for (int i = 0; i < TAGS.length; i++) {
            if (TAGS[i] == c) {
                return (byte) (i + 1);
            }
        }
        throw new IllegalArgumentException("no tag for " + c);
    }

    private static final Class<?>[] TAGS = {PutBegin.class, PutData.class, GetBegin.class, GetAck.class,
        ListReq.class, StatReq.class, DeleteReq.class, StatusReq.class, PutProgress.class, GetData.class,
        ListPart.class, StatusReply.class, ManifestPart.class, Done.class, Failed.class, ReplicaData.class,
        ReplicaStored.class, FetchBlock.class, BlockData.class, LookupManifest.class, DeleteFile.class,
        BackgroundFetch.class, BackgroundOffer.class, BackgroundStored.class, StatPending.class, PoliciesReq.class,
        PoliciesReply.class, MoveReq.class, MoveCopy.class, DropBlocks.class, VersionsReq.class, VersionList.class,
        Committed.class, CreateClaim.class, Claimed.class, SyncDigest.class, SyncNames.class,
        NetBenchReq.class, NetBenchOpen.class, NetBenchData.class, NetBenchAck.class, NetBenchEnd.class,
        NetBenchReport.class, NetBenchResult.class, GetRead.class, FetchPaced.class, FetchMore.class, FetchCancel.class,
        GetRange.class, SyncLeaves.class, SyncNamesReq.class, HoldBlocks.class};

    /** Writes the op's fields; the same code counts sizes and writes bytes. */
    private static void body(FileOp op, Out o) {
        o.i64(op.req());
        if (op instanceof PutBegin p) {
            o.str(p.name()); o.i64(p.size()); o.i32(p.blockSize()); o.str(p.policy()); o.str(p.ack());
            o.bool(p.ifAbsent()); meta(o, p.meta());
        } else if (op instanceof PutData p) {
            o.i32(p.block()); o.i32(p.offset()); o.i32(p.blockCrc()); o.bool(p.last()); o.bytes(p.data());
            o.u8(p.codec()); o.i32(p.rawCrc());
        } else if (op instanceof GetBegin p) {
            o.str(p.name()); o.str(p.version());
        } else if (op instanceof GetAck p) {
            o.i64(p.consumed());
        } else if (op instanceof ListReq p) {
            o.str(p.prefix()); o.str(p.after()); o.i32(p.limit());
        } else if (op instanceof StatReq p) {
            o.str(p.name()); o.str(p.version());
        } else if (op instanceof DeleteReq p) {
            o.str(p.name());
        } else if (op instanceof StatusReq) {
            // no fields
        } else if (op instanceof PutProgress p) {
            o.i64(p.durableBytes());
        } else if (op instanceof GetData p) {
            o.i64(p.offset()); o.bytes(p.data());
        } else if (op instanceof ListPart p) {
            o.u16(p.entries().size());
            for (ListEntry e : p.entries()) {
                entry(o, e);
            }
            o.bool(p.more());
        } else if (op instanceof StatusReply p) {
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
        } else if (op instanceof ManifestPart p) {
            o.bool(p.publish()); o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data());
        } else if (op instanceof Done p) {
            o.str(p.info());
        } else if (op instanceof Failed p) {
            o.u8(p.code().wire()); o.str(p.error());
        } else if (op instanceof ReplicaData p) {
            o.str(p.blockId()); o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bool(p.background()); o.bytes(p.data());
        } else if (op instanceof ReplicaStored p) {
            o.str(p.blockId());
        } else if (op instanceof FetchBlock p) {
            o.str(p.blockId());
        } else if (op instanceof BlockData p) {
            o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bytes(p.data());
        } else if (op instanceof LookupManifest p) {
            o.str(p.name());
        } else if (op instanceof DeleteFile p) {
            o.str(p.name());
        } else if (op instanceof BackgroundFetch p) {
            o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc());
        } else if (op instanceof BackgroundOffer p) {
            o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc());
        } else if (op instanceof BackgroundStored p) {
            o.str(p.blockId()); o.bool(p.ok()); o.str(p.error());
        } else if (op instanceof MoveReq p) {
            o.str(p.name());
            strings(o, p.regions());
        } else if (op instanceof MoveCopy p) {
            o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc());
            strings(o, p.holders());
        } else if (op instanceof DropBlocks p) {
            o.str(p.name());
            strings(o, p.blockIds());
        } else if (op instanceof StatPending p) {
            o.bool(p.known());
            o.u16(p.copies().size());
            for (PendingCopy c : p.copies()) {
                o.i32(c.block()); o.str(c.region());
            }
        } else if (op instanceof PoliciesReq) {
            // no fields
        } else if (op instanceof PoliciesReply p) {
            o.str(p.region());
            o.u16(p.policies().size());
            for (PolicyInfo i : p.policies()) {
                o.str(i.name()); o.str(i.kind()); o.i32(i.copies()); o.str(i.rules());
            }
        } else if (op instanceof VersionsReq p) {
            o.str(p.name());
        } else if (op instanceof VersionList p) {
            o.u16(p.versions().size());
            for (VersionEntry v : p.versions()) {
                o.i64(v.clock()); o.str(v.clockRegion()); o.i64(v.size()); o.str(v.uploadedAt());
                o.i64(v.createdMillis()); o.i64(v.locEpoch()); o.bool(v.deleted());
            }
            o.bool(p.more());
        } else if (op instanceof Committed p) {
            o.str(p.version()); o.str(p.info());
        } else if (op instanceof CreateClaim p) {
            o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data());
        } else if (op instanceof Claimed p) {
            o.i64(p.clock()); o.str(p.region());
        } else if (op instanceof SyncDigest p) {
            o.u16(p.buckets().size());
            for (long d : p.buckets()) {
                o.i64(d);
            }
        } else if (op instanceof SyncNames p) {
            o.u16(p.names().size());
            for (NameDigest n : p.names()) {
                o.str(n.name()); o.i64(n.digest());
            }
            o.bool(p.more());
        } else if (op instanceof NetBenchReq p) {
            o.str(p.to()); o.str(p.mode()); o.i32(p.streams()); o.i64(p.bytes()); o.i64(p.rateBps());
            o.i32(p.durationMs()); o.i32(p.payload());
        } else if (op instanceof NetBenchOpen p) {
            o.i64(p.test()); o.str(p.mode());
        } else if (op instanceof NetBenchData p) {
            o.i64(p.test()); o.i32(p.stream()); o.i64(p.seq()); o.i64(p.sentNanos()); o.bytes(p.data());
        } else if (op instanceof NetBenchAck p) {
            o.i64(p.test()); o.i32(p.stream()); o.i64(p.bytes());
        } else if (op instanceof NetBenchEnd p) {
            o.i64(p.test());
        } else if (op instanceof NetBenchReport p) {
            o.i64(p.packets()); o.i64(p.bytes()); o.i64(p.jitterNanos()); o.i64(p.spanNanos());
        } else if (op instanceof NetBenchResult p) {
            o.str(p.mode()); o.i32(p.streams()); o.i64(p.offeredBps()); o.i64(p.sentBytes()); o.i64(p.sentPackets());
            o.i64(p.receivedBytes()); o.i64(p.receivedPackets()); o.i64(p.nanos()); o.i64(p.jitterNanos());
        } else if (op instanceof GetRead p) {
            o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank());
        } else if (op instanceof FetchPaced p) {
            o.str(p.blockId());
        } else if (op instanceof FetchMore p) {
            o.i64(p.received());
        } else if (op instanceof FetchCancel) {
            // no fields
        } else if (op instanceof GetRange p) {
            o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank()); o.i64(p.first()); o.i64(p.last());
        } else if (op instanceof SyncLeaves p) {
            o.u16(p.buckets().size());
            for (BucketLeaves b : p.buckets()) {
                o.i32(b.bucket());
                o.u16(b.leaves().size());
                for (long d : b.leaves()) {
                    o.i64(d);
                }
            }
            o.bool(p.more());
        } else if (op instanceof SyncNamesReq p) {
            o.u16(p.leaves().size());
            for (int leaf : p.leaves()) {
                o.i32(leaf);
            }
        } else if (op instanceof HoldBlocks p) {
            strings(o, p.fileIds());
        } else {
            throw new IllegalArgumentException("unknown op " + op.getClass());
        }
    }

    private static FileOp op(int tag, Reader r) throws MalformedMessageException {
        if (tag < 1 || tag > TAGS.length) {
            throw new MalformedMessageException("unknown file op tag " + tag);
        }
        long req = r.i64();
        switch (tag) {
            case 1: return new PutBegin(req, r.str(), r.i64(), r.i32(), r.str(), r.str(), r.bool(), meta(r));
            case 2: return new PutData(req, r.i32(), r.i32(), r.i32(), r.bool(), r.bytes(), r.u8(), r.i32());
            case 3: return new GetBegin(req, r.str(), r.str());
            case 4: return new GetAck(req, r.i64());
            case 5: return new ListReq(req, r.str(), r.str(), r.i32());
            case 6: return new StatReq(req, r.str(), r.str());
            case 7: return new DeleteReq(req, r.str());
            case 8: return new StatusReq(req);
            case 9: return new PutProgress(req, r.i64());
            case 10: return new GetData(req, r.i64(), r.bytes());
            case 11: {
                int n = r.count();
                List<ListEntry> entries = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    entries.add(new ListEntry(r.str(), r.i64(), r.i32(), r.str(), r.str(), r.i64(), meta(r)));
                }
                return new ListPart(req, entries, r.bool());
            }
            case 12: {
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
            case 13: return new ManifestPart(req, r.bool(), r.i32(), r.i32(), r.bytes());
            case 14: return new Done(req, r.str());
            case 15: return new Failed(req, r.failureCode(), r.str());
            case 16: return new ReplicaData(req, r.str(), r.i32(), r.i32(), r.i32(), r.bool(), r.bytes());
            case 17: return new ReplicaStored(req, r.str());
            case 18: return new FetchBlock(req, r.str());
            case 19: return new BlockData(req, r.i32(), r.i32(), r.i32(), r.bytes());
            case 20: return new LookupManifest(req, r.str());
            case 21: return new DeleteFile(req, r.str());
            case 22: return new BackgroundFetch(req, r.str(), r.i32(), r.i32());
            case 23: return new BackgroundOffer(req, r.str(), r.i32(), r.i32());
            case 24: return new BackgroundStored(req, r.str(), r.bool(), r.str());
            case 25: {
                boolean known = r.bool();
                int n = r.count();
                List<PendingCopy> copies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    copies.add(new PendingCopy(r.i32(), r.str()));
                }
                return new StatPending(req, known, copies);
            }
            case 26: return new PoliciesReq(req);
            case 27: {
                String region = r.str();
                int n = r.count();
                List<PolicyInfo> policies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    policies.add(new PolicyInfo(r.str(), r.str(), r.i32(), r.str()));
                }
                return new PoliciesReply(req, region, policies);
            }
            case 28: return new MoveReq(req, r.str(), strings(r));
            case 29: return new MoveCopy(req, r.str(), r.i32(), r.i32(), strings(r));
            case 30: return new DropBlocks(req, r.str(), strings(r));
            case 31: return new VersionsReq(req, r.str());
            case 32: {
                int n = r.count();
                List<VersionEntry> versions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    versions.add(new VersionEntry(r.i64(), r.str(), r.i64(), r.str(), r.i64(), r.i64(), r.bool()));
                }
                return new VersionList(req, versions, r.bool());
            }
            case 33: return new Committed(req, r.str(), r.str());
            case 34: return new CreateClaim(req, r.i32(), r.i32(), r.bytes());
            case 35: return new Claimed(req, r.i64(), r.str());
            case 36: {
                int n = r.count();
                List<Long> buckets = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    buckets.add(r.i64());
                }
                return new SyncDigest(req, buckets);
            }
            case 37: {
                int n = r.count();
                List<NameDigest> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    names.add(new NameDigest(r.str(), r.i64()));
                }
                return new SyncNames(req, names, r.bool());
            }
            case 38: return new NetBenchReq(req, r.str(), r.str(), r.i32(), r.i64(), r.i64(), r.i32(), r.i32());
            case 39: return new NetBenchOpen(req, r.i64(), r.str());
            case 40: return new NetBenchData(req, r.i64(), r.i32(), r.i64(), r.i64(), r.bytes());
            case 41: return new NetBenchAck(req, r.i64(), r.i32(), r.i64());
            case 42: return new NetBenchEnd(req, r.i64());
            case 43: return new NetBenchReport(req, r.i64(), r.i64(), r.i64(), r.i64());
            case 44: return new NetBenchResult(req, r.str(), r.i32(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64(),
                    r.i64(), r.i64());
            case 45: return new GetRead(req, r.str(), r.str(), r.str(), r.str());
            case 46: return new FetchPaced(req, r.str());
            case 47: return new FetchMore(req, r.i64());
            case 48: return new FetchCancel(req);
            case 49: return new GetRange(req, r.str(), r.str(), r.str(), r.str(), r.i64(), r.i64());
            case 50: {
                int n = r.count();
                List<BucketLeaves> buckets = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int bucket = r.i32();
                    int m = r.count();
                    List<Long> leaves = new ArrayList<>(m);
                    for (int j = 0; j < m; j++) {
                        leaves.add(r.i64());
                    }
                    buckets.add(new BucketLeaves(bucket, leaves));
                }
                return new SyncLeaves(req, buckets, r.bool());
            }
            case 51: {
                int n = r.count();
                List<Integer> leaves = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    leaves.add(r.i32());
                }
                return new SyncNamesReq(req, leaves);
            }
            case 52: return new HoldBlocks(req, strings(r));
            default: throw new MalformedMessageException("unknown file op tag " + tag);
        }
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

    private static void strings(Out o, List<String> list) {
        o.u16(list.size());
        for (String s : list) {
            o.str(s);
        }
    }

    private static List<String> strings(Reader r) throws MalformedMessageException {
        int n = r.count();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(r.str());
        }
        return List.copyOf(out);
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
