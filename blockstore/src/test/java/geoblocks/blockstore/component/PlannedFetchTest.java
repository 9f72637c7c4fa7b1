package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.FetchCancel;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hedged block fetch on a fake node whose clock and wake-ups the test drives: the hedge goes out
 * at its time even when the wake-up set for it runs early.
 */
class PlannedFetchTest {
    private static final long MS = FakeNode.MS;

    private static final byte[] DATA = "a block of hedged bytes".getBytes(StandardCharsets.US_ASCII);
    private static final Manifest M = new Manifest("f.bin", "f1", DATA.length, 1 << 20, "local", "dublin", 1L,
            List.of(new Manifest.BlockRef(DATA.length, Checksums.crc32c(DATA), List.of("mumbai", "dublin"))));

    @Test
    void hedge_wakeupThatRunsEarly_isSetAgain_andTheHedgeGoesOutAtItsTime() {
        FakeNode node = new FakeNode();
        byte[][] got = new byte[1][];
        Failure[] error = new Failure[1];
        PlannedFetch.fetch(node, M, 0, new ReadOptions(ReadOptions.Strategy.HEDGED, false), d -> got[0] = d,
                e -> error[0] = e);
        assertEquals(List.of("dublin"), node.fetchedFrom(), "nearest replica first");
        assertEquals(1, node.wakeups.size());
        long hedgeAt = node.wakeupsAt.get(0)[0];
        assertTrue(hedgeAt > node.now, "the hedge waits");

        node.now = hedgeAt - MS / 2; // the timer fires half a millisecond before the hedge is due
        node.wakeups.get(0).run();
        assertEquals(List.of("dublin"), node.fetchedFrom(), "no hedge before its time");
        assertEquals(2, node.wakeups.size(), "the early wake-up set another one");
        assertEquals(hedgeAt, node.wakeupsAt.get(1)[0], "for the same hedge time");

        node.now = hedgeAt;
        node.wakeups.get(1).run();
        assertEquals(List.of("dublin", "mumbai"), node.fetchedFrom(), "the hedge went to the next replica");
        assertEquals(2, node.wakeups.size(), "one hedge per block: nothing more to wake up for");

        // mumbai answers first: the block is delivered and dublin's request cancelled
        long mumbaiReq = ((FetchPaced) node.sent.get(node.sent.size() - 1)[1]).req();
        long dublinReq = ((FetchPaced) node.sent.get(0)[1]).req();
        node.now += 10 * MS;
        assertTrue(node.waiting.get(mumbaiReq).onReply(new BlockData(mumbaiReq, 0, DATA.length, 0, DATA)));
        assertArrayEquals(DATA, got[0]);
        assertNull(error[0]);
        assertTrue(node.sent.stream().anyMatch(s -> s[1] instanceof FetchCancel c && c.req() == dublinReq),
                "the loser is cancelled");
    }

    @Test
    void hedge_staleWakeup_afterAFailureMovedTheHedgeLater_setsNoDuplicate_andTheNewOneHedges() {
        FakeNode node = new FakeNode();
        Manifest m = new Manifest("f.bin", "f1", DATA.length, 1 << 20, "local", "dublin", 1L,
                List.of(new Manifest.BlockRef(DATA.length, Checksums.crc32c(DATA), List.of("seoul", "mumbai", "dublin"))));
        PlannedFetch.fetch(node, m, 0, new ReadOptions(ReadOptions.Strategy.HEDGED, false), d -> {}, e -> {});
        assertEquals(List.of("dublin"), node.fetchedFrom());
        long firstHedge = node.wakeupsAt.get(0)[0];
        long dublinReq = ((FetchPaced) node.sent.get(0)[1]).req();
        node.now += MS;
        node.waiting.remove(dublinReq).onTimeout("timed out"); // dublin fails: mumbai is asked at once
        assertEquals(List.of("dublin", "mumbai"), node.fetchedFrom());
        assertEquals(2, node.wakeups.size(), "the hedge is re-armed for mumbai");
        long secondHedge = node.wakeupsAt.get(1)[0];
        assertTrue(secondHedge > firstHedge, "mumbai is farther: its hedge is later");

        node.now = firstHedge;
        node.wakeups.get(0).run(); // the first hedge's wake-up, now stale
        assertEquals(List.of("dublin", "mumbai"), node.fetchedFrom(), "the hedge is not due yet");
        assertEquals(2, node.wakeups.size(), "the wake-up already set for it stays the only one");

        node.now = secondHedge;
        node.wakeups.get(1).run();
        assertEquals(List.of("dublin", "mumbai", "seoul"), node.fetchedFrom(), "the hedge went out at its new time");
        assertEquals(2, node.wakeups.size());
    }
}
