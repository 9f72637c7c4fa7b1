package geoblocks.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExitCodesTest {
    /** The table as docs/usage.md lists it: scripts depend on these numbers. */
    @Test
    void table_isPinned() {
        assertEquals(1, ExitCodes.of(FailureCode.INTERNAL));
        assertEquals(3, ExitCodes.of(FailureCode.NOT_FOUND));
        assertEquals(4, ExitCodes.of(FailureCode.EXISTS));
        assertEquals(5, ExitCodes.of(FailureCode.NEWER_EXISTS));
        assertEquals(6, ExitCodes.of(FailureCode.BUSY));
        assertEquals(7, ExitCodes.of(FailureCode.UNAVAILABLE));
        assertEquals(8, ExitCodes.of(FailureCode.INVALID));
        assertEquals(9, ExitCodes.of(FailureCode.OUTCOME_UNKNOWN));
        assertEquals(10, ExitCodes.of(FailureCode.PRECONDITION_FAILED));
        assertEquals(11, ExitCodes.of(FailureCode.FORBIDDEN));
        assertEquals(12, ExitCodes.of(FailureCode.UNSUPPORTED));
        assertEquals(13, ExitCodes.of(FailureCode.INSUFFICIENT_STORAGE));
        assertEquals(14, ExitCodes.of(FailureCode.BLOCK_MISSING));
        assertEquals(15, ExitCodes.of(FailureCode.BLOCK_CORRUPT));
        assertEquals(16, ExitCodes.of(FailureCode.IO_ERROR));
    }

    /** A full disk, a missing block, a corrupt block and an I/O error: four exit codes, none the generic 1. */
    @Test
    void storageFailures_exitDistinctly() {
        Set<Integer> seen = new HashSet<>();
        for (FailureCode c : new FailureCode[] {FailureCode.INSUFFICIENT_STORAGE, FailureCode.BLOCK_MISSING,
                FailureCode.BLOCK_CORRUPT, FailureCode.IO_ERROR}) {
            int exit = ExitCodes.of(new NodeFailure(new Failure(c, "why")));
            assertTrue(seen.add(exit) && exit != ExitCodes.FAILURE, c + " -> " + exit);
        }
    }

    @Test
    void everyCode_hasItsOwnExitCode_apartFromSuccessAndUsage() {
        Set<Integer> seen = new HashSet<>();
        for (FailureCode c : FailureCode.values()) {
            int exit = ExitCodes.of(c);
            assertTrue(seen.add(exit), c + " shares exit code " + exit);
            assertTrue(exit != ExitCodes.OK && exit != ExitCodes.USAGE, c + " -> " + exit);
        }
    }

    @Test
    void exceptions_mapByTheirNodeCode_elseToGenericFailure() {
        assertEquals(3, ExitCodes.of(new NodeFailure(new Failure(FailureCode.NOT_FOUND, "no such file 'a'"))));
        assertEquals(1, ExitCodes.of(new IOException("no such file 'a'")), "a local failure's text is not read");
        assertEquals(1, ExitCodes.of(new IllegalStateException("x")));
    }
}
