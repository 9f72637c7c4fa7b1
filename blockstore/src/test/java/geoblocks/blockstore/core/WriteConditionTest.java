package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.WriteCondition.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The owner's check of a conditional write against the live head, as S3's conditional writes define it. */
class WriteConditionTest {
    private static Manifest head(String etag) {
        return new Manifest("b/k", "f", 0, 4, "local", "seoul", 1, List.of(), Version.legacy(1, "seoul"), 0, false,
                etag == null ? Map.of() : Map.of("etag", etag));
    }

    private static Outcome check(String ifMatch, String ifNoneMatch, Manifest head) {
        return WriteCondition.on("etag", ifMatch, ifNoneMatch).check(head);
    }

    @Test
    void ifNoneMatchStar_isACreateIfAbsent() {
        assertTrue(WriteCondition.ABSENT.absentOnly());
        assertEquals(Outcome.PASSED, WriteCondition.ABSENT.check(null));
        assertEquals(Outcome.EXISTS, WriteCondition.ABSENT.check(head("aaa")));
        assertEquals(Outcome.EXISTS, WriteCondition.ABSENT.check(head(null)), "a version without a tag exists too");
    }

    @Test
    void ifMatch_needsALiveVersionWhoseTagIsListed_quotedOrWeakOrNot() {
        assertEquals(Outcome.NOT_FOUND, check("*", null, null));
        assertEquals(Outcome.NOT_FOUND, check("\"aaa\"", null, null));
        assertEquals(Outcome.PASSED, check("*", null, head("aaa")));
        assertEquals(Outcome.PASSED, check("\"aaa\"", null, head("aaa")));
        assertEquals(Outcome.PASSED, check("aaa", null, head("\"aaa\"")));
        assertEquals(Outcome.PASSED, check("\"zzz\", W/\"aaa\"", null, head("aaa")));
        assertEquals(Outcome.MISMATCH, check("\"zzz\"", null, head("aaa")));
        assertEquals(Outcome.MISMATCH, check("\"aaa\"", null, head(null)), "no tag matches no listed tag");
        assertEquals(Outcome.MISMATCH, check("\"\"", null, head(null)));
    }

    @Test
    void ifNoneMatchTags_refuseOnlyWhenTheLiveTagIsListed() {
        assertEquals(Outcome.PASSED, check(null, "\"aaa\"", null), "no live version: nothing matches");
        assertEquals(Outcome.MISMATCH, check(null, "\"aaa\"", head("aaa")));
        assertEquals(Outcome.PASSED, check(null, "\"zzz\"", head("aaa")));
    }

    @Test
    void ifMatchIsDecidedFirst_thenIfNoneMatch() {
        assertEquals(Outcome.NOT_FOUND, check("\"aaa\"", "*", null));
        assertEquals(Outcome.EXISTS, check("\"aaa\"", "*", head("aaa")));
        assertEquals(Outcome.MISMATCH, check("\"zzz\"", "*", head("aaa")));
    }

    @Test
    void noneIsUnconditional_andPassesEverything() {
        assertTrue(WriteCondition.NONE.none());
        assertFalse(WriteCondition.NONE.absentOnly());
        assertEquals(Outcome.PASSED, WriteCondition.NONE.check(null));
        assertEquals(Outcome.PASSED, WriteCondition.NONE.check(head("aaa")));
        assertFalse(WriteCondition.on("etag", "*", null).absentOnly());
    }

    @Test
    void oversizeTagLists_andANullField_areRefusedWithTheReason() {
        String big = "x".repeat(WriteCondition.MAX_TAGS_BYTES + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WriteCondition.on("etag", big, null));
        assertTrue(e.getMessage().contains("If-Match holds 1025 bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WriteCondition.on("etag", null, big));
        assertThrows(IllegalArgumentException.class, () -> new WriteCondition(null, "*", null));
    }
}
