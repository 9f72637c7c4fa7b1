package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.ClientOp.StatReq;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Failed;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A client's new writes are refused at once while the metadata syncs fail; reads, and everything else, are taken. */
class SyncFaultRefusalTest {
    private static final String FAULT = "syncing the metadata engine has failed 3 time(s) over 2 s: No space left on device";

    @Test
    void aDelete_whileTheSyncsFail_isRefusedAsUnavailable_namingTheFault() {
        Failed f = SyncFaultRefusal.of(new DeleteReq(7, "a/b", WriteCondition.NONE, Map.of()), FAULT);
        assertEquals(7, f.req());
        assertEquals(FailureCode.UNAVAILABLE, f.code());
        assertTrue(f.error().contains(FAULT), f.error());
    }

    @Test
    void readsAreTaken_andWritesOnceTheSyncsWork() {
        assertNull(SyncFaultRefusal.of(new StatReq(8, "a/b", null), FAULT));
        assertNull(SyncFaultRefusal.of(new DeleteReq(9, "a/b", WriteCondition.NONE, Map.of()), null));
    }
}
