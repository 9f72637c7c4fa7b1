package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Request id series of issuers that share the ports their answers come back on. */
class RequestIdsTest {
    @Test
    void alone_issuesOneTwoThree_andEveryIdIsItsOwn() {
        RequestIds ids = RequestIds.alone();
        assertEquals(List.of(1L, 2L, 3L), List.of(ids.next(), ids.next(), ids.next()));
        assertTrue(ids.mine(0));
        assertTrue(ids.mine(-7));
        assertTrue(ids.mine(Long.MAX_VALUE));
    }

    @Test
    void twoIssuers_neverIssueTheSameId_andEachKnowsOnlyItsOwn() {
        RequestIds first = new RequestIds(1, 2);
        RequestIds second = new RequestIds(2, 2);
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            a.add(first.next());
            b.add(second.next());
        }
        assertEquals(List.of(1L, 3L, 5L, 7L), a);
        assertEquals(List.of(2L, 4L, 6L, 8L), b);
        for (long id : a) {
            assertTrue(first.mine(id));
            assertFalse(second.mine(id));
        }
        for (long id : b) {
            assertTrue(second.mine(id));
            assertFalse(first.mine(id));
        }
        assertTrue(first.mine(0), "an id no one issues is the first issuer's to count");
        assertTrue(first.mine(-3));
        assertFalse(second.mine(0));
        assertFalse(second.mine(-3));
    }

    @Test
    void issuerOutsideItsSet_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RequestIds(0, 2));
        assertThrows(IllegalArgumentException.class, () -> new RequestIds(3, 2));
        assertThrows(IllegalArgumentException.class, () -> new RequestIds(1, 0));
    }
}
