package geoblocks.node.s3.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.encryption.SseParams;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.TagSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multipart uploads written beside their parts and read back as a restarted gateway does. */
class MultipartJournalTest {
    @TempDir
    Path dir;

    MultipartUploads.Upload upload(String id, TreeMap<Integer, MultipartUploads.Part> parts) {
        return new MultipartUploads.Upload(id, "bkt", "a key/with spaces é", "text/plain", 1234, parts,
                Checksums.Algorithm.CRC32, Checksums.Type.FULL_OBJECT, "GBALICE");
    }

    @Test
    void anUpload_withItsPartsTagsHeadersAndEncryption_isReadBack() throws Exception {
        Path p1 = Files.write(dir.resolve("body-1.part"), new byte[] {1, 2, 3});
        Path p2 = Files.write(dir.resolve("body-2.part"), new byte[] {4, 5});
        TreeMap<Integer, MultipartUploads.Part> parts = new TreeMap<>();
        parts.put(1, new MultipartUploads.Part(1, 3, "e1", p1, Checksums.Algorithm.CRC32, new byte[] {9, 9, 9, 9}, 77));
        parts.put(2, new MultipartUploads.Part(2, 2, "e2", p2));
        SseParams sse = SseParams.newS3("k1", new Random(3));
        TagSet tags = TagSet.fromQuery("a=1&b=two", 10);
        MultipartJournal j = new MultipartJournal(dir);
        j.write(upload("up1", parts), tags, Map.of("x-amz-meta-z", "v w"), sse);

        List<String> damaged = new ArrayList<>();
        List<MultipartJournal.Recovered> back = new MultipartJournal(dir).load(damaged);
        assertEquals(List.of(), damaged);
        assertEquals(1, back.size());
        MultipartJournal.Recovered r = back.get(0);
        MultipartUploads.Upload u = r.upload();
        assertEquals("up1", u.id());
        assertEquals("a key/with spaces é", u.key());
        assertEquals("text/plain", u.contentType());
        assertEquals(Checksums.Type.FULL_OBJECT, u.checksumType());
        assertEquals("GBALICE", u.initiator());
        assertEquals(List.of(1, 2), new ArrayList<>(u.parts().keySet()));
        assertEquals(p1, u.parts().get(1).file());
        assertArrayEquals(new byte[] {9, 9, 9, 9}, u.parts().get(1).checksum());
        assertEquals(77, u.parts().get(1).addedMillis());
        assertNull(u.parts().get(2).checksumAlgorithm());
        assertArrayEquals(tags.encode(), r.tags().encode());
        assertEquals(Map.of("x-amz-meta-z", "v w"), r.headers());
        assertEquals(sse.encode(), r.sse().encode());
    }

    @Test
    void aPartWhoseFileIsGone_isLeftOut_aDamagedJournalIsDropped_andExpiredOnesAreRemoved() throws Exception {
        Path p1 = Files.write(dir.resolve("body-1.part"), new byte[] {1, 2, 3});
        TreeMap<Integer, MultipartUploads.Part> parts = new TreeMap<>();
        parts.put(1, new MultipartUploads.Part(1, 3, "e1", p1));
        parts.put(2, new MultipartUploads.Part(2, 5, "e2", dir.resolve("gone.part")));
        MultipartJournal j = new MultipartJournal(dir);
        j.write(upload("up1", parts), null, Map.of(), null);
        j.write(upload("up2", new TreeMap<>()), null, Map.of(), null);
        Files.writeString(j.file("up3"), "geoblocks-multipart-v1\nid=broken\n");
        List<String> damaged = new ArrayList<>();
        List<MultipartJournal.Recovered> back = j.load(damaged);
        assertEquals(2, back.size());
        assertEquals(List.of(1), new ArrayList<>(back.get(0).upload().parts().keySet()), "part 2's file is gone");
        assertEquals(1, damaged.size(), damaged.toString());
        assertFalse(Files.exists(j.file("up3")), "the damaged journal is removed");
        j.retain(Set.of("up2"));
        assertFalse(Files.exists(j.file("up1")));
        assertTrue(Files.exists(j.file("up2")));
        j.delete("up2");
        assertEquals(List.of(), j.load(new ArrayList<>()));
    }
}
