package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.BlockStreamHeader;
import geoblocks.net.NetAddress;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackgroundExpectationsTest {
    private static final long SEC = 1_000_000_000L;
    private static final NetAddress A = address(7001);
    private static final NetAddress B = address(7002);
    private final BackgroundExpectations<String> expected = new BackgroundExpectations<>(10 * SEC);
    /** The fake clock, in nanoseconds. */
    private long now = 1_000 * SEC;

    private static NetAddress address(int port) {
        return new NetAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static BlockStreamHeader header(String id, int length, int crc) {
        return new BlockStreamHeader(1, id, length, crc);
    }

    @Test
    void touchPeer_keepsEveryBlockFromThatPeerAlive_butNotOtherPeers() {
        expected.expect(A, "f-0", 100, 1, "first", now);
        expected.expect(A, "f-1", 100, 2, "queued behind it", now);
        expected.expect(B, "g-0", 100, 3, "other peer", now);
        assertEquals(2, expected.touchPeer(A, now + 8 * SEC).size());
        List<BackgroundExpectations.Expected<String>> gone = expected.expire(now + 12 * SEC);
        assertEquals(1, gone.size());
        assertEquals("g-0", gone.get(0).blockId);
        assertEquals(2, expected.expire(now + 19 * SEC).size());
    }

    @Test
    void join_sameBlockAlreadyExpected_combinesTheAttachment_andEndsAsOne() {
        assertTrue(expected.expect(A, "f-0", 100, 0xAB, "first", now));
        assertFalse(expected.expect(A, "f-0", 100, 0xAB, "retry", now), "a second expectation is not made");
        assertTrue(expected.join(A, "f-0", 100, 0xAB, first -> first + "+retry"));
        assertEquals(1, expected.size());
        assertNull(expected.admit(A, header("f-0", 100, 0xAB), now), "the one stream is still admitted");
        assertEquals("first+retry", expected.remove(A, "f-0").attachment);
    }

    @Test
    void join_nothingOrADifferentBlockExpected_changesNothing() {
        assertFalse(expected.join(A, "f-0", 100, 0xAB, first -> first + "+retry"), "nothing expected");
        expected.expect(A, "f-0", 100, 0xAB, "first", now);
        assertFalse(expected.join(A, "f-0", 99, 0xAB, first -> first + "+retry"), "other length");
        assertFalse(expected.join(A, "f-0", 100, 0xAC, first -> first + "+retry"), "other checksum");
        assertFalse(expected.join(B, "f-0", 100, 0xAB, first -> first + "+retry"), "other peer");
        assertEquals("first", expected.remove(A, "f-0").attachment);
    }

    @Test
    void admit_matchingHeaderFromTheExpectedPeer_isAccepted() {
        assertTrue(expected.expect(A, "f-0", 100, 0xAB, "scrub", now));
        assertNull(expected.admit(A, header("f-0", 100, 0xAB), now));
    }

    @Test
    void admit_unexpectedBlockOrWrongPeer_isRefusedNamingBoth() {
        expected.expect(A, "f-0", 100, 0xAB, "x", now);
        String why = expected.admit(B, header("f-0", 100, 0xAB), now);
        assertTrue(why.contains("f-0") && why.contains(B.toString()) && why.contains("not expected"), why);
        assertTrue(expected.admit(A, header("f-1", 100, 0xAB), now).contains("not expected"));
    }

    @Test
    void admit_wrongLengthOrChecksum_isRefusedNamingTheValues() {
        expected.expect(A, "f-0", 100, 0xAB, "x", now);
        assertTrue(expected.admit(A, header("f-0", 99, 0xAB), now).contains("99 bytes, expected 100"));
        assertTrue(expected.admit(A, header("f-0", 100, 0xAC), now).contains("000000ac, expected 000000ab"));
        assertNull(expected.admit(A, header("f-0", 100, 0xAB), now), "a refused header leaves the expectation idle");
    }

    @Test
    void admit_secondStreamForTheSameBlock_isRefused() {
        expected.expect(A, "f-0", 100, 0xAB, "x", now);
        assertNull(expected.admit(A, header("f-0", 100, 0xAB), now));
        assertTrue(expected.admit(A, header("f-0", 100, 0xAB), now).contains("already being received"));
    }

    @Test
    void expect_sameBlockTwice_keepsTheFirst() {
        assertTrue(expected.expect(A, "f-0", 100, 1, "first", now));
        assertFalse(expected.expect(A, "f-0", 100, 1, "second", now));
        assertEquals("first", expected.remove(A, "f-0").attachment);
        assertNull(expected.remove(A, "f-0"));
    }

    @Test
    void expire_withoutProgress_endsAfterTheTimeout_progressMovesTheDeadline() {
        expected.expect(A, "idle", 1, 1, "idle", now);
        expected.expect(A, "busy", 1, 1, "busy", now);
        now += 9 * SEC;
        assertEquals(List.of(), expected.expire(now));
        expected.touch(A, "busy", now);
        now += 2 * SEC;
        List<BackgroundExpectations.Expected<String>> gone = expected.expire(now);
        assertEquals(1, gone.size());
        assertEquals("idle", gone.get(0).attachment);
        assertEquals(1, expected.size());
        now += 7 * SEC; // 18 s: the touched one is due at 19 s
        assertEquals(List.of(), expected.expire(now));
        now += 2 * SEC;
        assertEquals("busy", expected.expire(now).get(0).attachment);
        assertEquals(0, expected.size());
    }

    @Test
    void admit_movesTheDeadline() {
        expected.expect(A, "f-0", 1, 1, "x", now);
        now += 9 * SEC;
        assertNull(expected.admit(A, header("f-0", 1, 1), now));
        now += 9 * SEC;
        assertEquals(List.of(), expected.expire(now));
    }

    /**
     * GcUnderFaults with the foreground hold on: pulls from seoul were in flight when seoul was
     * killed; its new incarnation never sends those blocks, yet it streams blocks asked for later,
     * and that progress kept the orphaned expectations (and the resumed move's copies joined to
     * them) alive until the end of the run.
     */
    @Test
    void anIdleBlock_passedOverByABlockAskedAfterItFromTheSamePeer_endsAtTheNextExpire_despiteThePeersProgress() {
        expected.expect(A, "orphan", 100, 1, "asked before the holder restarted", now);
        assertTrue(expected.join(A, "orphan", 100, 1, first -> first + "+resumed copy"));
        now += 11 * SEC; // more than the timeout later (the timeout is also the reordering allowed)
        expected.expect(A, "after", 100, 2, "asked after the restart", now);
        expected.expect(B, "other", 100, 3, "another peer's", now - 11 * SEC);
        assertNull(expected.admit(A, header("after", 100, 2), now));
        for (int i = 0; i < 30; i++) { // the holder keeps streaming: progress on its flow
            now += SEC;
            expected.touch(A, "after", now);
            List<BackgroundExpectations.Expected<String>> touched = expected.touchPeer(A, now);
            assertTrue(touched.stream().noneMatch(e -> e.blockId.equals("orphan")), "the orphan is not kept alive");
            List<BackgroundExpectations.Expected<String>> gone = expected.expire(now);
            if (i == 0) {
                assertEquals(2, gone.size(), gone.toString()); // the orphan and B's block (no progress from B)
                BackgroundExpectations.Expected<String> orphan = gone.stream()
                        .filter(e -> e.blockId.equals("orphan")).findFirst().orElseThrow();
                assertTrue(orphan.passedOver(), "ended as passed over, not as a plain timeout");
                assertEquals("asked before the holder restarted+resumed copy", orphan.attachment, "both callers learn it");
                assertFalse(gone.stream().filter(e -> e.blockId.equals("other")).findFirst().orElseThrow().passedOver());
            } else {
                assertEquals(List.of(), gone, "the block arriving stays");
            }
        }
        assertEquals(1, expected.size());
    }

    /**
     * GcUnderFaults seed 3: saopaulo was killed while its stream of a block to seoul was half way;
     * its new incarnation streams other blocks to seoul, and that progress kept the dead stream's
     * expectation (and the resumed move's copy joined to it) alive for 90 s.
     */
    @Test
    void aBlockWhoseStreamStopped_isNotKeptAliveByThePeersOtherBlocks_onlyByItsOwnData() {
        expected.expect(A, "dead", 100, 1, "its sender restarted mid-stream", now);
        expected.expect(A, "live", 100, 2, "streaming", now);
        assertNull(expected.admit(A, header("dead", 100, 1), now));
        now += 2 * SEC;
        assertNull(expected.admit(A, header("live", 100, 2), now));
        List<BackgroundExpectations.Expected<String>> gone = List.of();
        for (int i = 1; i <= 30 && gone.isEmpty(); i++) {
            now += SEC;
            assertNotNull(expected.touch(A, "live", now)); // the live stream's own data
            List<BackgroundExpectations.Expected<String>> touched = expected.touchPeer(A, now);
            assertTrue(touched.stream().noneMatch(e -> e.blockId.equals("dead")), "at " + i + " s: " + touched);
            gone = expected.expire(now);
        }
        assertEquals(1, gone.size(), gone.toString());
        assertEquals("dead", gone.get(0).blockId);
        assertEquals(1_000 * SEC + 11 * SEC, now, "ended one timeout after it was admitted, its last progress");
        assertNotNull(expected.touch(A, "live", now), "the live one stays");
    }

    @Test
    void anIdleBlock_askedWithinTheTimeoutOfTheBlockArriving_waitsItsTurnWhileThePeerProgresses() {
        expected.expect(A, "queued", 100, 1, "queued behind", now);
        now += 9 * SEC; // asked less than the timeout apart: the holder may serve them out of order
        expected.expect(A, "first", 100, 2, "arriving", now);
        assertNull(expected.admit(A, header("first", 100, 2), now));
        for (int i = 0; i < 60; i++) {
            now += SEC;
            expected.touch(A, "first", now); // its own data
            expected.touchPeer(A, now);
            assertEquals(List.of(), expected.expire(now), "at " + i + " s");
        }
        assertNull(expected.admit(A, header("queued", 100, 1), now), "its turn comes");
    }

    @Test
    void aBlockAlreadyArriving_isNotPassedOver_andAPassedOverBlockThatArrivesAfterAllIsTaken() {
        expected.expect(A, "arriving", 100, 1, "x", now);
        expected.expect(A, "late", 100, 4, "y", now);
        assertNull(expected.admit(A, header("arriving", 100, 1), now));
        now += 11 * SEC;
        expected.touch(A, "arriving", now);
        expected.expect(A, "after", 100, 2, "z", now);
        assertNull(expected.admit(A, header("after", 100, 2), now)); // passes "late" over, not "arriving"
        assertNull(expected.admit(A, header("late", 100, 4), now), "it came after all, before the expiry");
        assertEquals(List.of(), expected.expire(now + 1));
        assertEquals(3, expected.size());
    }

    @Test
    void badArguments_areRejectedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BackgroundExpectations<>(0));
        assertTrue(e.getMessage().contains("was 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> expected.expect(A, "f", -2, 0, "x", now));
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
    }
}
