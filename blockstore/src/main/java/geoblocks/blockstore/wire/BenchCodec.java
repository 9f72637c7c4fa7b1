package geoblocks.blockstore.wire;

import geoblocks.blockstore.wire.BenchOp.*;
import java.util.List;

/**
 * The rows of the bench net family ({@link BenchOp}) in the file protocol: each op's tag and how
 * its fields are read and written (layouts in {@link FileCodec} and {@link Fields}).
 */
final class BenchCodec {
    private BenchCodec() {}

    static final List<OpRow<?>> ROWS = List.of(
            OpRow.of(38, NetBenchReq.class,
                    (req, r) -> new NetBenchReq(req, r.str(), r.str(), r.i32(), r.i64(), r.i64(), r.i32(), r.i32()),
                    (p, o) -> {
                        o.str(p.to()); o.str(p.mode()); o.i32(p.streams()); o.i64(p.bytes()); o.i64(p.rateBps());
                        o.i32(p.durationMs()); o.i32(p.payload());
                    }),
            OpRow.of(39, NetBenchOpen.class, (req, r) -> new NetBenchOpen(req, r.i64(), r.str()),
                    (p, o) -> { o.i64(p.test()); o.str(p.mode()); }),
            OpRow.of(40, NetBenchData.class, (req, r) -> new NetBenchData(req, r.i64(), r.i32(), r.i64(), r.i64(), r.bytes()),
                    (p, o) -> {
                        o.i64(p.test()); o.i32(p.stream()); o.i64(p.seq()); o.i64(p.sentNanos()); o.bytes(p.data());
                    }),
            OpRow.of(41, NetBenchAck.class, (req, r) -> new NetBenchAck(req, r.i64(), r.i32(), r.i64()),
                    (p, o) -> { o.i64(p.test()); o.i32(p.stream()); o.i64(p.bytes()); }),
            OpRow.of(42, NetBenchEnd.class, (req, r) -> new NetBenchEnd(req, r.i64()), (p, o) -> o.i64(p.test())),
            OpRow.of(43, NetBenchReport.class, (req, r) -> new NetBenchReport(req, r.i64(), r.i64(), r.i64(), r.i64()),
                    (p, o) -> { o.i64(p.packets()); o.i64(p.bytes()); o.i64(p.jitterNanos()); o.i64(p.spanNanos()); }),
            OpRow.of(44, NetBenchResult.class, (req, r) -> new NetBenchResult(req, r.str(), r.i32(), r.i64(), r.i64(), r.i64(),
                    r.i64(), r.i64(), r.i64(), r.i64()), (p, o) -> {
                        o.str(p.mode()); o.i32(p.streams()); o.i64(p.offeredBps()); o.i64(p.sentBytes());
                        o.i64(p.sentPackets()); o.i64(p.receivedBytes()); o.i64(p.receivedPackets()); o.i64(p.nanos());
                        o.i64(p.jitterNanos());
                    }));
}
