package geoblocks.node.s3.multipart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ChecksumsTest;
import geoblocks.node.s3.xml.S3ObjectXml;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PartChecksumsTest {
    static MultipartUploads.Completed completed(Checksums.Algorithm upload, Checksums.Algorithm... parts) throws S3Exception {
        MultipartUploads m = new MultipartUploads(() -> "id" + System.nanoTime());
        MultipartUploads.Upload u = m.create("b", "k", "t", 0, upload, upload == null ? null : Checksums.defaultType(upload), null);
        List<Integer> numbers = new ArrayList<>();
        List<String> etags = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            byte[] body = ("part " + i).getBytes(StandardCharsets.UTF_8);
            byte[] padded = i < parts.length - 1 ? new byte[(int) MultipartUploads.MIN_PART] : body;
            m.addPart(u.id(), new MultipartUploads.Part(i + 1, padded.length, "e" + i, Path.of("p" + i), parts[i],
                    parts[i] == null ? null : ChecksumsTest.raw(parts[i], padded), i));
            numbers.add(i + 1);
            etags.add("e" + i);
        }
        return m.complete(u.id(), "b", "k", numbers, etags);
    }

    @Test
    void kept_onlyWhenEveryPartHasTheUploadsAlgorithm() throws S3Exception {
        Checksums.Algorithm sha = Checksums.Algorithm.SHA256;
        PartChecksums.Parts p = PartChecksums.of(completed(sha, sha, sha));
        assertEquals(2, p.values().size());
        assertEquals(Checksums.base64(ChecksumsTest.raw(sha, new byte[(int) MultipartUploads.MIN_PART])), p.part(1));
        assertNull(p.part(3));
        assertNull(PartChecksums.of(completed(sha, sha, null)));
        assertNull(PartChecksums.of(completed(null, (Checksums.Algorithm) null)));
    }

    @Test
    void record_roundTrips_andIsNamedByItsContent() throws S3Exception {
        PartChecksums.Parts p = new PartChecksums.Parts(Checksums.Algorithm.CRC32C, List.of("AAAAAA==", "BBBBBB=="));
        assertEquals(p, PartChecksums.Parts.decode(p.encode()));
        assertEquals(20, p.id().length());
        assertEquals(p.id(), new PartChecksums.Parts(Checksums.Algorithm.CRC32C, List.of("AAAAAA==", "BBBBBB==")).id());
        assertNotEquals(p.id(), new PartChecksums.Parts(Checksums.Algorithm.CRC32C, List.of("AAAAAA==", "CCCCCC==")).id());
    }

    @Test
    void attributes_listEachPartsChecksum() {
        PartChecksums.Parts p = new PartChecksums.Parts(Checksums.Algorithm.SHA1, List.of("one=", "two="));
        String xml = new String(S3ObjectXml.attributes(Set.of("objectparts"), "x-2", 15, null, 2, 10, 0, 1000, p),
                StandardCharsets.UTF_8);
        assertTrue(xml.contains("<PartNumber>1</PartNumber><Size>10</Size><ChecksumSHA1>one=</ChecksumSHA1>"), xml);
        assertTrue(xml.contains("<PartNumber>2</PartNumber><Size>5</Size><ChecksumSHA1>two=</ChecksumSHA1>"), xml);
        assertFalse(new String(S3ObjectXml.attributes(Set.of("objectparts"), "x-2", 15, null, 2, 10, 0, 1000),
                StandardCharsets.UTF_8).contains("ChecksumSHA1"));
    }
}
