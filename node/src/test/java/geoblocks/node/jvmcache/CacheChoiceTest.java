package geoblocks.node.jvmcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheChoiceTest {
    static final CacheStamp STAMP = CacheStampTest.STAMP;
    static final JarId JAR = STAMP.jar();
    static final JvmId JVM = STAMP.jvm();
    static final Path CACHE = Path.of("/opt/geoblocks/node-java25.aot");

    @Test
    void choose_sameJarAndJvm_usesItWithTheUseOptions() {
        CacheChoice.Use use = assertInstanceOf(CacheChoice.Use.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, STAMP, null, JAR, JVM));
        assertEquals(List.of("-XX:AOTCache=" + CACHE), use.options());
        assertEquals(STAMP, use.stamp());
    }

    @Test
    void choose_noFile_absent() {
        assertInstanceOf(CacheChoice.Absent.class, CacheChoice.choose(CacheKind.AOT, CACHE, false, null, null, JAR, JVM));
    }

    @Test
    void choose_rebuiltJar_passesOverNamingSizesAndTimes() {
        JarId rebuilt = new JarId(JAR.path(), JAR.size() + 10, JAR.modifiedMillis() + 60_000);
        CacheChoice.PassOver p = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, STAMP, null, rebuilt, JVM));
        assertTrue(p.why().contains("another build of /opt/geoblocks/node.jar") && p.why().contains("50203923 bytes")
                && p.why().contains("50203933 bytes"), p.why());
    }

    @Test
    void choose_jarElsewhere_passesOverNamingBothPaths() {
        JarId moved = new JarId("/srv/node.jar", JAR.size(), JAR.modifiedMillis());
        CacheChoice.PassOver p = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, STAMP, null, moved, JVM));
        assertTrue(p.why().contains("/opt/geoblocks/node.jar") && p.why().contains("/srv/node.jar"), p.why());
    }

    @Test
    void choose_otherJvmBuild_passesOverNamingBoth() {
        JvmId other = new JvmId(JVM.home(), "25.0.1+8-LTS", JVM.vendor());
        CacheChoice.PassOver p = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, STAMP, null, JAR, other));
        assertTrue(p.why().contains("another JVM") && p.why().contains("25.0.2+10-LTS") && p.why().contains("25.0.1+8-LTS"),
                p.why());
    }

    @Test
    void choose_noOrBadStamp_passesOverSayingSo() {
        CacheChoice.PassOver none = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, null, null, JAR, JVM));
        assertTrue(none.why().contains("node-java25.aot.stamp is missing"), none.why());
        CacheChoice.PassOver bad = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.AOT, CACHE, true, null, "no 'kind'", JAR, JVM));
        assertTrue(bad.why().contains("cannot be read: no 'kind'"), bad.why());
    }

    @Test
    void choose_stampOfTheOtherKind_passesOver() {
        CacheChoice.PassOver p = assertInstanceOf(CacheChoice.PassOver.class,
                CacheChoice.choose(CacheKind.CDS, CACHE, true, STAMP, null, JAR, JVM));
        assertTrue(p.why().contains("AOT cache") && p.why().contains("CDS archive"), p.why());
    }

    @Test
    void mismatch_sameJarAndJvm_null() {
        assertNull(CacheChoice.mismatch(STAMP, JAR, JVM));
    }
}
