package geoblocks.node.s3.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Settings;
import io.netty.buffer.Unpooled;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spool's quota and its disk's free space bound what bodies are admitted, counting those still arriving. */
class SpoolSpaceTest {
    final AtomicLong spooled = new AtomicLong();
    final AtomicLong usable = new AtomicLong(10_000);
    final AtomicLong clock = new AtomicLong(1_000_000);

    @Test
    void theQuota_countsTheDiskAndTheBodiesArriving_untilTheyEnd() throws Exception {
        SpoolSpace s = new SpoolSpace(1_000, 0, spooled::get, usable::get, clock::get);
        spooled.set(400);
        SpoolSpace.Reservation a = s.admit(500);
        S3Exception full = assertThrows(S3Exception.class, () -> s.admit(200));
        assertEquals(S3Error.SLOW_DOWN, full.error());
        assertTrue(full.getMessage().contains("geoblocks.s3.spool.quota"), full.getMessage());
        assertEquals(500, s.inFlight());
        spooled.set(900); // a's bytes landed
        a.release();
        a.release(); // once only
        assertEquals(0, s.inFlight());
        assertThrows(S3Exception.class, () -> s.admit(200), "900 on disk now, read again after a release");
        spooled.set(300); // stored and removed
        clock.addAndGet(SpoolSpace.REFRESH_MS);
        s.admit(200);
    }

    @Test
    void theDisksFreeSpace_keepsMinFree_whateverTheQuota() throws Exception {
        SpoolSpace s = new SpoolSpace(0, 2_000, spooled::get, usable::get, clock::get);
        SpoolSpace.Reservation a = s.admit(7_000);
        S3Exception low = assertThrows(S3Exception.class, () -> s.admit(1_500), "10,000 - 7,000 arriving - 1,500 < 2,000");
        assertTrue(low.getMessage().contains("min-free"), low.getMessage());
        a.release();
        s.admit(1_500);
    }

    @Test
    void aBodyTheSpoolHasNoRoomFor_isRefusedBeforeAFileIsMade(@TempDir Path dir) throws Exception {
        usable.set(1L << 40);
        SpoolSpace s = new SpoolSpace(100_000, 0, spooled::get, usable::get, clock::get);
        S3Settings settings = BodySpoolTest.settingsAt(dir);
        BodySpool.SpoolFull e = assertThrows(BodySpool.SpoolFull.class,
                () -> new BodySpool(settings, 200_000, false, null, s, b -> { }));
        assertEquals(S3Error.SLOW_DOWN, e.error().error());
        assertTrue(!Files.exists(dir.resolve("spool")) || isEmpty(dir.resolve("spool")), "no spool file made");

        BodySpool ok = new BodySpool(settings, 80_000, false, null, s, b -> { });
        assertEquals(80_000, s.inFlight());
        ok.onChunk(Unpooled.wrappedBuffer(new byte[80_000]));
        ok.onEnd();
        assertEquals(0, s.inFlight(), "an ended body is on disk: counted there, not as arriving");
        BodySpool dropped = new BodySpool(settings, 10_000, false, null, s, b -> { });
        dropped.onAbort();
        assertEquals(0, s.inFlight());
    }

    private static boolean isEmpty(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.findAny().isEmpty();
        }
    }
}
