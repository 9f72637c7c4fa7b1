package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        java.util.List<BackgroundExpectations.Expected<String>> gone = expected.expire(now + 12 * SEC);
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

    @Test
    void badArguments_areRejectedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BackgroundExpectations<>(0));
        assertTrue(e.getMessage().contains("was 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> expected.expect(A, "f", -2, 0, "x", now));
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
    }
}
