package geoblocks.node.jvmcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheStatusTest {
    static final CacheStatus.Fit FITS = new CacheStatus.Fits();

    @Test
    void aotGivenAndMapped_startsFromIt() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-Xmx1g", "-XX:AOTCache=/c/n.aot"), true, CacheKind.AOT, FITS, null);
        assertFalse(l.warning());
        assertEquals("geoblocks node seoul JVM: starts from the AOT cache /c/n.aot (mapped)", l.forNode("seoul"));
    }

    @Test
    void aotGivenNotMapped_warnsWithTheStampsReason() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:AOTCache=/c/n.aot"), false, CacheKind.AOT,
                new CacheStatus.Misfit("it was made by another JVM (x)"), null);
        assertTrue(l.warning());
        assertTrue(l.forNode("seoul").startsWith("warning: geoblocks node seoul JVM: the AOT cache /c/n.aot was refused by the JVM:"
                + " it was made by another JVM (x); this start is cold"), l.text());
    }

    @Test
    void aotGivenNotMappedNoStamp_pointsAtTheJvmsLines() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:AOTCache=/c/n.aot"), false, CacheKind.AOT,
                new CacheStatus.Unknown("no stamp"), null);
        assertTrue(l.warning());
        assertTrue(l.text().contains("lines above say why"), l.text());
    }

    @Test
    void cdsMappedAndFits_saysMadeForThisJarAndJvm() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:SharedArchiveFile=/c/n.jsa"), true, CacheKind.CDS, FITS, null);
        assertEquals("JVM: starts from the CDS archive /c/n.jsa, made for this jar and JVM", l.text());
    }

    @Test
    void cdsMappedButMisfit_warns_theJdksOwnArchiveStillSays_sharing() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:SharedArchiveFile=/c/n.jsa"), true, CacheKind.CDS,
                new CacheStatus.Misfit("it was made for another build of /x/node.jar"), null);
        assertTrue(l.warning());
        assertTrue(l.text().contains("does not fit: it was made for another build"), l.text());
    }

    @Test
    void cdsWithoutStamp_notAWarning_saysTheJvmWouldHaveWarned() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:SharedArchiveFile=/t/node.jsa"), true, CacheKind.CDS,
                new CacheStatus.Unknown("no stamp"), null);
        assertFalse(l.warning());
        assertTrue(l.text().contains("unless the JVM warned above"), l.text());
    }

    @Test
    void training_saysWhereItWrites() {
        CacheStatus.Line l = CacheStatus.describe(List.of("-XX:AOTCacheOutput=/c/n.aot.part"), false, CacheKind.AOT, FITS, null);
        assertEquals("JVM: a training run, writing its AOT cache to /c/n.aot.part as it exits", l.text());
    }

    @Test
    void noneGiven_oneWaiting_givesTheOption() {
        Path cache = Path.of("/opt/node-java25.aot");
        CacheStatus.Line l = CacheStatus.describe(List.of("-Xmx1g"), true, CacheKind.AOT, FITS,
                new CacheChoice.Use(cache, CacheStampTest.STAMP, CacheKind.AOT.useOptions(cache)));
        assertFalse(l.warning());
        assertTrue(l.text().contains("add -XX:AOTCache=/opt/node-java25.aot before -jar"), l.text());
    }

    @Test
    void noneGiven_aStaleOneBeside_saysWhyItDoesNotFit() {
        CacheStatus.Line l = CacheStatus.describe(List.of(), true, CacheKind.AOT, FITS,
                new CacheChoice.PassOver(Path.of("/opt/node-java25.aot"), "it was made by another JVM (x)"));
        assertFalse(l.warning());
        assertTrue(l.text().startsWith("JVM: starts cold; the AOT cache /opt/node-java25.aot does not fit: it was made by"
                + " another JVM (x)"), l.text());
    }

    @Test
    void noneGivenNoneWaiting_pointsAtTrain() {
        CacheStatus.Line l = CacheStatus.describe(List.of(), true, CacheKind.CDS, FITS, null);
        assertEquals("JVM: starts cold, with no CDS archive (java -jar node.jar train makes one)", l.text());
    }
}
