package geoblocks.node.s3.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.object.ETags;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Small bodies stay in memory within the gateway's grant; others, and every part, go to a spool file. */
class BodySpoolTest {
    @TempDir
    Path dir;

    S3Settings settings() {
        return settingsAt(dir);
    }

    /** Gateway settings whose spool directory is {@code dir}/spool. */
    static S3Settings settingsAt(Path dir) {
        return S3Settings.builder().region("seoul").accessKey("k").secretKey("s").defaultPolicy("local")
                .defaultBlockSize(1 << 20).maxBlockSize(1 << 20).maxObjectSize(1L << 30).multipartExpiry(Duration.ofHours(1))
                .spoolDir(dir.resolve("spool")).migratedCopies(1).migrationSweepInterval(Duration.ofMinutes(1))
                .migrationRetryMin(Duration.ofSeconds(1)).migrationRetryMax(Duration.ofMinutes(1))
                .createWait(Duration.ofSeconds(15)).clusterSecret("test-cluster-secret-123").virtualHostDomains(List.of("localhost"))
                .lifecycleDay(Duration.ofDays(1)).lifecycleInterval(Duration.ofMinutes(10)).build();
    }

    static byte[] bytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    static BodySpool fill(BodySpool s, byte[] body, int chunk) throws IOException {
        for (int off = 0; off < body.length; off += chunk) {
            s.onChunk(Unpooled.wrappedBuffer(body, off, Math.min(chunk, body.length - off)));
        }
        s.onEnd();
        return s;
    }

    long spoolFiles() throws IOException {
        if (!Files.isDirectory(dir.resolve("spool"))) {
            return 0;
        }
        try (Stream<Path> f = Files.list(dir.resolve("spool"))) {
            return f.count();
        }
    }

    static byte[] read(BodySpool s) throws IOException {
        byte[] out = new byte[(int) s.size()];
        ByteBuffer b = ByteBuffer.wrap(out);
        // read it the way an upload does: a window at a time, at offsets
        for (int off = 0; off < out.length; off += 1000) {
            b.limit(Math.min(out.length, off + 1000)).position(off);
            s.source().read(off, b);
        }
        return out;
    }

    @Test
    void aSmallBodyStaysInMemoryAndGivesItsGrantBack() throws Exception {
        BodySpool.MemoryGrant grant = new BodySpool.MemoryGrant(10_000);
        byte[] body = bytes(4321);
        BodySpool s = fill(new BodySpool(settings(), body.length, true, grant, x -> { }), body, 1500);
        assertNull(s.file());
        assertEquals(0, spoolFiles());
        assertEquals(4321, grant.used());
        assertArrayEquals(body, read(s));
        assertArrayEquals(MessageDigest.getInstance("MD5").digest(body), s.md5());
        assertEquals(ETags.hex(MessageDigest.getInstance("SHA-256").digest(body)), s.sha256Hex());
        s.discard();
        s.discard(); // idempotent: the grant is given back once
        assertEquals(0, grant.used());
    }

    @Test
    void bodiesPastTheGrantOrTheSizeOrWithoutAGrantGoToAFile() throws Exception {
        BodySpool.MemoryGrant grant = new BodySpool.MemoryGrant(5_000);
        BodySpool held = new BodySpool(settings(), 4_000, false, grant, x -> { });
        BodySpool over = fill(new BodySpool(settings(), 2_000, false, grant, x -> { }), bytes(2_000), 700); // grant full
        BodySpool big = new BodySpool(settings(), BodySpool.MEMORY_MAX + 1, false, new BodySpool.MemoryGrant(1 << 30), x -> { });
        BodySpool part = new BodySpool(settings(), 10, false, null, x -> { });
        assertNull(held.file());
        assertNotNull(over.file());
        assertNull(over.source());
        assertArrayEquals(bytes(2_000), Files.readAllBytes(over.file()));
        assertNotNull(big.file());
        assertNotNull(part.file());
        assertEquals(3, spoolFiles());
        for (BodySpool s : new BodySpool[] {held, over, big, part}) {
            s.discard();
        }
        assertEquals(0, spoolFiles());
        assertEquals(0, grant.used());
    }

    @Test
    void moreBytesThanAnnouncedFailInMemoryAsInAFile() throws Exception {
        BodySpool.MemoryGrant grant = new BodySpool.MemoryGrant(10_000);
        BodySpool s = new BodySpool(settings(), 100, false, grant, x -> { });
        s.onChunk(Unpooled.wrappedBuffer(bytes(60)));
        IOException e = assertThrows(IOException.class, () -> s.onChunk(Unpooled.wrappedBuffer(bytes(60))));
        assertTrue(e.getMessage().contains("exceeds 100 bytes"), e.getMessage());
        assertEquals(0, grant.used(), "a failed body gives its memory back");
    }
}
