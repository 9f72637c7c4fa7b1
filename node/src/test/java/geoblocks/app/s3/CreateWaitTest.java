package geoblocks.app.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FailureCode;
import org.junit.jupiter.api.Test;

class CreateWaitTest {
    private static final long S = 1_000_000_000L;
    private static final NodeStore.StoreException NOT_DECIDED = new NodeStore.StoreException(FailureCode.UNAVAILABLE,
            "saopaulo started with no manifests and has not yet compared them with every region that is up, so it"
                    + " cannot decide creates yet; retry in a few seconds");
    private static final NodeStore.StoreException EXISTS = new NodeStore.StoreException(FailureCode.EXISTS,
            "'.s3-buckets/b' already exists");
    private static final NodeStore.StoreException BUSY = new NodeStore.StoreException(FailureCode.BUSY, "node busy");

    @Test
    void unavailable_isAskedAgainUntilTheWaitRunsOut() {
        CreateWait w = new CreateWait(100 * S, 15 * S);
        assertTrue(w.retry(NOT_DECIDED, 100 * S));
        assertTrue(w.retry(NOT_DECIDED, 115 * S - CreateWait.RETRY_NANOS), "the last retry fits the wait");
        assertFalse(w.retry(NOT_DECIDED, 115 * S - CreateWait.RETRY_NANOS + 1), "past the wait: answered");
    }

    @Test
    void otherRefusals_andNoWait_areAnsweredAtOnce() {
        assertFalse(new CreateWait(0, 15 * S).retry(EXISTS, 0));
        assertFalse(new CreateWait(0, 15 * S).retry(BUSY, 0), "busy is the client's to retry (503 SlowDown)");
        assertFalse(new CreateWait(0, 0).retry(NOT_DECIDED, 0), "create-wait = 0: no wait");
        assertThrows(IllegalArgumentException.class, () -> new CreateWait(0, -1));
    }
}
