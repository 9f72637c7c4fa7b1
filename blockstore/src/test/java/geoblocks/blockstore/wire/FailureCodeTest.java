package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailureCodeTest {
    @Test
    void wireValues_areDistinctAndRoundTrip() {
        Set<Integer> seen = new HashSet<>();
        for (FailureCode c : FailureCode.values()) {
            assertTrue(seen.add(c.wire()), "two codes share wire value " + c.wire());
            assertEquals(c, FailureCode.ofWire(c.wire()));
        }
    }

    /** The wire values are the protocol: changing one breaks every older peer. */
    @Test
    void wireValues_arePinned() {
        assertEquals(0, FailureCode.INTERNAL.wire());
        assertEquals(1, FailureCode.NOT_FOUND.wire());
        assertEquals(2, FailureCode.EXISTS.wire());
        assertEquals(3, FailureCode.NEWER_EXISTS.wire());
        assertEquals(4, FailureCode.BUSY.wire());
        assertEquals(5, FailureCode.UNAVAILABLE.wire());
        assertEquals(6, FailureCode.INVALID.wire());
        assertEquals(7, FailureCode.OUTCOME_UNKNOWN.wire());
        assertEquals(8, FailureCode.PRECONDITION_FAILED.wire());
        assertEquals(9, FailureCode.FORBIDDEN.wire());
        assertEquals(10, FailureCode.UNSUPPORTED.wire());
        assertEquals(11, FailureCode.INSUFFICIENT_STORAGE.wire());
        assertEquals(12, FailureCode.BLOCK_MISSING.wire());
        assertEquals(13, FailureCode.BLOCK_CORRUPT.wire());
        assertEquals(14, FailureCode.IO_ERROR.wire());
        assertEquals(15, FailureCode.values().length);
    }

    /** Each code's first file protocol version, and what an older version's message carries instead. */
    @Test
    void versions_newCodesFallBackToWhatTheFailureWasBefore() {
        for (FailureCode c : FailureCode.values()) {
            assertEquals(c, c.atVersion(5), c + " is in version 5");
            assertTrue(c.atVersion(3).since() <= 3, c + " at 3 is a code version 3 has");
        }
        assertEquals(4, FailureCode.UNSUPPORTED.since());
        assertEquals(FailureCode.INVALID, FailureCode.UNSUPPORTED.atVersion(3));
        assertEquals(FailureCode.INTERNAL, FailureCode.INSUFFICIENT_STORAGE.atVersion(3));
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, FailureCode.INSUFFICIENT_STORAGE.atVersion(4));
        for (FailureCode c : new FailureCode[] {FailureCode.BLOCK_MISSING, FailureCode.BLOCK_CORRUPT, FailureCode.IO_ERROR}) {
            assertEquals(5, c.since(), c.name());
        }
        assertEquals(FailureCode.UNAVAILABLE, FailureCode.BLOCK_MISSING.atVersion(4));
        assertEquals(FailureCode.UNAVAILABLE, FailureCode.BLOCK_CORRUPT.atVersion(4));
        assertEquals(FailureCode.INTERNAL, FailureCode.IO_ERROR.atVersion(4));
        assertEquals(FailureCode.INTERNAL, FailureCode.IO_ERROR.atVersion(3));
    }

    @Test
    void ofWire_unknownValue_throwsNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FailureCode.ofWire(42));
        assertTrue(e.getMessage().contains("42"), e.getMessage());
    }

    @Test
    void of_takesTheCodeOfAFailureException_elseTheFallback() {
        assertEquals(FailureCode.BUSY, FailureCode.of(new FailureException(FailureCode.BUSY, "full"), FailureCode.INVALID));
        assertEquals(FailureCode.INVALID, FailureCode.of(new IllegalArgumentException("bad"), FailureCode.INVALID));
    }

    @Test
    void failure_prefixedKeepsTheCode_andRepliesWithIt() {
        Failure f = new Failure(FailureCode.EXISTS, "file 'a' already exists").prefixed("upload of 'a' failed: ");
        assertEquals(new FileOp.Failed(9, FailureCode.EXISTS, "upload of 'a' failed: file 'a' already exists"), f.reply(9));
        assertEquals(f, Failure.of(f.reply(9)));
    }
}
