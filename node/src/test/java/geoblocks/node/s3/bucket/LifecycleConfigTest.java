package geoblocks.node.s3.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lifecycle configurations: parsed and checked with S3's error codes, and written back as they were given. */
class LifecycleConfigTest {
    private static LifecycleConfig parse(String rules) throws S3Exception {
        return LifecycleConfig.parse(("<LifecycleConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" + rules
                + "</LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8));
    }

    private static S3Error refused(String rules) {
        return assertThrows(S3Exception.class, () -> parse(rules)).error();
    }

    private static final String EXP = "<Expiration><Days>1</Days></Expiration>";

    @Test
    void parsesEveryActionAndFilter_andWritesThemBackTheSameWay() throws S3Exception {
        LifecycleConfig c = parse("<Rule><ID>a</ID><Prefix>logs/</Prefix><Status>Enabled</Status>" + EXP + "</Rule>"
                + "<Rule><ID>b</ID><Filter><And><Prefix>p/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag>"
                + "<ObjectSizeGreaterThan>1</ObjectSizeGreaterThan></And></Filter><Status>Disabled</Status>"
                + "<Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>3</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions>"
                + "</NoncurrentVersionExpiration></Rule>"
                + "<Rule><Filter></Filter><Status>Enabled</Status><Expiration><ExpiredObjectDeleteMarker>true"
                + "</ExpiredObjectDeleteMarker></Expiration>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>4</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>");
        assertEquals(3, c.rules().size());
        LifecycleConfig.Rule b = c.rules().get(1);
        assertEquals("p/", b.prefix());
        assertEquals(Map.of("k", "v"), b.tags());
        assertEquals(1L, b.sizeGreaterThan());
        assertEquals(1_893_456_000_000L, b.expirationDateMillis());
        assertEquals(3, b.noncurrentDays());
        assertEquals(2, b.newerNoncurrentVersions());
        assertEquals(4, c.rules().get(2).abortDays());
        assertEquals("rule-3", c.rules().get(2).id(), "a rule without an ID gets one");
        String xml = new String(c.toXml(), StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Rule><ID>a</ID><Prefix>logs/</Prefix><Status>Enabled</Status><Expiration><Days>1</Days>"), xml);
        assertTrue(xml.contains("<Date>2030-01-01T00:00:00.000Z</Date>"), xml);
        assertTrue(xml.contains("<Filter><Prefix></Prefix></Filter>"), xml);
        assertEquals(c, LifecycleConfig.parse(c.toXml()), "what GET answers parses to the same rules");
        assertEquals(1_506_470_400_000L, parse("<Rule><ID>d</ID><Prefix/><Status>Enabled</Status>"
                + "<Expiration><Date>2017-09-27</Date></Expiration></Rule>").rules().get(0).expirationDateMillis());
    }

    @Test
    void severalConditionsOutsideAnAnd_areTheirAnd_asCephTakesThem() throws S3Exception {
        LifecycleConfig.Rule r = parse("<Rule><ID>x</ID><Filter><Prefix>a/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag>"
                + "<ObjectSizeLessThan>9</ObjectSizeLessThan></Filter><Status>Enabled</Status>" + EXP + "</Rule>").rules().get(0);
        assertEquals("a/", r.prefix());
        assertEquals(Map.of("k", "v"), r.tags());
        assertEquals(9L, r.sizeLessThan());
        assertTrue(new String(parse("<Rule><ID>x</ID><Filter><Prefix>a/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></Filter>"
                + "<Status>Enabled</Status>" + EXP + "</Rule>").toXml(), StandardCharsets.UTF_8)
                .contains("<Filter><And><Prefix>a/</Prefix><Tag>"), "written back as an And");
    }

    @Test
    void refusesWithS3sCodes() {
        assertEquals(S3Error.INVALID_ARGUMENT, refused("<Rule><ID>" + "a".repeat(256) + "</ID><Prefix/><Status>Enabled</Status>" + EXP + "</Rule>"));
        assertEquals(S3Error.INVALID_ARGUMENT, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>" + EXP + "</Rule>"
                + "<Rule><ID>x</ID><Prefix>b</Prefix><Status>Enabled</Status>" + EXP + "</Rule>"));
        for (String status : new String[] {"enabled", "disabled", "invalid", ""}) {
            assertEquals(S3Error.MALFORMED_XML, refused("<Rule><ID>x</ID><Prefix/><Status>" + status + "</Status>" + EXP + "</Rule>"));
        }
        assertEquals(S3Error.INVALID_ARGUMENT, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>"
                + "<Expiration><Days>0</Days></Expiration></Rule>"));
        assertEquals(S3Error.INVALID_ARGUMENT, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>"
                + "<Expiration><Date>20200101</Date></Expiration></Rule>"));
        assertEquals(S3Error.INVALID_ARGUMENT, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>"
                + "<Expiration><Date>2020-01-01T10:00:00Z</Date></Expiration></Rule>"), "not at midnight");
        assertEquals(S3Error.MALFORMED_XML, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>"
                + "<Expiration><Days>1</Days><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration></Rule>"));
        assertEquals(S3Error.MALFORMED_XML, refused("<Rule><ID>x</ID><Prefix>a</Prefix><Filter><Prefix>b</Prefix></Filter>"
                + "<Status>Enabled</Status>" + EXP + "</Rule>"));
        assertEquals(S3Error.MALFORMED_XML, refused("<Rule><ID>x</ID><Filter><And><And></And></And></Filter>"
                + "<Status>Enabled</Status>" + EXP + "</Rule>"), "an And in an And");
        assertEquals(S3Error.INVALID_REQUEST, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status></Rule>"), "no action");
        assertEquals(S3Error.INVALID_REQUEST, refused("<Rule><ID>x</ID><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter>"
                + "<Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule>"), "aborts cannot filter by tags (S3)");
        assertEquals(S3Error.NOT_IMPLEMENTED, refused("<Rule><ID>x</ID><Prefix/><Status>Enabled</Status>"
                + "<Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition></Rule>"));
        assertEquals(S3Error.MALFORMED_XML, refused(""));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                () -> LifecycleConfig.parse("<nope/>".getBytes(StandardCharsets.UTF_8))).error());
    }

    @Test
    void theDefaultLifecycleSettings_parse_aDayOf24hEvery10min() {
        Config c = ConfigFactory.load().getConfig("geoblocks.s3.lifecycle");
        assertEquals(Duration.ofHours(24), c.getDuration("day"));
        assertEquals(Duration.ofMinutes(10), c.getDuration("interval"));
    }
}
