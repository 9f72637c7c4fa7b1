package geoblocks.node.s3.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.lock.ObjectLock.Config;
import geoblocks.node.s3.lock.ObjectLock.Mode;
import geoblocks.node.s3.lock.ObjectLock.Retention;
import geoblocks.node.s3.lock.ObjectLock.Rule;
import geoblocks.node.s3.lock.ObjectLock.State;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ObjectLockTest {
    /** 2026-01-01T00:00:00Z */
    static final long T0 = 1_767_225_600_000L;
    final AtomicLong now = new AtomicLong(T0);
    final ObjectLock lock = new ObjectLock(now::get);

    static Retention gov(long until) {
        return new Retention(Mode.GOVERNANCE, until);
    }

    static Retention comp(long until) {
        return new Retention(Mode.COMPLIANCE, until);
    }

    @Test
    void governance_refusesDeletes_untilItsDate_unlessBypassed() {
        State s = new State(gov(T0 + 1000), false);
        assertNotNull(lock.deleteRefusal(s, false));
        assertNull(lock.deleteRefusal(s, true));
        now.set(T0 + 1000); // the date reached: nothing holds
        assertNull(lock.deleteRefusal(s, false));
    }

    @Test
    void compliance_refusesDeletes_evenBypassed_untilItsDate() {
        State s = new State(comp(T0 + 1000), false);
        assertNotNull(lock.deleteRefusal(s, true));
        now.set(T0 + 999);
        assertNotNull(lock.deleteRefusal(s, false));
        now.set(T0 + 1000);
        assertNull(lock.deleteRefusal(s, false));
    }

    @Test
    void legalHold_refusesDeletes_whateverTheRetention() {
        assertNotNull(lock.deleteRefusal(new State(null, true), true));
        assertNotNull(lock.deleteRefusal(new State(gov(T0 - 1), true), true));
        assertNull(lock.deleteRefusal(State.NONE, false));
    }

    @Test
    void retention_mayBeExtended_butShortenedOrChanged_onlyAsItsModeAllows() {
        Retention g = gov(T0 + 10_000);
        assertNull(lock.retentionRefusal(g, gov(T0 + 20_000), false)); // extended
        assertNull(lock.retentionRefusal(g, gov(T0 + 10_000), false)); // the same
        assertNotNull(lock.retentionRefusal(g, gov(T0 + 5_000), false)); // shortened
        assertNull(lock.retentionRefusal(g, gov(T0 + 5_000), true));
        assertNotNull(lock.retentionRefusal(g, comp(T0 + 10_000), false)); // mode changed
        assertNull(lock.retentionRefusal(g, comp(T0 + 10_000), true));
        assertNotNull(lock.retentionRefusal(g, null, false)); // removed
        assertNull(lock.retentionRefusal(g, null, true));

        Retention c = comp(T0 + 10_000);
        assertNull(lock.retentionRefusal(c, comp(T0 + 20_000), false));
        assertNotNull(lock.retentionRefusal(c, comp(T0 + 5_000), true));
        assertNotNull(lock.retentionRefusal(c, gov(T0 + 20_000), true));
        assertNotNull(lock.retentionRefusal(c, null, true));
        now.set(T0 + 10_000); // expired: anything goes
        assertNull(lock.retentionRefusal(c, gov(T0 + 10_001), false));
        assertNull(lock.retentionRefusal(null, gov(T0 + 10_001), false));
    }

    @Test
    void newVersion_takesTheAskedRetention_elseTheBucketDefault() throws S3Exception {
        Config days = new Config(new Rule(Mode.GOVERNANCE, 2, 0));
        Map<String, String> m = lock.versionMeta(days, ObjectLock.Requested.NONE);
        assertEquals(new State(gov(T0 + 2 * 86_400_000L), false), ObjectLock.ofMeta(m));

        Config years = new Config(new Rule(Mode.COMPLIANCE, 0, 1));
        assertEquals(comp(1_798_761_600_000L), ObjectLock.ofMeta(lock.versionMeta(years, ObjectLock.Requested.NONE)).retention()); // 2027-01-01

        ObjectLock.Requested asked = new ObjectLock.Requested(comp(T0 + 5), true);
        assertEquals(new State(comp(T0 + 5), true), ObjectLock.ofMeta(lock.versionMeta(days, asked)));
        assertEquals(Map.of(), lock.versionMeta(Config.ENABLED, ObjectLock.Requested.NONE));
        assertEquals(Map.of(), lock.versionMeta(null, ObjectLock.Requested.NONE));
        S3Exception e = assertThrows(S3Exception.class, () -> lock.versionMeta(null, asked));
        assertEquals(S3Error.INVALID_REQUEST, e.error());
    }

    @Test
    void headers_areChecked() throws S3Exception {
        Map<String, String> h = new HashMap<>();
        assertFalse(lock.requested(h::get).any());
        h.put("x-amz-object-lock-mode", "GOVERNANCE");
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> lock.requested(h::get)).error());
        h.put("x-amz-object-lock-retain-until-date", "2030-01-01T00:00:00Z");
        h.put("x-amz-object-lock-legal-hold", "ON");
        ObjectLock.Requested r = lock.requested(h::get);
        assertEquals(gov(1_893_456_000_000L), r.retention());
        assertTrue(r.legalHold());
        h.put("x-amz-object-lock-retain-until-date", "2025-01-01T00:00:00.5Z"); // past
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> lock.requested(h::get)).error());
        h.put("x-amz-object-lock-retain-until-date", "2030-01-01T00:00:00Z");
        h.put("x-amz-object-lock-mode", "governance");
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> lock.requested(h::get)).error());
        h.put("x-amz-object-lock-mode", "COMPLIANCE");
        h.put("x-amz-object-lock-legal-hold", "on");
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> lock.requested(h::get)).error());
    }

    @Test
    void encodings_roundTrip() {
        for (Config c : new Config[] {Config.ENABLED, new Config(new Rule(Mode.GOVERNANCE, 1, 0)),
                new Config(new Rule(Mode.COMPLIANCE, 0, 3))}) {
            assertEquals(c, Config.decode(c.encode()));
        }
        assertNull(Config.decode(null));
        assertEquals(comp(42), Retention.decode(comp(42).encode()));
        assertEquals(State.NONE, ObjectLock.ofMeta(Map.of("lock", "X12"))); // not ours: no lock
        assertThrows(IllegalArgumentException.class, () -> new Rule(Mode.GOVERNANCE, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Rule(Mode.GOVERNANCE, 0, 0));
    }

    @Test
    void bucketRecord_keepsTheConfiguration() throws Exception {
        BucketMeta b = new BucketMeta("b", "seoul", "local", 1 << 20, false, 1L)
                .withVersioning(ObjectVersions.Status.ENABLED).withObjectLock(new Config(new Rule(Mode.COMPLIANCE, 0, 2)));
        assertEquals(b, BucketMeta.decode("b", b.encode()));
        BucketMeta plain = new BucketMeta("b", "seoul", "local", 1 << 20, false, 1L);
        assertNull(BucketMeta.decode("b", plain.encode()).objectLock());
    }

    static byte[] xml(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void configurationDocument_isCheckedAsS3Does() throws S3Exception {
        String ns = "<ObjectLockConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
        Config c = ObjectLockXml.config(xml(ns + "<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention>"
                + "<Mode>GOVERNANCE</Mode><Days>1</Days></DefaultRetention></Rule></ObjectLockConfiguration>"));
        assertEquals(new Config(new Rule(Mode.GOVERNANCE, 1, 0)), c);
        assertEquals(c, ObjectLockXml.config(ObjectLockXml.config(c)));
        assertEquals(Config.ENABLED, ObjectLockXml.config(xml(ns + "<ObjectLockEnabled>Enabled</ObjectLockEnabled></ObjectLockConfiguration>")));
        String[][] bad = {
            {"<ObjectLockEnabled>Disabled</ObjectLockEnabled>", "MalformedXML"},
            {"<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days><Years>1</Years></DefaultRetention></Rule>", "MalformedXML"},
            {"<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>governance</Mode><Days>1</Days></DefaultRetention></Rule>", "MalformedXML"},
            {"<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>0</Days></DefaultRetention></Rule>", "InvalidRetentionPeriod"},
            {"<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Years>-1</Years></DefaultRetention></Rule>", "InvalidRetentionPeriod"},
            {"<ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode></DefaultRetention></Rule>", "MalformedXML"},
        };
        for (String[] b : bad) {
            S3Exception e = assertThrows(S3Exception.class, () -> ObjectLockXml.config(xml(ns + b[0] + "</ObjectLockConfiguration>")), b[0]);
            assertEquals(b[1], e.error().code(), b[0]);
        }
    }

    @Test
    void retentionAndLegalHoldDocuments() throws S3Exception {
        Retention r = ObjectLockXml.retention(xml("<Retention><Mode>COMPLIANCE</Mode><RetainUntilDate>2030-01-01T00:00:00.000Z"
                + "</RetainUntilDate></Retention>"));
        assertEquals(comp(1_893_456_000_000L), r);
        assertEquals(r, ObjectLockXml.retention(ObjectLockXml.retention(r)));
        assertNull(ObjectLockXml.retention(xml("<Retention/>")));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> ObjectLockXml.retention(
                xml("<Retention><Mode>abc</Mode><RetainUntilDate>2030-01-01T00:00:00Z</RetainUntilDate></Retention>"))).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> ObjectLockXml.retention(
                xml("<Retention><Mode>GOVERNANCE</Mode></Retention>"))).error());
        assertTrue(ObjectLockXml.legalHold(xml("<LegalHold><Status>ON</Status></LegalHold>")));
        assertFalse(ObjectLockXml.legalHold(ObjectLockXml.legalHold(false)));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> ObjectLockXml.legalHold(
                xml("<LegalHold><Status>abc</Status></LegalHold>"))).error());
    }

    @Test
    void pastRetention_isRefusedForPutObjectRetention() {
        assertThrows(S3Exception.class, () -> lock.checkFuture(gov(T0)));
        assertDoesNotThrow(() -> lock.checkFuture(gov(T0 + 1)));
        assertDoesNotThrow(() -> lock.checkFuture(null));
    }

    private static void assertDoesNotThrow(Executable e) {
        Assertions.assertDoesNotThrow(e);
    }
}
