package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What counts as refused input: a node's own failed links (a dead peer it kept dialling) are not, so a
 * region that is down no longer makes the malformed counter of its peers climb; forbidden admin operations
 * count as unauthenticated.
 */
class RefusedInputTest {
    @Test
    void ownLinkFailures_areNotRefusedInput_forbiddenAdminOperationsAreUnauthenticated() {
        RefusedInput r = new RefusedInput("seoul", () -> 0, new NodeWide(1 << 20));
        long malformed = r.malformedOrUnexpected();
        long unauthenticated = r.unauthenticated();
        for (int i = 0; i < 5; i++) {
            r.linkFailed();
        }
        assertEquals(malformed, r.malformedOrUnexpected());
        assertEquals(5, r.linkFailures());
        r.forbidden();
        r.forbidden();
        assertEquals(unauthenticated + 2, r.unauthenticated());
        r.dropped();
        assertEquals(malformed + 1, r.malformedOrUnexpected());
    }
}
