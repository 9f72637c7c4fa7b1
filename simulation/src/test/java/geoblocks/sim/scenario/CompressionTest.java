package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC experiment 6 with the real client and nodes, reduced (seed 3): 2 Mbit/s and 400 Mbit/s
 * client links, files of 300 kB and 3 MB, none and zstd, with given codec speeds (zstd: 100 MB/s
 * compress, 400 MB/s decompress, so results are deterministic): every file comes back intact
 * (and a 20-byte range of it, across a block boundary, exactly),
 * text is stored at about three quarters, random data as it is, compression pays on the slow
 * link for text and costs on the fast one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompressionTest {
    private static final List<Compression.Speed> SPEEDS = List.of(
            new Compression.Speed("text", "none", 1e9, 1e9), new Compression.Speed("text", "zstd", 100, 400),
            new Compression.Speed("random", "none", 1e9, 1e9), new Compression.Speed("random", "zstd", 100, 400));
    private final Compression.Params params = new Compression.Params(3, List.of(2.0, 400.0),
            List.of(300_000L, 3_000_000L), List.of("none", "zstd"), 1 << 20, SPEEDS);
    private Compression.Outcome out;
    private Path dir;

    @BeforeAll
    void run(@TempDir Path tmp) throws Exception {
        dir = tmp;
        out = Compression.run(params, new PrintStream(System.out));
        Compression.write(dir, params, out, true);
    }

    private Compression.Row row(double link, String content, long size, String mode) {
        return out.rows().stream().filter(r -> r.linkMbps() == link && r.content().equals(content) && r.size() == size
                && r.mode().equals(mode)).findFirst().orElseThrow();
    }

    @Test
    void everyFileComesBack_andTheCsvAndPngAreWritten() throws Exception {
        assertEquals(List.of(), out.errors());
        assertEquals(2 * 2 * 2 * 2, out.rows().size());
        List<String> lines = Files.readAllLines(dir.resolve("compression.csv"));
        assertEquals(Compression.HEADER, lines.get(0));
        assertEquals(1 + 16, lines.size());
        assertTrue(Files.size(dir.resolve("compression.png")) > 1000);
    }

    @Test
    void textIsStoredAtAboutThreeQuarters_randomAsItIs() {
        for (double link : params.linksMbps()) {
            for (long size : params.sizes()) {
                double text = (double) row(link, "text", size, "zstd").storedBytes() / size;
                assertTrue(text > 0.70 && text < 0.80, "text stored at " + text);
                assertEquals(size, row(link, "random", size, "zstd").storedBytes());
                assertEquals(size, row(link, "text", size, "none").storedBytes());
            }
        }
    }

    @Test
    void onTheSlowLinkTextCompressionPays_onTheFastLinkItCosts() {
        for (long size : params.sizes()) {
            Compression.Row none = row(2.0, "text", size, "none");
            Compression.Row zstd = row(2.0, "text", size, "zstd");
            assertTrue(zstd.uploadMs() + zstd.downloadMs() < 0.85 * (none.uploadMs() + none.downloadMs()),
                    "slow link: " + zstd + " vs " + none);
        }
        Compression.Row none = row(400.0, "text", 3_000_000L, "none");
        Compression.Row zstd = row(400.0, "text", 3_000_000L, "zstd");
        assertTrue(zstd.uploadMs() + zstd.downloadMs() > none.uploadMs() + none.downloadMs(),
                "fast link: " + zstd + " vs " + none);
        // random data gains nothing anywhere: the same bytes cross the link
        Compression.Row rnd = row(2.0, "random", 3_000_000L, "zstd");
        Compression.Row rndNone = row(2.0, "random", 3_000_000L, "none");
        assertTrue(Math.abs(rnd.uploadTransferMs() - rndNone.uploadTransferMs()) <= 0.02 * rndNone.uploadTransferMs(),
                rnd + " vs " + rndNone);
    }

    @Test
    void params_refuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Compression.Params(1, List.of(1.0), List.of(1L),
                List.of("zstd"), 1 << 20, null));
        assertThrows(IllegalArgumentException.class, () -> new Compression.Params(1, List.of(0.0), List.of(1L),
                List.of("none"), 1 << 20, null));
        assertThrows(IllegalArgumentException.class, () -> new Compression.Params(1, List.of(1.0), List.of(1L),
                List.of("none", "lz4"), 1 << 20, null));
    }
}
