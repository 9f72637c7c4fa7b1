package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.RttMatrix;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC experiments 1 and 2 with the real nodes, reduced to 2 files per cell and 1 run (seed 7):
 * the full policy x block-size matrix is written, every transfer succeeds, replicas land where each
 * policy says, and bandwidth makes a remote 1 MB block cost its transmission time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlacementTest {
    private final Placement.Params params = new Placement.Params(7, Placement.Params.spec(7).experiments(), 1, 2,
            1 << 20, List.of(64 << 10, 1 << 20), Placement.POLICIES);
    private Placement.Outcome out;
    private Path dir;

    @BeforeAll
    void run(@TempDir Path tmp) throws Exception {
        dir = tmp;
        out = Placement.run(params, new PrintStream(System.out));
        Placement.write(dir, params, out, false);
        System.out.println("placement wall " + out.wallMs() + " ms");
    }

    @Test
    void everyTransferSucceeds_andTheFullMatrixIsWritten() throws Exception {
        assertEquals(List.of(), out.errors());
        assertEquals(2 * 5 * 2 * 2, out.rows().size());
        for (Placement.Row r : out.rows()) {
            assertTrue(r.uploadMs() > 0 && r.downloadMs() > 0, r.toString());
        }
        List<String> lines = Files.readAllLines(dir.resolve("placement.csv"));
        assertEquals("experiment,upload_site,download_site,policy,block_size_bytes,run,file_index,upload_ms,download_ms",
                lines.get(0));
        assertEquals(41, lines.size());
        assertEquals(1 + 2 * 5 * 2, Files.readAllLines(dir.resolve("summary.csv")).size());
    }

    @Test
    void replicasLandWherePoliciesSay() {
        RttMatrix rtt = RttMatrix.specDefaults();
        assertEquals(2 * 2 * (16 + 1) * 5, out.replicas().size(), "every block of every file");
        for (Placement.Replicas r : out.replicas()) {
            String up = r.experiment().uploadSite();
            List<String> others = Placement.REGIONS.stream().filter(x -> !x.equals(up)).toList();
            String closest = others.stream().min((a, b) -> Double.compare(rtt.rttMs(up, a), rtt.rttMs(up, b))).orElseThrow();
            String farthest = others.stream().max((a, b) -> Double.compare(rtt.rttMs(up, a), rtt.rttMs(up, b))).orElseThrow();
            List<String> got = r.regions();
            switch (r.policy()) {
                case "local" -> assertEquals(List.of(up), got, r.toString());
                case "localclosest" -> assertEquals(List.of(up, closest), got, r.toString());
                case "localfarthest" -> assertEquals(List.of(up, farthest), got, r.toString());
                case "random" -> assertEquals(1, got.size(), r.toString());
                case "tworandom" -> assertEquals(2, new HashSet<>(got).size(), r.toString());
                default -> throw new AssertionError(r.policy());
            }
            assertTrue(Placement.REGIONS.containsAll(got), r.toString());
        }
        // Seoul's closest peer is Mumbai (160 ms), its farthest Sao Paulo (298 ms)
        assertTrue(out.replicas().stream().anyMatch(r -> r.regions().equals(List.of("seoul", "mumbai"))));
        assertTrue(out.replicas().stream().anyMatch(r -> r.regions().equals(List.of("dublin", "seoul"))));
    }

    @Test
    void sameSeed_givesIdenticalFiles(@TempDir Path again) throws Exception {
        Placement.Outcome second = Placement.run(params, new PrintStream(System.out));
        Placement.write(again, params, second, false);
        for (String f : List.of("placement.csv", "summary.csv", "replicas.csv")) {
            assertEquals(Files.readString(dir.resolve(f)), Files.readString(again.resolve(f)), f);
        }
    }

    @Test
    void bigBlocksAreNotFree_remoteReadCostsRttPlusTransmission() {
        // experiment 2, local policy: one 1 MB block stored only in Dublin, read at Seoul over 84 Mbit/s
        double floorMs = 252 + (1 << 20) * 8 / 84e6 * 1000;
        for (Placement.Row r : out.rows()) {
            if (r.experiment().name().equals("2") && r.policy().equals("local") && r.blockSize() == 1 << 20) {
                assertTrue(r.downloadMs() >= floorMs, r + " below " + floorMs);
            }
            if (r.experiment().name().equals("1") && r.policy().equals("local")) {
                assertTrue(r.downloadMs() < 50, "a local read at Seoul stays on the LAN: " + r);
            }
        }
    }
}
