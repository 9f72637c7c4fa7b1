package geoblocks.node.s3.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.bucket.LifecycleRules.Action;
import geoblocks.node.s3.bucket.LifecycleRules.Kind;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lifecycle evaluator with an explicit clock: which versions the rules expire or purge, and when. */
class LifecycleRulesTest {
    private static final long DAY = 10_000; // a shortened lifecycle day (as the s3-tests harness uses)

    private static ObjectVersions.V ver(String id, boolean latest, long modified, long size) {
        return new ObjectVersions.V("k", id, id + "@n", latest, false, size, modified, "e" + id);
    }

    private static ObjectVersions.V marker(String id, boolean latest, long modified) {
        return new ObjectVersions.V("k", id, id + "@n", latest, true, 0, modified, null);
    }

    private static LifecycleConfig config(String rules) throws S3Exception {
        return LifecycleConfig.parse(("<LifecycleConfiguration>" + rules + "</LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> decide(LifecycleConfig c, String key, List<ObjectVersions.V> vs, Map<String, String> tags, long now) {
        return LifecycleRules.decide(c, key, vs, tags, now, DAY).stream()
                .map(a -> a.kind() + " " + a.version().versionId() + " " + a.ruleId()).toList();
    }

    @Test
    void expirationDays_expiresTheCurrentVersion_exactlyDaysAfterItWasWritten_onlyUnderItsPrefix() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>r1</ID><Prefix>logs/</Prefix><Status>Enabled</Status>"
                + "<Expiration><Days>2</Days></Expiration></Rule>");
        List<ObjectVersions.V> one = List.of(ver("a", true, 1000, 5));
        assertEquals(List.of(), decide(c, "logs/x", one, Map.of(), 1000 + 2 * DAY - 1));
        assertEquals(List.of("EXPIRE_CURRENT a r1"), decide(c, "logs/x", one, Map.of(), 1000 + 2 * DAY));
        assertEquals(List.of(), decide(c, "data/x", one, Map.of(), 1000 + 100 * DAY), "another prefix");
        // a noncurrent version is not expired by Expiration; a current delete marker is not "expired" while versions remain
        List<ObjectVersions.V> under = List.of(marker("m", true, 5000), ver("a", false, 1000, 5));
        assertEquals(List.of(), decide(c, "logs/x", under, Map.of(), 1000 + 100 * DAY));
    }

