package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetRange;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Downloads on a fake node: the plain nearest-first block fetch feeds the node's service latencies,
 * as the planned one does, and a download that names no read strategy reads as the node's default.
 */
class DownloadsFetchTest {
    private static final long MS = FakeNode.MS;
    private static final byte[] DATA = "a plainly fetched block".getBytes(StandardCharsets.US_ASCII);
    private static final Manifest M = new Manifest("f.bin", "f1", DATA.length, 1 << 20, "local", "dublin", 1L,
            List.of(new Manifest.BlockRef(DATA.length, Checksums.crc32c(DATA), List.of("mumbai", "dublin"))));

    /** The request id of the last fetch sent. */
    private static long lastFetch(FakeNode node) {
        for (int i = node.sent.size() - 1; i >= 0; i--) {
            if (node.sent.get(i)[1] instanceof FetchBlock f) {
                return f.req();
            }
        }
        throw new AssertionError("no fetch sent");
    }

    @Test
    void completedPlainFetches_setTheHedgeDelay_fromTheirMeasuredTimes() {
        FakeNode node = new FakeNode();
        long guess = node.latency.hedgeDelayNanos("dublin", DATA.length, node.rtt, node.now);
        assertTrue(guess >= 200 * MS, "before any fetch: the guess from the RTT, " + guess);
        for (int i = 0; i < 8; i++) {
            byte[][] got = new byte[1][];
            Downloads.fetch(node, M, 0, d -> got[0] = d, e -> { throw new AssertionError(e); });
            long req = lastFetch(node);
            node.now += 40 * MS;
            assertTrue(node.waiting.remove(req).onReply(new BlockData(req, 0, DATA.length, 0, DATA)));
            assertArrayEquals(DATA, got[0]);
        }
        assertEquals(List.of("dublin", "dublin", "dublin", "dublin", "dublin", "dublin", "dublin", "dublin"),
                node.fetchedFrom(), "nearest first");
        assertEquals(50 * MS, node.latency.hedgeDelayNanos("dublin", DATA.length, node.rtt, node.now),
                "1.25 medians of eight 40 ms fetches");
    }

    @Test
    void aSlowFailure_ofThePlainFetch_pushesTheReplicaBehindAFartherOne() {
        FakeNode node = new FakeNode();
        assertEquals(List.of("dublin", "mumbai"), node.latency.rank(List.of("mumbai", "dublin"), node.rtt, node.now));
        byte[][] got = new byte[1][];
        Failure[] error = new Failure[1];
        Downloads.fetch(node, M, 0, d -> got[0] = d, e -> error[0] = e);
        long dublin = lastFetch(node);
        node.now += 2_000 * MS;
        assertTrue(node.waiting.remove(dublin).onReply(new Failed(dublin, FailureCode.BUSY, "node busy")));
        long mumbai = lastFetch(node);
        assertEquals(List.of("dublin", "mumbai"), node.fetchedFrom(), "the next replica after the failure");
        node.now += 300 * MS;
        assertTrue(node.waiting.remove(mumbai).onReply(new BlockData(mumbai, 0, DATA.length, 0, DATA)));
        assertArrayEquals(DATA, got[0]);
        assertNull(error[0]);
        assertTrue(node.latency.scoreMs("dublin", node.rtt, node.now) > 1000,
                "dublin's 2 s failure counts: " + node.latency.scoreMs("dublin", node.rtt, node.now));
        assertEquals(List.of("mumbai", "dublin"), node.latency.rank(List.of("mumbai", "dublin"), node.rtt, node.now),
                "load-aware ranking now prefers mumbai");
    }

    /** What a download of M begun by {@code request} asks dublin for first: FetchBlock (plain) or FetchPaced (planned). */
    private static Class<?> firstFetchOf(FakeNode node, BiConsumer<Downloads, NetAddress> request)
            throws Exception {
        node.manifests().save(M);
        NetAddress client = NetAddress.of("127.0.0.1", 9000);
        request.accept(new Downloads(node), client);
        assertTrue(node.sent.stream().anyMatch(s -> s[0].equals(client) && s[1] instanceof ManifestPart),
                "the manifest went to the client");
        return node.sent.stream().map(s -> s[1]).filter(op -> op instanceof FetchBlock || op instanceof FetchPaced)
                .findFirst().orElseThrow().getClass();
    }

    @Test
    void getBegin_readsAsTheNodeDefaultSays() throws Exception {
        FakeNode plain = new FakeNode();
        assertEquals(FetchBlock.class, firstFetchOf(plain, (d, c) -> d.onBegin(c, new GetBegin(1, "f.bin"))),
                "default first/rtt: the plain path");
        FakeNode hedged = new FakeNode();
        hedged.settings = hedged.settings.withReadDefault(new ReadOptions(ReadOptions.Strategy.HEDGED, false));
        assertEquals(FetchPaced.class, firstFetchOf(hedged, (d, c) -> d.onBegin(c, new GetBegin(1, "f.bin"))));
        assertEquals(1, hedged.wakeups.size(), "a hedge is armed: the hedged strategy is in use");
        assertEquals(List.of("dublin"), hedged.fetchedFrom());
    }

