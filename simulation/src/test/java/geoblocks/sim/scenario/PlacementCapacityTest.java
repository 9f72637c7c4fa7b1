package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * placement-capacity, reduced (seed 3, 8 files of 1 MiB, small uneven disks): every read of an
 * acknowledged file returns its bytes, no disk is written into its reserve, an upload is only
 * refused for lack of room, declarative rules hold, and balanced fills the disks more evenly than
 * localclosest without refusing anything.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlacementCapacityTest {
    private static final long MIB = 1 << 20;
    private PlacementCapacity.Params params;
    private PlacementCapacity.Outcome out;
    private List<PlacementCapacity.Summary> sums;
    private Path dir;

    @BeforeAll
    void run(@TempDir Path tmp) throws Exception {
        Map<String, Long> caps = new LinkedHashMap<>();
        caps.put("seoul", 8 * MIB);
        caps.put("dublin", 12 * MIB);
        caps.put("saopaulo", 16 * MIB);
        caps.put("mumbai", 8 * MIB);
        params = new PlacementCapacity.Params(3, List.of("localclosest", "balanced", "eu-near"), 8, 1 << 20, 1 << 20,
                caps, 2 * MIB, PlacementAnyPolicyTest.CONF);
        out = PlacementCapacity.run(params);
        sums = PlacementCapacity.summaries(params, out);
        dir = tmp;
        PlacementCapacity.write(dir, params, out, false);
        sums.forEach(s -> System.out.println(PlacementCapacity.row(s)));
    }

    private PlacementCapacity.Summary summary(String policy) {
        return sums.stream().filter(s -> s.policy().equals(policy)).findFirst().orElseThrow();
    }

    @Test
    void everyAcknowledgedFile_readsBackAtEveryRegion_andRefusalsAreForRoomOnly() {
        for (PlacementCapacity.Summary s : sums) {
            assertEquals(8, s.uploadsOk() + s.uploadsFailed(), s.toString());
            assertEquals(4 * s.uploadsOk(), s.reads(), s.toString());
            assertEquals(0, s.readsFailed(), s.toString());
        }
        for (PlacementCapacity.Transfer t : out.transfers()) {
            if (t.upload() && !t.ok()) {
                assertTrue(t.error().contains("reserve") || t.error().contains("disk full"), t.error());
            }
        }
    }

    @Test
    void noDiskIsWrittenIntoItsReserve() {
        assertEquals(3 * 4, out.disks().size());
        for (PlacementCapacity.Disk d : out.disks()) {
            assertTrue(d.used() <= d.capacity() - 2 * MIB, d.toString());
        }
    }

    @Test
    void declarativeRulesHold_onEveryBlock() {
        out.replicas().forEach((key, regions) -> {
            if (key.startsWith("eu-near|")) {
                assertTrue(regions.contains("dublin") && regions.size() == 2, key + " " + regions);
                assertTrue(!(regions.contains("seoul") && regions.contains("mumbai")), key + " " + regions);
            }
        });
    }

    @Test
    void balanced_refusesNothing_andSpreadsLessThanLocalclosest() {
        PlacementCapacity.Summary balanced = summary("balanced");
        PlacementCapacity.Summary closest = summary("localclosest");
        assertEquals(0, balanced.uploadsFailed(), balanced.toString());
        assertTrue(balanced.spread() < closest.spread(), balanced + " vs " + closest);
    }

    @Test
    void filesAreWritten() throws Exception {
        assertEquals(PlacementCapacity.SUMMARY_HEADER, Files.readAllLines(dir.resolve("summary.csv")).get(0));
        assertEquals(1 + 3, Files.readAllLines(dir.resolve("summary.csv")).size());
        assertEquals(1 + 3 * 4, Files.readAllLines(dir.resolve("disks.csv")).size());
        assertEquals(1 + out.transfers().size(), Files.readAllLines(dir.resolve("transfers.csv")).size());
    }
}
