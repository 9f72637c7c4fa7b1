package geoblocks.blockstore.wire;

import static geoblocks.blockstore.wire.Fields.cond;
import static geoblocks.blockstore.wire.Fields.longs;
import static geoblocks.blockstore.wire.Fields.meta;
import static geoblocks.blockstore.wire.Fields.strings;

import geoblocks.blockstore.wire.PeerOp.*;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of the node-to-node family ({@link PeerOp}) in the file protocol: each op's tag and how
 * its fields are read and written (layouts in {@link FileCodec} and {@link Fields}). Tags are the
 * protocol: never reuse or renumber one (a retired op keeps its tag, see {@link DeleteFile}).
 */
final class PeerCodec {
    private PeerCodec() {}

    static final List<OpRow<?>> ROWS = List.of(
            OpRow.of(16, ReplicaData.class,
                    (req, r) -> new ReplicaData(req, r.str(), r.i32(), r.i32(), r.i32(), r.bool(), r.bytes()),
                    (p, o) -> {
                        o.str(p.blockId()); o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bool(p.background());
                        o.bytes(p.data());
                    }),
            OpRow.of(17, ReplicaStored.class, (req, r) -> new ReplicaStored(req, r.str()), (p, o) -> o.str(p.blockId())),
            OpRow.of(18, FetchBlock.class, (req, r) -> new FetchBlock(req, r.str()), (p, o) -> o.str(p.blockId())),
            OpRow.of(19, BlockData.class, (req, r) -> new BlockData(req, r.i32(), r.i32(), r.i32(), r.bytes()),
                    (p, o) -> { o.i32(p.offset()); o.i32(p.total()); o.i32(p.crc()); o.bytes(p.data()); }),
            OpRow.of(20, LookupManifest.class, (req, r) -> new LookupManifest(req, r.str()), (p, o) -> o.str(p.name())),
            OpRow.of(21, DeleteFile.class, (req, r) -> new DeleteFile(req, r.str()), (p, o) -> o.str(p.name())),
            OpRow.of(22, BackgroundFetch.class, (req, r) -> new BackgroundFetch(req, r.str(), r.i32(), r.i32()),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); }),
            OpRow.of(23, BackgroundOffer.class, (req, r) -> new BackgroundOffer(req, r.str(), r.i32(), r.i32()),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); }),
            OpRow.of(24, BackgroundStored.class, (req, r) -> new BackgroundStored(req, r.str(), r.bool(), r.str()),
                    (p, o) -> { o.str(p.blockId()); o.bool(p.ok()); o.str(p.error()); }),
            OpRow.of(29, MoveCopy.class, (req, r) -> new MoveCopy(req, r.str(), r.i32(), r.i32(), strings(r)),
                    (p, o) -> { o.str(p.blockId()); o.i32(p.length()); o.i32(p.crc()); strings(o, p.holders()); }),
            OpRow.of(30, DropBlocks.class, (req, r) -> new DropBlocks(req, r.str(), strings(r)),
                    (p, o) -> { o.str(p.name()); strings(o, p.blockIds()); }),
            OpRow.of(34, CreateClaim.class, (req, r) -> new CreateClaim(req, r.i32(), r.i32(), r.bytes(), cond(r)),
                    (p, o) -> { o.i32(p.offset()); o.i32(p.total()); o.bytes(p.data()); cond(o, p.condition()); }),
            OpRow.of(35, Claimed.class, (req, r) -> new Claimed(req, r.i64(), r.str()),
                    (p, o) -> { o.i64(p.clock()); o.str(p.region()); }),
            OpRow.of(36, SyncDigest.class, (req, r) -> new SyncDigest(req, longs(r)), (p, o) -> longs(o, p.buckets())),
            OpRow.of(37, SyncNames.class, (req, r) -> {
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
            OpRow.of(46, FetchPaced.class, (req, r) -> new FetchPaced(req, r.str()), (p, o) -> o.str(p.blockId())),
            OpRow.of(47, FetchMore.class, (req, r) -> new FetchMore(req, r.i64()), (p, o) -> o.i64(p.received())),
            OpRow.of(48, FetchCancel.class, (req, r) -> new FetchCancel(req), (p, o) -> { }),
            OpRow.of(50, SyncLeaves.class, (req, r) -> {
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
            OpRow.of(51, SyncNamesReq.class, (req, r) -> {
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
            OpRow.of(52, HoldBlocks.class, (req, r) -> new HoldBlocks(req, strings(r)), (p, o) -> strings(o, p.fileIds())),
            OpRow.of(53, LayoutSync.class, (req, r) -> new LayoutSync(req, r.i64(), r.i64(), r.bytes()),
                    (p, o) -> { o.i64(p.version()); o.i64(p.digest()); o.bytes(p.layout()); }));
}
