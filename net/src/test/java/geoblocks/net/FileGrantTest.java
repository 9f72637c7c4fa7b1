package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FileGrantTest {
    @Test
    void parseAll_readsEachModeAndFormatsBack() {
        List<FileGrant> g = FileGrant.parseAll("Reports/:r,Reports/out/:rw,Inbox/:w");
        assertEquals(List.of(new FileGrant("Reports/", true, false), new FileGrant("Reports/out/", true, true),
                new FileGrant("Inbox/", false, true)), g);
        assertEquals("Reports/:r,Reports/out/:rw,Inbox/:w", FileGrant.format(g));
        assertEquals(List.of(), FileGrant.parseAll(""));
    }

    @Test
    void parse_prefixMayHoldAColon() {
        assertEquals(new FileGrant("a:b/", true, true), FileGrant.parse("a:b/:rw"));
    }

    @Test
    void parse_refusesMissingOrUnknownMode() {
        assertThrows(IllegalArgumentException.class, () -> FileGrant.parse("Reports/"));
        assertThrows(IllegalArgumentException.class, () -> FileGrant.parse("Reports/:x"));
        assertThrows(IllegalArgumentException.class, () -> FileGrant.parse("Reports/:"));
        assertThrows(IllegalArgumentException.class, () -> FileGrant.parseAll("A/:r,"));
        assertThrows(IllegalArgumentException.class, () -> new FileGrant("a\nb", true, false));
    }

    @Test
    void accessKey_readsAndWritesOnlyUnderItsGrants() {
        AccessKey k = new AccessKey("GBKEY", FileGrant.parseAll("Reports/:r,Inbox/:w"));
        assertTrue(k.reads("Reports/q1.pdf"));
        assertFalse(k.writes("Reports/q1.pdf"));
        assertTrue(k.writes("Inbox/x"));
        assertFalse(k.reads("Inbox/x"));
        assertFalse(k.reads("Other/x"));
        assertTrue(k.readsAllUnder("Reports/2024/"));
        assertFalse(k.readsAllUnder("Rep"));
    }
}
