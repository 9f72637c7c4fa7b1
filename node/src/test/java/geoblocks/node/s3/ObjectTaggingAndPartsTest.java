package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.multipart.MultipartUploads;
import geoblocks.node.s3.multipart.ObjectParts;
import geoblocks.node.s3.multipart.UploadListing;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ChecksumsTest;
import geoblocks.node.s3.object.TagSet;
import geoblocks.node.s3.xml.S3ListXml;
import geoblocks.node.s3.xml.S3ObjectXml;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Tag sets and their limits, ListMultipartUploads and ListParts pages, part boundaries of stored objects. */
class ObjectTaggingAndPartsTest {
    static byte[] tagging(Map<String, String> tags) {
        StringBuilder sb = new StringBuilder("<Tagging><TagSet>");
        tags.forEach((k, v) -> sb.append("<Tag><Key>").append(k).append("</Key><Value>").append(v).append("</Value></Tag>"));
        return sb.append("</TagSet></Tagging>").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void tagSet_limits() throws S3Exception {
        Map<String, String> ten = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            ten.put("k" + i, "v" + i);
        }
        assertEquals(10, TagSet.fromXml(tagging(ten), TagSet.MAX_OBJECT_TAGS).size());
        Map<String, String> eleven = new TreeMap<>(ten);
        eleven.put("k10", "v");
        assertEquals(S3Error.INVALID_TAG, assertThrows(S3Exception.class,
                () -> TagSet.fromXml(tagging(eleven), TagSet.MAX_OBJECT_TAGS)).error());
        assertEquals(11, TagSet.fromXml(tagging(eleven), TagSet.MAX_BUCKET_TAGS).size());
        String k128 = "é".repeat(128); // characters, not bytes
        assertEquals(1, TagSet.fromXml(tagging(Map.of(k128, "v".repeat(256))), 10).size());
        assertEquals(S3Error.INVALID_TAG, assertThrows(S3Exception.class,
                () -> TagSet.fromXml(tagging(Map.of(k128 + "x", "v")), 10)).error());
        assertEquals(S3Error.INVALID_TAG, assertThrows(S3Exception.class,
                () -> TagSet.fromXml(tagging(Map.of("k", "v".repeat(257))), 10)).error());
        assertEquals(S3Error.INVALID_TAG, assertThrows(S3Exception.class,
                () -> TagSet.fromQuery("a=1&a=2", 10)).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class,
                () -> TagSet.fromXml("<Tagging><TagSet><Tag><Key>a</Key></Tag></TagSet></Tagging>".getBytes(), 10)).error());
    }

    @Test
    void tagSet_headerAndStoredForm_roundTrip() throws S3Exception {
        TagSet t = TagSet.fromQuery("foo=bar&bar", 10);
        assertEquals(List.of("bar", "foo"), new ArrayList<>(t.tags().keySet())); // listed in key order
        assertEquals("", t.tags().get("bar"));
        Random r = new Random(3);
        for (int round = 0; round < 200; round++) {
            Map<String, String> m = new TreeMap<>();
            for (int i = 0; i < r.nextInt(11); i++) {
                m.put(random(r, 1 + r.nextInt(20)), random(r, r.nextInt(30)));
            }
            TagSet s = new TagSet(m);
            assertEquals(s, TagSet.decode(s.encode()));
        }
        String xml = new String(TagSet.fromQuery("a=%3C%26%3E", 10).xml(), StandardCharsets.UTF_8);
        assertTrue(xml.contains("<Key>a</Key><Value>&lt;&amp;&gt;</Value>"), xml);
    }

    private static String random(Random r, int n) {
        String alphabet = "aZ09 +=&%/é😀-_.~";
        StringBuilder sb = new StringBuilder();
        while (sb.codePointCount(0, sb.length()) < n) {
            sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        return sb.toString();
    }

    static MultipartUploads.Upload upload(String key, long at, String id) {
        return new MultipartUploads.Upload(id, "b", key, "t", at, new TreeMap<>());
    }

    @Test
    void uploadListing_ordersMarksAndRollsUp() {
        List<MultipartUploads.Upload> all = List.of(upload("b/1", 5, "u1"), upload("a", 9, "u2"), upload("a", 3, "u3"),
                upload("b/2", 1, "u4"), upload("c", 1, "u5"),
                new MultipartUploads.Upload("x", "other", "a", "t", 0, new TreeMap<>()));
        UploadListing.Page p = UploadListing.uploads(all, "b", null, null, null, null, 1000);
        assertEquals(List.of("u3", "u2", "u1", "u4", "u5"), p.uploads().stream().map(MultipartUploads.Upload::id).toList());
        assertFalse(p.truncated());
        UploadListing.Page p1 = UploadListing.uploads(all, "b", null, null, null, null, 2);
        assertEquals(List.of("u3", "u2"), p1.uploads().stream().map(MultipartUploads.Upload::id).toList());
        assertTrue(p1.truncated());
        UploadListing.Page p2 = UploadListing.uploads(all, "b", null, null, p1.nextKeyMarker(), p1.nextUploadIdMarker(), 2);
        assertEquals(List.of("u1", "u4"), p2.uploads().stream().map(MultipartUploads.Upload::id).toList());
        UploadListing.Page d = UploadListing.uploads(all, "b", null, "/", null, null, 1000);
        assertEquals(List.of("u3", "u2", "u5"), d.uploads().stream().map(MultipartUploads.Upload::id).toList());
        assertEquals(List.of("b/"), d.prefixes());
        assertEquals(List.of("u1", "u4"), UploadListing.uploads(all, "b", "b/", null, null, null, 10).uploads().stream()
                .map(MultipartUploads.Upload::id).toList());
        assertEquals(List.of("u1", "u4", "u5"), UploadListing.uploads(all, "b", null, null, "a", null, 10).uploads().stream()
                .map(MultipartUploads.Upload::id).toList());
    }

    @Test
    void partListing_pages() {
        List<MultipartUploads.Part> parts = new ArrayList<>();
        for (int n : new int[] {3, 1, 7, 2}) {
            parts.add(new MultipartUploads.Part(n, 10, "e" + n, Path.of("p" + n)));
        }
        UploadListing.Parts a = UploadListing.parts(parts, 0, 2);
        assertEquals(List.of(1, 2), a.parts().stream().map(MultipartUploads.Part::number).toList());
        assertTrue(a.truncated());
        UploadListing.Parts b = UploadListing.parts(parts, a.next(), 2);
        assertEquals(List.of(3, 7), b.parts().stream().map(MultipartUploads.Part::number).toList());
        assertFalse(b.truncated());
    }

    @Test
    void objectParts_boundaries() throws S3Exception {
        assertEquals(3, ObjectParts.count("abc-3"));
        assertEquals(0, ObjectParts.count("abc"));
        assertEquals(5, ObjectParts.uniform(new long[] {5, 5, 2}));
        assertEquals(-1, ObjectParts.uniform(new long[] {5, 4, 2}));
        assertEquals(-1, ObjectParts.uniform(new long[] {5, 6}));
        Map<String, String> meta = Map.of(ObjectParts.META, "5");
        assertArrayEquals(new long[] {0, 4}, ObjectParts.range(1, 12, "x-3", meta));
        assertArrayEquals(new long[] {10, 11}, ObjectParts.range(3, 12, "x-3", meta));
        assertArrayEquals(new long[] {0, 11}, ObjectParts.range(1, 12, "x", Map.of()));
        assertEquals(S3Error.INVALID_PART, assertThrows(S3Exception.class, () -> ObjectParts.range(2, 12, "x", Map.of())).error());
        assertEquals(S3Error.INVALID_PART, assertThrows(S3Exception.class, () -> ObjectParts.range(4, 12, "x-3", meta)).error());
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class, () -> ObjectParts.range(2, 12, "x-3", Map.of())).error());
    }

    @Test
    void multipart_checksumAndRepeatedComplete() throws S3Exception {
        MultipartUploads m = new MultipartUploads(() -> "id" + System.nanoTime());
        MultipartUploads.Upload u = m.create("b", "k", "t", 0, Checksums.Algorithm.CRC32, Checksums.Type.FULL_OBJECT, "GBALICE");
        assertEquals("GBALICE", u.initiator());
        String parts = new String(S3ObjectXml.listParts(u, new S3ListXml.Owner("GBOWNER", "owner"), new S3ListXml.Owner("GBALICE",
                "alice"), 0, 1000, UploadListing.parts(m.partsOf(u), 0, 1000)), StandardCharsets.UTF_8);
        assertTrue(parts.contains("<Initiator><ID>GBALICE</ID><DisplayName>alice</DisplayName></Initiator>"
                + "<Owner><ID>GBOWNER</ID><DisplayName>owner</DisplayName></Owner>"), parts);
        byte[] p1 = new byte[(int) MultipartUploads.MIN_PART];
        byte[] p2 = "tail".getBytes();
        m.addPart(u.id(), new MultipartUploads.Part(1, p1.length, "e1", Path.of("a"), Checksums.Algorithm.CRC32,
                ChecksumsTest.raw(Checksums.Algorithm.CRC32, p1), 1));
        m.addPart(u.id(), new MultipartUploads.Part(2, p2.length, "e2", Path.of("b"), Checksums.Algorithm.CRC32,
                ChecksumsTest.raw(Checksums.Algorithm.CRC32, p2), 2));
        byte[] whole = new byte[p1.length + p2.length];
        System.arraycopy(p2, 0, whole, p1.length, p2.length);
        String expected = Checksums.of(Checksums.Algorithm.CRC32, whole);
        assertEquals(S3Error.BAD_DIGEST, assertThrows(S3Exception.class, () -> m.complete(u.id(), "b", "k", List.of(1, 2),
                List.of("e1", "e2"), null, "AAAAAA==")).error());
        assertEquals(S3Error.INVALID_PART, assertThrows(S3Exception.class, () -> m.complete(u.id(), "b", "k", List.of(1, 2),
                List.of("e1", "e2"), Arrays.asList("AAAAAA==", null), null)).error());
        MultipartUploads.Completed c = m.complete(u.id(), "b", "k", List.of(1, 2), List.of("e1", "e2"), null, expected);
        assertEquals(expected, c.checksum());
        assertFalse(c.repeat());
        MultipartUploads.Completed again = m.complete(u.id(), "b", "k", List.of(1, 2), List.of("e1", "e2"), null, null);
        assertTrue(again.repeat());
        assertEquals(c.etag(), again.etag());
        assertEquals(S3Error.NO_SUCH_UPLOAD, assertThrows(S3Exception.class,
                () -> m.complete(u.id(), "b", "k", List.of(1), List.of("e1"))).error());
    }
}
