package geoblocks.node.jvmcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CacheStampTest {
    static final CacheStamp STAMP = new CacheStamp(CacheKind.AOT, new JarId("/opt/geoblocks/node.jar", 50_203_923, 1_796_940_840_000L),
            new JvmId("/usr/lib/jvm/temurin-25", "25.0.2+10-LTS", "Eclipse Adoptium"), Instant.parse("2026-12-07T22:20:00Z"));

    @Test
    void toText_parse_roundTrips() throws Exception {
        assertEquals(STAMP, CacheStamp.parse(STAMP.toText()));
    }

    @Test
    void parse_missingKey_namesIt() {
        String text = STAMP.toText().replaceAll("(?m)^jvm\\.vendor=.*$", "");
        CacheStamp.BadStampException e = assertThrows(CacheStamp.BadStampException.class, () -> CacheStamp.parse(text));
        assertTrue(e.getMessage().contains("jvm.vendor"), e.getMessage());
    }

    @Test
    void parse_otherVersion_namesBoth() {
        String text = STAMP.toText().replaceAll("(?m)^version=1$", "version=9");
        CacheStamp.BadStampException e = assertThrows(CacheStamp.BadStampException.class, () -> CacheStamp.parse(text));
        assertTrue(e.getMessage().contains("version 9") && e.getMessage().contains("version 1"), e.getMessage());
    }

    @Test
    void parse_badNumberOrKind_isABadStamp() {
        assertThrows(CacheStamp.BadStampException.class,
                () -> CacheStamp.parse(STAMP.toText().replaceAll("(?m)^jar\\.size=.*$", "jar.size=lots")));
        assertThrows(CacheStamp.BadStampException.class,
                () -> CacheStamp.parse(STAMP.toText().replaceAll("(?m)^kind=.*$", "kind=JIT")));
        assertThrows(CacheStamp.BadStampException.class, () -> CacheStamp.parse(""));
    }

    @Test
    void fileNameFor_besideTheCache() {
        assertEquals("node-java25.aot.stamp", CacheStamp.fileNameFor("node-java25.aot"));
    }
}
