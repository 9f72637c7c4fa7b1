package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.node.s3.multipart.MultipartUploads;
import geoblocks.node.s3.object.ByteRange;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.S3Deletes;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.VersionListing;
import geoblocks.node.s3.xml.S3ListXml;
import geoblocks.node.s3.xml.S3Xml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Names, ranges, ETags, bucket records, multipart state and the XML documents of the gateway. */
class S3CoreTest {
    @Test
    void bucketNames_followS3Rules() {
        assertNull(S3Names.bucketProblem("photos-2024.eu"));
        assertNull(S3Names.bucketProblem("a-b.c-d"));
        for (String bad : List.of("ab", "Photos", "-abc", "abc-", "a..b", "foo-.bar", "foo.-bar", "192.168.1.1", "a_b", "x".repeat(64))) {
            assertNotNull(S3Names.bucketProblem(bad), bad);
        }
    }

    @Test
    void keys_refuseTraversalControlCharactersAndOverlongNames() {
        assertNull(S3Names.keyProblem("bkt", "a/b c/ü.txt"));
        assertNull(S3Names.keyProblem("bkt", "a..b/.hidden"));
        for (String bad : List.of("../etc/passwd", "a/../../b", "./x", "a/.", "a\\b", "a\u0000b", "")) {
            S3Exception e = S3Names.keyProblem("bkt", bad);
            assertNotNull(e, bad);
            assertEquals(S3Error.INVALID_ARGUMENT, e.error(), bad);
        }
        // S3's limit, 1,024 UTF-8 bytes, under any bucket name; the file name then fits geoblocks' 1,088 bytes
        String longestBucket = "b".repeat(63);
        assertNull(S3Names.bucketProblem(longestBucket));
        for (String key : List.of("k".repeat(1024), "\u00e9".repeat(512), "a/".repeat(512), "\uD83D\uDE00".repeat(256))) {
            assertNull(S3Names.keyProblem(longestBucket, key));
            assertEquals(Manifest.MAX_NAME_BYTES,
                    S3Names.fileName(longestBucket, key).getBytes(StandardCharsets.UTF_8).length);
            Manifest.validateName(S3Names.fileName(longestBucket, key));
        }
        for (String key : List.of("k".repeat(1025), "\u00e9".repeat(512) + "k", "\uD83D\uDE00".repeat(257))) {
            S3Exception e = S3Names.keyProblem("bkt", key);
            assertEquals(S3Error.KEY_TOO_LONG, e.error());
            assertTrue(e.getMessage().contains(key.getBytes(StandardCharsets.UTF_8).length + " UTF-8 bytes")
                    && e.getMessage().contains("at most 1024"), e.getMessage());
        }
        assertEquals("bkt/a", S3Names.fileName("bkt", "a"));
        assertEquals("bkt", S3Names.bucketOfRecord(S3Names.bucketFile("bkt")));
        assertNull(S3Names.bucketOfRecord("bkt/a"));
    }

