package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Same seed, same bytes: ledbat-vs-tcp with jitter and random loss (so the seed matters), run three times. */
class DeterminismTest {
    @TempDir
    Path tmp;

    private byte[][] run(LedbatVsTcp.Params p, String name) throws Exception {
        SimResult r = SimRunner.run(LedbatVsTcp.plan(p));
        Path dir = tmp.resolve(name);
        LedbatVsTcp.write(dir, p, r, LedbatVsTcp.metrics(p, r), false);
        return new byte[][] {Files.readAllBytes(dir.resolve("timeseries.csv")), Files.readAllBytes(dir.resolve("summary.csv")),
            Files.readAllBytes(dir.resolve("links.csv"))};
    }

    @Test
    void sameSeed_givesIdenticalCsvFiles_otherSeedDiffers() throws Exception {
        LedbatVsTcp.Params p = new LedbatVsTcp.Params(42, 10, "dublin", "mumbai", 200,
                LedbatOptions.rfc(100), 1, 4, 8, 10, "reno", 2.0, 0.001);
        byte[][] a = run(p, "a");
        byte[][] b = run(p, "b");
        byte[][] c = run(p.withSeed(43), "c");
        for (int i = 0; i < a.length; i++) {
            assertArrayEquals(a[i], b[i], "file " + i + " differs between runs with the same seed");
        }
        assertTrue(a[0].length > 1000);
        assertFalse(Arrays.equals(a[0], c[0]), "another seed should change the samples");
        String header = new String(a[0], StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
        assertTrue(header.equals("time_s,flow,kind,throughput_mbps,cwnd_bytes,rtt_ms,queuing_delay_ms"), header);
    }
}
