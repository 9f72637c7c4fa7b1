package geoblocks.app.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CreateWaitTest {
    private static final long S = 1_000_000_000L;
    private static final NodeStore.StoreException NOT_DECIDED = new NodeStore.StoreException("saopaulo started with no"
            + " manifests and has not yet compared them with every region that is up, so it cannot decide creates yet;"
            + " retry in a few seconds");
    private static final NodeStore.StoreException OWNER_DOWN = new NodeStore.StoreException("cannot create"
            + " '.s3-buckets/b' if absent now: its owner region mumbai is down or cut off from seoul");
    private static final NodeStore.StoreException TOO_FEW = new NodeStore.StoreException("upload of '.s3-buckets/b'"
            + " failed: tworandom needs 2 regions up, only [seoul] are");
    private static final NodeStore.StoreException EXISTS = new NodeStore.StoreException("'.s3-buckets/b' already exists");

    @Test
    void ownerCannotDecideYet_isAskedAgainUntilTheWaitRunsOut() {
        CreateWait w = new CreateWait(100 * S, 15 * S);
        assertTrue(w.retry(NOT_DECIDED, false, 100 * S));
        assertTrue(w.retry(NOT_DECIDED, false, 115 * S - CreateWait.RETRY_NANOS), "the last retry fits the wait");
        assertFalse(w.retry(NOT_DECIDED, false, 115 * S - CreateWait.RETRY_NANOS + 1), "past the wait: answered");
    }

    @Test
    void regionsDown_isAskedAgainOnlyWhileThisNodeIsStarting() {
        CreateWait w = new CreateWait(0, 15 * S);
        assertTrue(w.retry(OWNER_DOWN, true, S));
        assertTrue(w.retry(TOO_FEW, true, S));
        assertFalse(w.retry(OWNER_DOWN, false, S), "a region down after start-up: answered at once");
        assertFalse(w.retry(TOO_FEW, false, S));
    }

    @Test
    void otherRefusals_andNoWait_areAnsweredAtOnce() {
        assertFalse(new CreateWait(0, 15 * S).retry(EXISTS, true, 0));
        assertFalse(new CreateWait(0, 0).retry(NOT_DECIDED, true, 0), "create-wait = 0: no wait");
        assertThrows(IllegalArgumentException.class, () -> new CreateWait(0, -1));
    }
}