    @Test
    void ranges_followRfc9110AndS3() throws Exception {
        assertEquals(new ByteRange(0, 99, false), ByteRange.copySource(null, 100));
        assertEquals(new ByteRange(0, 2, true), ByteRange.copySource("bytes=0-2", 100));
        for (String bad : List.of("0-2", "bytes=0", "bytes=hello-world", "bytes=0-bar", "bytes=hello-", "bytes=0-2,3-5", "bytes=5-2")) {
            assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> ByteRange.copySource(bad, 100)).error(), bad);
        }
        assertEquals(S3Error.INVALID_RANGE, assertThrows(S3Exception.class, () -> ByteRange.copySource("bytes=0-21", 5)).error());
        assertEquals(new ByteRange(0, 99, false), ByteRange.parse(null, 100));
        assertEquals(new ByteRange(10, 19, true), ByteRange.parse("bytes=10-19", 100));
        assertEquals(new ByteRange(90, 99, true), ByteRange.parse("bytes=90-500", 100));
        assertEquals(new ByteRange(50, 99, true), ByteRange.parse("bytes=50-", 100));
        assertEquals(new ByteRange(80, 99, true), ByteRange.parse("bytes=-20", 100));
        assertEquals(new ByteRange(0, 99, true), ByteRange.parse("bytes=-500", 100));
        assertEquals(new ByteRange(0, 99, false), ByteRange.parse("bytes=0-1,5-6", 100));
        assertEquals(new ByteRange(0, 99, false), ByteRange.parse("bytes=x-y", 100));
        assertEquals(new ByteRange(0, 99, false), ByteRange.parse("items=1-2", 100));
        assertEquals(S3Error.INVALID_RANGE, assertThrows(S3Exception.class, () -> ByteRange.parse("bytes=100-", 100)).error());
        assertEquals(S3Error.INVALID_RANGE, assertThrows(S3Exception.class, () -> ByteRange.parse("bytes=0-", 0)).error());
        assertEquals("bytes 10-19/100", new ByteRange(10, 19, true).contentRange(100));
        assertEquals(0, ByteRange.parse(null, 0).length());
    }

    @Test
    void etags_matchS3Values() {
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", ETags.hex(ETags.md5().digest(new byte[0])));
        // two parts "a" and "b": md5(md5("a") || md5("b")) - 2
        String a = ETags.hex(ETags.md5().digest("a".getBytes(StandardCharsets.US_ASCII)));
        String b = ETags.hex(ETags.md5().digest("b".getBytes(StandardCharsets.US_ASCII)));
        MessageDigest all = ETags.md5();
        all.update(HexFormat.of().parseHex(a));
        all.update(HexFormat.of().parseHex(b));
        assertEquals(ETags.hex(all.digest()) + "-2", ETags.multipart(List.of("\"" + a + "\"", b)));
        assertEquals("x", ETags.unquote("\"x\""));
    }

    @Test
    void bucketMeta_roundTripsAndRefusesDamage() throws Exception {
        BucketMeta m = new BucketMeta("bkt", "dublin", "localclosest", 1 << 20, true, 1234);
        assertEquals(m, BucketMeta.decode("bkt", m.encode()));
        assertTrue(!new String(m.encode(), StandardCharsets.UTF_8).contains("versioning"), "a record as before versioning");
        for (ObjectVersions.Status s : ObjectVersions.Status.values()) {
            assertEquals(m.withVersioning(s), BucketMeta.decode("bkt", m.withVersioning(s).encode()));
        }
        assertThrows(IOException.class, () -> BucketMeta.decode("bkt", (new String(m.encode(), StandardCharsets.UTF_8)
                + "versioning=maybe\n").getBytes(StandardCharsets.UTF_8)));
        assertThrows(IOException.class, () -> BucketMeta.decode("bkt", "format=1\nname=bkt\n".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IOException.class, () -> BucketMeta.decode("bkt",
                new String(m.encode(), StandardCharsets.UTF_8).replace("block-size=1048576", "block-size=x").getBytes(StandardCharsets.UTF_8)));
        assertThrows(IOException.class, () -> BucketMeta.decode("bkt", "garbage".getBytes(StandardCharsets.UTF_8)));
    }

    static final String E1 = "11111111111111111111111111111111";
    static final String E2 = "22222222222222222222222222222222";
    static final String E2B = "2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b";

    static MultipartUploads uploads() {
        AtomicInteger n = new AtomicInteger();
        return new MultipartUploads(() -> "up" + n.incrementAndGet());
    }

    /** A Complete whose store failed is taken back: the upload is open again with its parts, and completes again. */
    @Test
    void multipart_aFailedCompleteIsReopened_andCompletesAgain() throws Exception {
        MultipartUploads m = uploads();
        MultipartUploads.Upload u = m.create("bkt", "k", "text/plain", 100);
        m.addPart(u.id(), new MultipartUploads.Part(1, MultipartUploads.MIN_PART, E1, Path.of("p1")));
        m.addPart(u.id(), new MultipartUploads.Part(2, 3, E2, Path.of("p2")));
        MultipartUploads.Completed first = m.complete(u.id(), "bkt", "k", List.of(1, 2), List.of(E1, E2));
        assertEquals(S3Error.NO_SUCH_UPLOAD, assertThrows(S3Exception.class, () -> m.find(u.id(), "bkt", "k")).error());
        m.reopen(first); // the object was not stored
        assertEquals(2, m.find(u.id(), "bkt", "k").parts().size(), "open again, every part kept");
        MultipartUploads.Completed again = m.complete(u.id(), "bkt", "k", List.of(1, 2), List.of(E1, E2));
        assertFalse(again.repeat(), "stored for real this time, not answered as done");
        assertEquals(first.etag(), again.etag());
    }

    @Test
    void multipart_completeChecksOrderEtagsAndSizes() throws Exception {
        MultipartUploads m = uploads();
        MultipartUploads.Upload u = m.create("bkt", "k", "text/plain", 100);
        long big = MultipartUploads.MIN_PART;
        assertNull(m.addPart(u.id(), new MultipartUploads.Part(1, big, E1, Path.of("p1"))));
        assertNull(m.addPart(u.id(), new MultipartUploads.Part(2, 3, E2, Path.of("p2"))));
        MultipartUploads.Part old = m.addPart(u.id(), new MultipartUploads.Part(2, 4, E2B, Path.of("p2b")));
        assertEquals(Path.of("p2"), old.file());
        assertEquals(S3Error.INVALID_PART_ORDER, assertThrows(S3Exception.class,
                () -> m.complete(u.id(), "bkt", "k", List.of(2, 1), List.of(E2B, E1))).error());
        assertEquals(S3Error.INVALID_PART, assertThrows(S3Exception.class,
                () -> m.complete(u.id(), "bkt", "k", List.of(1, 2), List.of(E1, E2))).error());
        assertEquals(S3Error.NO_SUCH_UPLOAD, assertThrows(S3Exception.class,
                () -> m.complete(u.id(), "other", "k", List.of(1), List.of(E1))).error());
        assertEquals(1, m.size());
        MultipartUploads.Completed c = m.complete(u.id(), "bkt", "k", List.of(1, 2), List.of("\"" + E1 + "\"", E2B));
        assertEquals(big + 4, c.size());
        assertEquals(List.of(Path.of("p1"), Path.of("p2b")), c.parts().stream().map(MultipartUploads.Part::file).toList());
        assertTrue(c.etag().endsWith("-2"));
        assertEquals(0, m.size());
    }

    @Test
    void multipart_smallMiddlePart_abortAndExpiry() throws Exception {
        MultipartUploads m = uploads();
        MultipartUploads.Upload u = m.create("bkt", "k", "text/plain", 100);
        m.addPart(u.id(), new MultipartUploads.Part(1, 10, "e1", Path.of("p1")));
        m.addPart(u.id(), new MultipartUploads.Part(2, 10, "e2", Path.of("p2")));
        assertEquals(S3Error.ENTITY_TOO_SMALL, assertThrows(S3Exception.class,
                () -> m.complete(u.id(), "bkt", "k", List.of(1, 2), List.of("e1", "e2"))).error());
        assertEquals(2, m.abort(u.id(), "bkt", "k").size());
        assertEquals(S3Error.NO_SUCH_UPLOAD, assertThrows(S3Exception.class,
                () -> m.addPart(u.id(), new MultipartUploads.Part(3, 1, "e", Path.of("p")))).error());
        MultipartUploads.Upload old = m.create("bkt", "a", "text/plain", 100);
        m.addPart(old.id(), new MultipartUploads.Part(1, 10, "e1", Path.of("q1")));
        m.create("bkt", "b", "text/plain", 500);
        assertEquals(1, m.expire(200).size());
        assertEquals(1, m.size());
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> MultipartUploads.partNumber("10001")).error());
        assertEquals(10000, MultipartUploads.partNumber("10000"));
    }

    @Test
    void xml_escapesValuesAndParsesRequestBodies() throws Exception {
        String err = new String(S3Xml.error(S3Error.NO_SUCH_KEY, "no <key> & \"x\"", "/b/k<", "r1"), StandardCharsets.UTF_8);
        assertTrue(err.contains("<Code>NoSuchKey</Code>"), err);
        assertTrue(err.contains("<Message>no &lt;key&gt; &amp; &quot;x&quot;</Message>"), err);
        assertTrue(err.contains("<Resource>/b/k&lt;</Resource>"), err);
        assertFalse(S3Xml.escape("a\u0001b").contains("\u0001"));
        byte[] cfg = ("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<LocationConstraint>dublin</LocationConstraint></CreateBucketConfiguration>").getBytes(StandardCharsets.UTF_8);
        assertEquals("dublin", S3Xml.locationConstraint(cfg));
        assertNull(S3Xml.locationConstraint(new byte[0]));
        byte[] done = ("<CompleteMultipartUpload><Part><ETag>\"e1\"</ETag><PartNumber>1</PartNumber></Part>"
                + "<Part><PartNumber>2</PartNumber><ETag>e2</ETag></Part></CompleteMultipartUpload>").getBytes(StandardCharsets.UTF_8);
        List<Object[]> parts = S3Xml.completeParts(done);
        assertEquals(2, parts.size());
        assertEquals(1, parts.get(0)[0]);
        assertEquals("\"e1\"", parts.get(0)[1]);
        for (String bad : List.of("<CompleteMultipartUpload><Part>", "not xml", "<Other/>",
                "<CompleteMultipartUpload><Part><PartNumber>x</PartNumber><ETag>e</ETag></Part></CompleteMultipartUpload>",
                "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><CompleteMultipartUpload>&e;</CompleteMultipartUpload>")) {
            assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                    () -> S3Xml.completeParts(bad.getBytes(StandardCharsets.UTF_8))).error(), bad);
        }
    }

    @Test
    void deleteObjects_parsesKeysAndQuiet_andAnswersEscaped() throws Exception {
        byte[] body = ("<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true</Quiet>"
                + "<Object><Key>a &amp; b</Key></Object><Object><Key>c</Key><VersionId>v</VersionId></Object></Delete>")
                .getBytes(StandardCharsets.UTF_8);
        S3Xml.DeleteRequest r = S3Xml.deleteObjects(body);
        assertEquals(List.of("a & b", "c"), r.keys());
        assertTrue(r.quiet());
        assertEquals(Arrays.asList(null, "v"), r.versionIds());
        assertEquals(Arrays.asList(null, "\"e\""), S3Xml.deleteObjects(("<Delete><Object><Key>a</Key></Object>"
                + "<Object><Key>b</Key><ETag>\"e\"</ETag></Object></Delete>").getBytes(StandardCharsets.UTF_8)).etags());
        String withVersion = new String(S3Xml.deleteResult(List.of(new S3Deletes.Deleted("c", "v", false, null),
                new S3Deletes.Deleted("m", "w", true, null), new S3Deletes.Deleted("n", null, true, "x")), List.of()),
                StandardCharsets.UTF_8);
        assertTrue(withVersion.contains("<Deleted><Key>c</Key><VersionId>v</VersionId></Deleted>"), withVersion);
        assertTrue(withVersion.contains("<Deleted><Key>m</Key><VersionId>w</VersionId><DeleteMarker>true</DeleteMarker></Deleted>"),
                withVersion); // a delete marker deleted by its id
        assertTrue(withVersion.contains("<Deleted><Key>n</Key><DeleteMarker>true</DeleteMarker>"
                + "<DeleteMarkerVersionId>x</DeleteMarkerVersionId></Deleted>"), withVersion); // a marker made
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                () -> S3Xml.deleteObjects("<Delete></Delete>".getBytes(StandardCharsets.UTF_8))).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                () -> S3Xml.deleteObjects(("<Delete>" + "<Object><Key>k</Key></Object>".repeat(1001) + "</Delete>")
                        .getBytes(StandardCharsets.UTF_8))).error());
        String xml = new String(S3Xml.deleteResult(List.of(new S3Deletes.Deleted("a & b", null, false, null)), List.<String[]>of(new String[] {"<x>", "InvalidArgument", "bad"})),
                StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Deleted><Key>a &amp; b</Key></Deleted>"), xml);
        assertTrue(xml.contains("<Error><Key>&lt;x&gt;</Key><Code>InvalidArgument</Code><Message>bad</Message></Error>"), xml);
        assertTrue(new String(S3Xml.copyResult("abc", 0), StandardCharsets.UTF_8)
                .contains("<LastModified>1970-01-01T00:00:00.000Z</LastModified><ETag>&quot;abc&quot;</ETag>"));
    }

    @Test
    void listV1_carriesMarkerAndNextMarker() throws Exception {
        List<ObjectListing.Entry> keys = ObjectListingTest.keys("a/1", "a/2", "b", "c");
        ObjectListing.Query first = new ObjectListing.Query("", "/", null, null, 2);
        ObjectListing.Page p = ObjectListing.page(keys, first);
        String xml = new String(S3ListXml.listV1("bkt", first, null, p, false, null), StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Marker></Marker><NextMarker>b</NextMarker>"), xml);
        assertTrue(xml.contains("<IsTruncated>true</IsTruncated>"), xml);
        // the next page asks with marker=b, which the gateway turns into the token of item "b"
        ObjectListing.Page next = ObjectListing.page(keys,
                new ObjectListing.Query("", "/", null, ObjectListing.encodeToken("b"), 2));
        assertEquals(List.of("c"), ObjectListingTest.names(next));
        ObjectListing.Page afterPrefix = ObjectListing.page(keys,
                new ObjectListing.Query("", "/", null, ObjectListing.encodeToken("a/"), 1));
        assertEquals(List.of("b"), ObjectListingTest.names(afterPrefix));
    }

    @Test
    void listV2_documentCarriesPageAndEncodesKeys() throws Exception {
        ObjectListing.Query q = new ObjectListing.Query("a/", "/", null, null, 2);
        ObjectListing.Page p = new ObjectListing.Page(List.of(new ObjectListing.Entry("a/x&y", 3, 0, "abc")),
                List.of("a/b/"), true, "dG9r");
        String xml = new String(S3ListXml.listV2("bkt", q, null, p, false, null), StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Key>a/x&amp;y</Key>"), xml);
        assertTrue(xml.contains("<ETag>&quot;abc&quot;</ETag>"), xml);
        assertTrue(xml.contains("<KeyCount>2</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>dG9r"), xml);
        assertTrue(xml.contains("<CommonPrefixes><Prefix>a/b/</Prefix></CommonPrefixes>"), xml);
        String url = new String(S3ListXml.listV2("bkt", q, null, p, true, null), StandardCharsets.UTF_8);
        assertTrue(url.contains("<Key>a/x%26y</Key>"), url);
        assertTrue(!xml.contains("<Owner>"), "no owner unless fetch-owner");
        String owned = new String(S3ListXml.listV2("bkt", q, null, p, false, new S3ListXml.Owner("GBOWNER", "alice")),
                StandardCharsets.UTF_8);
        assertTrue(owned.contains("<StorageClass>STANDARD</StorageClass><Owner><ID>GBOWNER</ID><DisplayName>alice</DisplayName>"
                + "</Owner></Contents>"), owned);
    }

    @Test
    void versioningXml_parsesEnabledAndSuspended_refusesOthersAndMfa_andAnswersTheState() throws Exception {
        String ns = "<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
        assertEquals(ObjectVersions.Status.ENABLED, S3Xml.versioningStatus((ns + "<Status>Enabled</Status></VersioningConfiguration>")
                .getBytes(StandardCharsets.UTF_8)));
        assertEquals(ObjectVersions.Status.SUSPENDED, S3Xml.versioningStatus((ns + "<Status>Suspended</Status>"
                + "<MfaDelete>Disabled</MfaDelete></VersioningConfiguration>").getBytes(StandardCharsets.UTF_8)));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> S3Xml.versioningStatus(
                (ns + "<Status>On</Status></VersioningConfiguration>").getBytes(StandardCharsets.UTF_8))).error());
        assertEquals(S3Error.NOT_IMPLEMENTED, assertThrows(S3Exception.class, () -> S3Xml.versioningStatus(
                (ns + "<Status>Enabled</Status><MfaDelete>Enabled</MfaDelete></VersioningConfiguration>")
                        .getBytes(StandardCharsets.UTF_8))).error());
        assertTrue(!new String(S3Xml.versioning(ObjectVersions.Status.OFF), StandardCharsets.UTF_8).contains("<Status>"));
        assertTrue(new String(S3Xml.versioning(ObjectVersions.Status.SUSPENDED), StandardCharsets.UTF_8)
                .contains("<Status>Suspended</Status>"));
        VersionListing.Page p = new VersionListing.Page(List.of(new ObjectVersions.V("a&b", "null", "x", true, false, 3, 0, "e"),
                new ObjectVersions.V("a&b", "0000000000000001@seoul", "x", false, true, 0, 0, null)), List.of("d/"), true, "a&b",
                "0000000000000001@seoul");
        String xml = new String(S3ListXml.listVersions("bkt", "", "/", "", "", 2, p, false, new S3ListXml.Owner("GBOWNER", "alice")), StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Version><Key>a&amp;b</Key><VersionId>null</VersionId><IsLatest>true</IsLatest>"), xml);
        assertTrue(xml.contains("<DeleteMarker><Key>a&amp;b</Key><VersionId>0000000000000001@seoul</VersionId>"
                + "<IsLatest>false</IsLatest>"), xml);
        assertTrue(xml.contains("<NextKeyMarker>a&amp;b</NextKeyMarker><NextVersionIdMarker>0000000000000001@seoul"), xml);
        assertTrue(xml.contains("<CommonPrefixes><Prefix>d/</Prefix></CommonPrefixes>"), xml);
        assertTrue(xml.contains("<StorageClass>STANDARD</StorageClass><Owner><ID>GBOWNER</ID><DisplayName>alice</DisplayName>"
                + "</Owner></Version>"), xml);
        assertTrue(xml.contains("<Owner><ID>GBOWNER</ID><DisplayName>alice</DisplayName></Owner></DeleteMarker>"), xml);
    }
}
