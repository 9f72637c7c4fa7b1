package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaFailuresTest {
    private static final FailureCode MISSING = FailureCode.BLOCK_MISSING;
    private static final FailureCode CORRUPT = FailureCode.BLOCK_CORRUPT;
    private static final FailureCode IO = FailureCode.IO_ERROR;

    @Test
    void combined_everyReplicaAStorageFailure_saysHowTheBlockIsLost() {
        assertEquals(MISSING, ReplicaFailures.combined(List.of(MISSING)));
        assertEquals(MISSING, ReplicaFailures.combined(List.of(MISSING, MISSING)));
        assertEquals(CORRUPT, ReplicaFailures.combined(List.of(MISSING, CORRUPT)), "no replica holds it intact");
        assertEquals(CORRUPT, ReplicaFailures.combined(List.of(IO, CORRUPT)));
        assertEquals(IO, ReplicaFailures.combined(List.of(MISSING, IO)));
    }

    @Test
    void combined_anyReplicaThatMayAnswerLater_isUnavailable() {
        for (FailureCode other : FailureCode.values()) {
            if (other != MISSING && other != CORRUPT && other != IO) {
                assertEquals(FailureCode.UNAVAILABLE, ReplicaFailures.combined(List.of(CORRUPT, other)), other.name());
            }
        }
        assertEquals(FailureCode.UNAVAILABLE, ReplicaFailures.combined(List.of()));
    }

    @Test
    void all_keepsEveryRegionsWords_andTheCombinedCode() {
        ReplicaFailures f = new ReplicaFailures();
        f.add("dublin", new Failure(MISSING, "no block here"));
        f.add("mumbai", new Failure(CORRUPT, "checksum"));
        assertEquals(2, f.size());
        BlockId id = BlockId.ofFileBlock("f", 0);
        assertEquals(new Failure(CORRUPT, "block " + id + ": every replica failed: dublin: no block here; mumbai: checksum"),
                f.all(id));
    }
}
