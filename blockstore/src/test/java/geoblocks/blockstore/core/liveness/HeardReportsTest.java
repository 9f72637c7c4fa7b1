package geoblocks.blockstore.core.liveness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Proof of life passed to the failure detector: the first message of a peer, then one per spacing. */
class HeardReportsTest {
    @Test
    void aPeersMessages_areReportedOncePerSpacing_eachPeerOnItsOwn() {
        HeardReports r = new HeardReports(HeardReports.DEFAULT_SPACING_NANOS);
        assertTrue(r.shouldReport("dublin", 1_000_000_000L));
        assertFalse(r.shouldReport("dublin", 1_050_000_000L), "a block stream costs the detector no event per message");
        assertTrue(r.shouldReport("seoul", 1_050_000_000L));
        assertTrue(r.shouldReport("dublin", 1_100_000_000L), "a spacing after the last report");
        assertThrows(IllegalArgumentException.class, () -> new HeardReports(-1));
    }
}