    @Test
    void aDisabledRule_doesNothing_andExpirationDate_expiresEveryCurrentVersionFromThatDay() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>off</ID><Prefix></Prefix><Status>Disabled</Status>"
                + "<Expiration><Days>1</Days></Expiration></Rule>"
                + "<Rule><ID>date</ID><Filter><Prefix>past/</Prefix></Filter><Status>Enabled</Status>"
                + "<Expiration><Date>2015-01-01</Date></Expiration></Rule>");
        long jan2015 = 1_420_070_400_000L;
        List<ObjectVersions.V> fresh = List.of(ver("a", true, jan2015 + 999_999, 5)); // written after the date: still expires
        assertEquals(List.of(), decide(c, "past/x", fresh, Map.of(), jan2015 - 1));
        assertEquals(List.of("EXPIRE_CURRENT a date"), decide(c, "past/x", fresh, Map.of(), jan2015 + 2_000_000));
        assertEquals(List.of(), decide(c, "other/x", fresh, Map.of(), jan2015 + 1_000L * DAY), "the enabled rule's prefix only");
    }

    @Test
    void tagAndSizeFilters_mustAllHold_onTheCurrentVersion() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>t</ID><Filter><And><Prefix>p/</Prefix><Tag><Key>tmp</Key><Value>yes</Value></Tag>"
                + "<ObjectSizeGreaterThan>10</ObjectSizeGreaterThan><ObjectSizeLessThan>100</ObjectSizeLessThan></And></Filter>"
                + "<Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>");
        long late = 50 * DAY;
        assertEquals(List.of("EXPIRE_CURRENT a t"), decide(c, "p/x", List.of(ver("a", true, 0, 50)), Map.of("tmp", "yes", "o", "1"), late));
        assertEquals(List.of(), decide(c, "p/x", List.of(ver("a", true, 0, 50)), Map.of("tmp", "no"), late), "tag value differs");
        assertEquals(List.of(), decide(c, "p/x", List.of(ver("a", true, 0, 50)), Map.of(), late), "no tags");
        assertEquals(List.of(), decide(c, "p/x", List.of(ver("a", true, 0, 10)), Map.of("tmp", "yes"), late), "not above 10 bytes");
        assertEquals(List.of(), decide(c, "p/x", List.of(ver("a", true, 0, 100)), Map.of("tmp", "yes"), late), "not below 100");
        assertEquals(true, c.needsTags());
    }

    @Test
    void noncurrentVersions_arePurgedNoncurrentDaysAfterTheirSuccessorWasWritten_keepingTheNewerOnes() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>nc</ID><Filter></Filter><Status>Enabled</Status>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration></Rule>");
        List<ObjectVersions.V> vs = List.of(ver("c", true, 3 * DAY, 1), ver("b", false, 2 * DAY, 1), ver("a", false, 0, 1));
        // a became noncurrent at 2 DAY (b written), b at 3 DAY (c written)
        assertEquals(List.of(), decide(c, "k", vs, Map.of(), 3 * DAY - 1));
        assertEquals(List.of("PURGE_NONCURRENT a nc"), decide(c, "k", vs, Map.of(), 3 * DAY));
        assertEquals(List.of("PURGE_NONCURRENT b nc", "PURGE_NONCURRENT a nc"), decide(c, "k", vs, Map.of(), 4 * DAY));
        LifecycleConfig keepOne = config("<Rule><ID>nc</ID><Filter></Filter><Status>Enabled</Status>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>1"
                + "</NewerNoncurrentVersions></NoncurrentVersionExpiration></Rule>");
        assertEquals(List.of("PURGE_NONCURRENT a nc"), decide(keepOne, "k", vs, Map.of(), 100 * DAY), "b is the newest noncurrent: kept");
    }

    @Test
    void anExpiredDeleteMarker_goesWithExpiredObjectDeleteMarker_orDays_onlyOnceNothingIsLeftUnderIt() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>dm</ID><Prefix>test1/</Prefix><Status>Enabled</Status>"
                + "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration></Rule>");
        List<ObjectVersions.V> vs = List.of(marker("m", true, 2 * DAY), ver("a", false, 0, 1));
        assertEquals(List.of(), decide(c, "test1/a", vs, Map.of(), 3 * DAY - 1), "the version under it is still kept");
        // the version under it is purged in the same decision: then the marker is alone and goes too
        assertEquals(List.of("PURGE_DELETE_MARKER m dm", "PURGE_NONCURRENT a dm"), decide(c, "test1/a", vs, Map.of(), 3 * DAY));
        assertEquals(List.of("PURGE_DELETE_MARKER m dm"), decide(c, "test1/a", List.of(marker("m", true, 0)), Map.of(), 1));
        // with Days instead: the marker alone goes once it is that old
        LifecycleConfig days = config("<Rule><ID>d</ID><Prefix>test1/</Prefix><Status>Enabled</Status>"
                + "<Expiration><Days>5</Days></Expiration></Rule>");
        assertEquals(List.of(), decide(days, "test1/a", List.of(marker("m", true, 0)), Map.of(), 5 * DAY - 1));
        assertEquals(List.of("PURGE_DELETE_MARKER m d"), decide(days, "test1/a", List.of(marker("m", true, 0)), Map.of(), 5 * DAY));
        // a marker that is not the latest is never an expired object delete marker
        assertEquals(List.of(), decide(days, "test1/a", List.of(ver("b", true, 9 * DAY, 1), marker("m", false, 0)), Map.of(), 10 * DAY));
    }

    @Test
    void abortIncompleteMultipartUpload_abortsUploadsUnderThePrefix_daysAfterInitiation() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>mp</ID><Prefix>test1/</Prefix><Status>Enabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>"
                + "<Rule><ID>off</ID><Prefix>test2/</Prefix><Status>Disabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>");
        assertEquals(null, LifecycleRules.abort(c, "test1/a", 100, 100 + 2 * DAY - 1, DAY));
        assertEquals("mp", LifecycleRules.abort(c, "test1/a", 100, 100 + 2 * DAY, DAY));
        assertEquals(null, LifecycleRules.abort(c, "test2/a", 0, 100 * DAY, DAY), "a disabled rule");
        assertEquals(List.of(), LifecycleRules.decide(c, "test1/a", List.of(ver("a", true, 0, 1)), Map.of(), 100 * DAY, DAY),
                "abort rules expire no object");
    }

    @Test
    void noVersions_nothing() throws S3Exception {
        LifecycleConfig c = config("<Rule><ID>r</ID><Prefix></Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>");
        assertEquals(List.<Action>of(), LifecycleRules.decide(c, "k", List.of(), Map.of(), Long.MAX_VALUE / 2, DAY));
        assertEquals(Kind.EXPIRE_CURRENT, LifecycleRules.decide(c, "k", List.of(ver("a", true, 0, 1)), Map.of(), DAY, DAY).get(0).kind());
    }
}
