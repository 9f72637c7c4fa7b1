package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.PeerOp;
import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.ClientOp.ListPart;
import geoblocks.blockstore.wire.ClientOp.ListReq;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.blockstore.wire.ClientOp.StatPending;
import geoblocks.blockstore.wire.ClientOp.StatReq;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestTimingTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 50000);
    private static final NetAddress OTHER = NetAddress.of("127.0.0.1", 50001);
    private static final long MS = 1_000_000L;
    private final RequestStats stats = new RequestStats(10);
    private final RequestTiming timing = new RequestTiming(stats);

    private Map<String, Long> counts(String op) {
        return stats.snapshot().counts().getOrDefault(op, Map.of());
    }

    @Test
    void put_endsAtDone_notAtProgress() {
        timing.received(CLIENT, new PutBegin(7, "a", 10, 4, "local", "all"), 0);
        timing.sent(CLIENT, new PutProgress(7, 4), 5 * MS, 0);
        assertEquals(Map.of(), counts("put"));
        timing.sent(CLIENT, new Done(7, "stored"), 30 * MS, 1234);
        assertEquals(Map.of("ok", 1L), counts("put"));
        RequestStats.Recent r = stats.snapshot().recent().get(0);
        assertEquals(new RequestStats.Recent(1234, "put", "a", "ok", 30.0, ""), r);
        assertEquals(0, timing.openCount());
    }

    @Test
    void putAndDelete_endAtCommitted_theVersionWritten() {
        timing.received(CLIENT, new PutBegin(8, "b", 10, 4, "local", "all"), 0);
        timing.sent(CLIENT, new ClientOp.Committed(8, "v1", "stored"), 20 * MS, 0);
        timing.received(CLIENT, new DeleteReq(9, "b"), 0);
        timing.sent(CLIENT, new ClientOp.Committed(9, "v2", "deleted"), 5 * MS, 0);
        assertEquals(Map.of("ok", 1L), counts("put"));
        assertEquals(Map.of("ok", 1L), counts("delete"));
        assertEquals(0, timing.openCount());
    }

    @Test
    void failed_isAnError_andABusyCodeIsBusy_whateverTheText() {
        timing.received(CLIENT, new GetBegin(1, "missing"), 0);
        timing.sent(CLIENT, new Failed(1, FailureCode.NOT_FOUND, "no such file 'missing'"), MS, 0);
        timing.received(CLIENT, new PutBegin(2, "big", 10, 4, "local", "all"), 0);
        timing.sent(CLIENT, new Failed(2, FailureCode.BUSY, "upload of 'big' failed: seoul: 60 of 64 MiB in use"), MS, 0);
        timing.received(CLIENT, new PutBegin(3, "node busy", 10, 4, "local", "all"), 0);
        timing.sent(CLIENT, new Failed(3, FailureCode.INVALID, "node busy: not a valid policy"), MS, 0);
        assertEquals(Map.of("error", 1L), counts("get"));
        assertEquals(Map.of("busy", 1L, "error", 1L), counts("put"));
        assertEquals("no such file 'missing'", stats.snapshot().recent().get(0).error());
    }

    @Test
    void get_endsWithTheDataThatCarriesTheLastByte_sizeReadFromTheManifestSent() {
        Manifest m = new Manifest("f", "id1", 10, 8, "local", "seoul", 1,
                List.of(new Manifest.BlockRef(8, 0, List.of("seoul")), new Manifest.BlockRef(2, 0, List.of("seoul"))));
        byte[] bytes = ManifestCodec.encode(m);
        timing.received(CLIENT, new GetBegin(3, "f"), 0);
        Assembly.split(bytes, 7, (off, part) -> timing.sent(CLIENT, new ManifestPart(3, false, off, bytes.length, part), MS, 0));
        timing.sent(CLIENT, new GetData(3, 0, new byte[8]), 2 * MS, 0);
        assertEquals(Map.of(), counts("get"));
        timing.sent(CLIENT, new GetData(3, 8, new byte[2]), 9 * MS, 0);
        assertEquals(Map.of("ok", 1L), counts("get"));
        assertEquals(9.0, stats.snapshot().recent().get(0).latencyMs());
    }

    @Test
    void rangedGet_endsWithTheLastStoredByteOfItsBlocks_notOfTheFile() {
        Manifest m = new Manifest("f", "id1", 20, 8, "local", "seoul", 1,
                List.of(new Manifest.BlockRef(8, 0, List.of("seoul")), new Manifest.BlockRef(8, 0, List.of("seoul")),
                        new Manifest.BlockRef(4, 0, List.of("seoul"))));
        byte[] bytes = ManifestCodec.encode(m);
        timing.received(CLIENT, new ClientOp.GetRange(6, "f", "", "", "", 9, 10), 0);
        timing.sent(CLIENT, new ManifestPart(6, false, 0, bytes.length, bytes), MS, 0);
        assertEquals(Map.of(), counts("get"));
        timing.sent(CLIENT, new GetData(6, 8, new byte[8]), 4 * MS, 0);
        assertEquals(Map.of("ok", 1L), counts("get"), "block 1 (bytes 8..15) is all the range needs");
        assertEquals(0, timing.openCount());
    }

    @Test
    void get_ofAnEmptyFile_endsWithItsManifest() {
        Manifest m = new Manifest("empty", "id2", 0, 8, "local", "seoul", 1, List.of());
        byte[] bytes = ManifestCodec.encode(m);
        timing.received(CLIENT, new GetBegin(4, "empty"), 0);
        timing.sent(CLIENT, new ManifestPart(4, false, 0, bytes.length, bytes), MS, 0);
        assertEquals(Map.of("ok", 1L), counts("get"));
    }

    @Test
    void stat_endsWithTheManifestsLastPart_list_withItsPart() {
        timing.received(CLIENT, new StatReq(5, "f"), 0);
        timing.sent(CLIENT, new StatPending(5, true, List.of()), MS, 0);
        timing.sent(CLIENT, new ManifestPart(5, false, 0, 20, new byte[10]), MS, 0);
        assertEquals(Map.of(), counts("stat"));
        timing.sent(CLIENT, new ManifestPart(5, false, 10, 20, new byte[10]), 2 * MS, 0);
        assertEquals(Map.of("ok", 1L), counts("stat"));
        timing.received(CLIENT, new ListReq(6, "", "", 10), 0);
        timing.sent(CLIENT, new ListPart(6, List.of(), false), MS, 0);
        assertEquals(Map.of("ok", 1L), counts("list"));
    }

    @Test
    void answersToAnotherAddressOrRequest_doNotEndIt() {
        timing.received(CLIENT, new DeleteReq(8, "f"), 0);
        timing.sent(OTHER, new Done(8, "x"), MS, 0);
        timing.sent(CLIENT, new Done(9, "x"), MS, 0);
        assertEquals(1, timing.openCount());
        timing.sent(CLIENT, new Done(8, "deleted"), MS, 0);
        assertEquals(Map.of("ok", 1L), counts("delete"));
    }

    @Test
    void nodeOpsAndConnectionWarmUps_areNotClientRequests() {
        assertNull(RequestTiming.kindOf(new StatusReq(0)));
        assertEquals("status", RequestTiming.kindOf(new StatusReq(3)));
        assertNull(RequestTiming.kindOf(new PeerOp.FetchBlock(3, "b")));
        timing.received(CLIENT, new PeerOp.FetchBlock(3, "b"), 0);
        assertEquals(0, timing.openCount());
    }

    @Test
    void expire_endsOldRequestsAsAbandoned() {
        timing.received(CLIENT, new GetBegin(10, "slow"), 0);
        timing.received(CLIENT, new GetBegin(11, "new"), 50 * MS);
        timing.expire(100 * MS, 0, 60 * MS);
        assertEquals(Map.of("abandoned", 1L), counts("get"));
        assertEquals(1, timing.openCount());
    }
}
