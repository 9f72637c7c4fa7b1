package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;
import java.util.Map;
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
        assertTrue(w.retry(NOT_DECIDED, 100 * S, true));
        assertTrue(w.retry(NOT_DECIDED, 115 * S - CreateWait.RETRY_NANOS, true), "the last retry fits the wait");
        assertFalse(w.retry(NOT_DECIDED, 115 * S - CreateWait.RETRY_NANOS + 1, true), "past the wait: answered");
    }

    @Test
    void otherRefusals_andNoWait_areAnsweredAtOnce() {
        assertFalse(new CreateWait(0, 15 * S).retry(EXISTS, 0, true));
        assertFalse(new CreateWait(0, 15 * S).retry(BUSY, 0, true), "busy is the client's to retry (503 SlowDown)");
        assertFalse(new CreateWait(0, 0).retry(NOT_DECIDED, 0, true), "create-wait = 0: no wait");
        assertThrows(IllegalArgumentException.class, () -> new CreateWait(0, -1));
    }

    private static final NodeStore.StoreException OWNER_DOWN = new NodeStore.StoreException(FailureCode.UNAVAILABLE,
            "cannot create '.s3-buckets/b' if absent now: its owner region mumbai is down or cut off from seoul, and only"
                    + " the owner decides creates (so two never both succeed)");

    /**
     * Once the node has settled after its start (it can decide creates and every peer's first probes settled), an
     * unavailable refusal, such as an owner region the detector knows is down or that refuses connections, is
     * answered at once (503) instead of after create-wait: waiting would not bring the owner back.
     */
    @Test
    void unavailable_onceTheNodeSettled_isAnsweredAtOnce() {
        CreateWait w = new CreateWait(100 * S, 15 * S);
        assertFalse(w.retry(OWNER_DOWN, 100 * S, false), "settled: the owner is down, not settling");
        assertTrue(w.retry(OWNER_DOWN, 100 * S, true), "settling after the start: the owner may be about to answer");
    }

    @Test
    void settling_whileNoSnapshot_createsNotReady_orAPeersFirstProbesHaveNotSettled() {
        assertTrue(CreateWait.settling(null), "no snapshot yet: the node just started");
        assertTrue(CreateWait.settling(snapshot(List.of(), "seoul started with no manifests")));
        assertTrue(CreateWait.settling(snapshot(List.of("mumbai"), null)));
        assertFalse(CreateWait.settling(snapshot(List.of(), null)));
    }

    private static NodeSnapshot snapshot(List<String> unsettled, String createsNotReady) {
        return new NodeSnapshot("seoul", 0, null, null, 0, Map.of(), List.of(),
                0, 0, 0, null, null, null, unsettled, Map.of(), createsNotReady, null);
    }
}
