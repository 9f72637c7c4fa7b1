package geoblocks.node.jvmcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheKindTest {
    @Test
    void forFeature_25AndLater_aot_17To24_cds() {
        assertEquals(CacheKind.CDS, CacheKind.forFeature(17));
        assertEquals(CacheKind.CDS, CacheKind.forFeature(24));
        assertEquals(CacheKind.AOT, CacheKind.forFeature(25));
        assertEquals(CacheKind.AOT, CacheKind.forFeature(26));
    }

    @Test
    void forFeature_below17_refusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheKind.forFeature(11));
        assertTrue(e.getMessage().contains("Java 11"), e.getMessage());
    }

    @Test
    void fileName_namesJarAndFeature() {
        assertEquals("node-java25.aot", CacheKind.AOT.fileName("node.jar", 25));
        assertEquals("node-java17.jsa", CacheKind.CDS.fileName("node.jar", 17));
        assertEquals("app-java21.jsa", CacheKind.CDS.fileName("app", 21));
    }

    @Test
    void options_recordAndUse_asTheJvmSpellsThem() {
        Path p = Path.of("/c/node-java25.aot");
        assertEquals(List.of("-XX:AOTCacheOutput=/c/node-java25.aot"), CacheKind.AOT.recordOptions(p));
        assertEquals(List.of("-XX:AOTCache=/c/node-java25.aot"), CacheKind.AOT.useOptions(p));
        assertEquals(List.of("-XX:ArchiveClassesAtExit=/c/x.jsa"), CacheKind.CDS.recordOptions(Path.of("/c/x.jsa")));
        assertEquals(List.of("-XX:SharedArchiveFile=/c/x.jsa"), CacheKind.CDS.useOptions(Path.of("/c/x.jsa")));
    }

    @Test
    void cacheIn_findsTheFileOfEitherKind_nullForOtherOptions() {
        assertEquals("a.aot", CacheKind.cacheIn("-XX:AOTCache=a.aot"));
        assertEquals("a.aot", CacheKind.cacheIn("-XX:AOTCacheOutput=a.aot"));
        assertEquals("b.jsa", CacheKind.cacheIn("-XX:SharedArchiveFile=b.jsa"));
        assertEquals("b.jsa", CacheKind.cacheIn("-XX:ArchiveClassesAtExit=b.jsa"));
        assertNull(CacheKind.cacheIn("-Xmx256m"));
    }

    @Test
    void records_onlyTrainingOptions() {
        assertTrue(CacheKind.records("-XX:AOTCacheOutput=a.aot"));
        assertTrue(CacheKind.records("-XX:ArchiveClassesAtExit=b.jsa"));
        assertFalse(CacheKind.records("-XX:AOTCache=a.aot"));
        assertFalse(CacheKind.records("-XX:SharedArchiveFile=b.jsa"));
    }

    @Test
    void chosenIn_anyCacheOptionOrSharingOff_otherwiseNot() {
        assertTrue(CacheKind.chosenIn(List.of("-Xmx1g", "-XX:SharedArchiveFile=x.jsa")));
        assertTrue(CacheKind.chosenIn(List.of("-XX:AOTMode=off")));
        assertTrue(CacheKind.chosenIn(List.of("-Xshare:off")));
        assertFalse(CacheKind.chosenIn(List.of("-Xmx1g", "-XX:TieredStopAtLevel=1")));
    }
}