    @Test
    void getRange_namingNothing_readsAsTheNodeDefault_namingFirstRtt_readsPlain() throws Exception {
        FakeNode parallel = new FakeNode();
        parallel.settings = parallel.settings.withReadDefault(new ReadOptions(ReadOptions.Strategy.PARALLEL, false));
        firstFetchOf(parallel, (d, c) -> d.onRange(c, new GetRange(1, "f.bin", "", "", "", 0, 5)));
        assertEquals(List.of("dublin", "mumbai"), parallel.fetchedFrom(), "parallel: every replica at once");

        FakeNode asked = new FakeNode();
        asked.settings = asked.settings.withReadDefault(new ReadOptions(ReadOptions.Strategy.PARALLEL, false));
        firstFetchOf(asked, (d, c) -> d.onRange(c, new GetRange(1, "f.bin", "", "first", "rtt", 0, 5)));
        assertEquals(List.of("dublin"), asked.fetchedFrom(), "first/rtt asked for: one replica");
    }
    /**
     * Every replica of a block failed: when each answered with a storage failure, the fetch fails with
     * what they add up to (no copy: BLOCK_MISSING, a corrupt copy: BLOCK_CORRUPT, a disk error: IO_ERROR);
     * when any failed otherwise (busy, down, or an older peer's INTERNAL), UNAVAILABLE, as before.
     */
    @Test
    void everyReplicaFailed_theFetchFailsWithWhatTheirAnswersAddUpTo() {
        assertEquals(FailureCode.BLOCK_MISSING, fetchFailing(FailureCode.BLOCK_MISSING, FailureCode.BLOCK_MISSING));
        assertEquals(FailureCode.BLOCK_CORRUPT, fetchFailing(FailureCode.BLOCK_MISSING, FailureCode.BLOCK_CORRUPT));
        assertEquals(FailureCode.IO_ERROR, fetchFailing(FailureCode.IO_ERROR, FailureCode.BLOCK_MISSING));
        assertEquals(FailureCode.UNAVAILABLE, fetchFailing(FailureCode.BLOCK_MISSING, FailureCode.BUSY));
        assertEquals(FailureCode.UNAVAILABLE, fetchFailing(FailureCode.BLOCK_CORRUPT, FailureCode.INTERNAL));
    }

    /** Bytes that fail the manifest's checksum at every replica: the block is corrupt, not unavailable. */
    @Test
    void everyReplicaSentBadBytes_theFetchFailsCorrupt() {
        FakeNode node = new FakeNode();
        Failure[] error = new Failure[1];
        Downloads.fetch(node, M, 0, d -> { throw new AssertionError("read"); }, e -> error[0] = e);
        byte[] bad = DATA.clone();
        bad[0] ^= 1;
        for (int i = 0; i < 2; i++) {
            long req = lastFetch(node);
            assertTrue(node.waiting.remove(req).onReply(new BlockData(req, 0, bad.length, 0, bad)));
        }
        assertEquals(FailureCode.BLOCK_CORRUPT, error[0].code(), error[0].text());
    }

    /** A download whose block no replica holds fails to its client as BLOCK_MISSING, not UNAVAILABLE. */
    @Test
    void download_ofABlockNoReplicaHolds_failsBlockMissing() throws Exception {
        FakeNode node = new FakeNode();
        firstFetchOf(node, (d, c) -> d.onBegin(c, new GetBegin(1, "f.bin")));
        for (int i = 0; i < 2; i++) {
            long req = lastFetch(node);
            assertTrue(node.waiting.remove(req).onReply(new Failed(req, FailureCode.BLOCK_MISSING, "no block here")));
        }
        Failed f = node.sent.stream().map(s -> s[1]).filter(op -> op instanceof Failed).map(op -> (Failed) op)
                .findFirst().orElseThrow();
        assertEquals(FailureCode.BLOCK_MISSING, f.code(), f.error());
    }

    private static FailureCode fetchFailing(FailureCode first, FailureCode second) {
        FakeNode node = new FakeNode();
        Failure[] error = new Failure[1];
        Downloads.fetch(node, M, 0, d -> { throw new AssertionError("read"); }, e -> error[0] = e);
        long a = lastFetch(node);
        assertTrue(node.waiting.remove(a).onReply(new Failed(a, first, "x")));
        long b = lastFetch(node);
        assertTrue(b != a, "the second replica asked");
        assertTrue(node.waiting.remove(b).onReply(new Failed(b, second, "y")));
        return error[0].code();
    }
}
