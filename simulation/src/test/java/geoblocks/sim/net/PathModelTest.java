package geoblocks.sim.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.RttMatrix;
import java.net.InetAddress;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PathModelTest {
    private static final long MS = 1_000_000;

    private static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    private static NetworkSpec.Builder twoRegions() {
        return NetworkSpec.builder(RttMatrix.specDefaults())
                .host("10.1.0.1", "seoul")
                .host("10.2.0.1", "dublin");
    }

    @Test
    void arrival_noLinks_isHalfTheRegionRtt() throws Exception {
        PathModel p = new PathModel(twoRegions().build(), 1);
        assertEquals(126 * MS, p.arrivalNs(0, ip("10.1.0.1"), ip("10.2.0.1"), "f", 1500));
        assertEquals(126 * MS + 7, p.arrivalNs(7, ip("10.2.0.1"), ip("10.1.0.1"), "g", 40));
    }

    @Test
    void arrival_unknownHost_isImmediate() throws Exception {
        PathModel p = new PathModel(twoRegions().build(), 1);
        assertEquals(3 * MS, p.arrivalNs(3 * MS, ip("10.9.9.9"), ip("10.2.0.1"), "f", 1500));
    }

    @Test
    void arrival_sameRegion_usesLocalRtt() throws Exception {
        PathModel p = new PathModel(twoRegions().host("10.1.0.2", "seoul").localRttMs(1).build(), 1);
        assertEquals(MS / 2, p.arrivalNs(0, ip("10.1.0.1"), ip("10.1.0.2"), "f", 1500));
    }

    @Test
    void arrival_sameRegion_crossesTheLanLink() throws Exception {
        PathModel p = new PathModel(twoRegions().host("10.1.0.2", "seoul").localRttMs(0)
                .lan("seoul", LinkSpec.ofMbps(1000, 100)).build(), 1);
        assertEquals(12_000, p.arrivalNs(0, ip("10.1.0.1"), ip("10.1.0.2"), "f", 1500));
        assertEquals(126 * MS, p.arrivalNs(0, ip("10.1.0.1"), ip("10.2.0.1"), "g", 1500));
    }

    @Test
    void arrival_bottleneckOnlyInOneDirection() throws Exception {
        PathModel p = new PathModel(twoRegions().path("seoul", "dublin", LinkSpec.ofMbps(10, 200)).build(), 1);
        assertEquals(126 * MS + 1_200_000, p.arrivalNs(0, ip("10.1.0.1"), ip("10.2.0.1"), "f", 1500));
        assertEquals(126 * MS + 2_400_000, p.arrivalNs(0, ip("10.1.0.1"), ip("10.2.0.1"), "f", 1500));
        assertEquals(126 * MS, p.arrivalNs(0, ip("10.2.0.1"), ip("10.1.0.1"), "r", 40));
        assertEquals(2, p.flow("f").packets());
        assertEquals(0.6, p.flow("f").meanQueueDelayMs(), 1e-9);
        assertEquals(1, p.links().get("seoul>dublin").packets() - 1);
    }

    @Test
    void arrival_uplinkAndDownlinkChain() throws Exception {
        PathModel p = new PathModel(twoRegions()
                .uplink("seoul", LinkSpec.ofMbps(10, 100))
                .downlink("dublin", LinkSpec.ofMbps(100, 100)).build(), 1);
        // 1.2 ms on the uplink, then 0.12 ms on the downlink, then 126 ms
        assertEquals(126 * MS + 1_320_000, p.arrivalNs(0, ip("10.1.0.1"), ip("10.2.0.1"), "f", 1500));
    }

    @Test
    void arrival_withJitter_staysFifoPerFlowAndIsSeeded() throws Exception {
        NetworkSpec spec = twoRegions().jitterMs(5).build();
        PathModel a = new PathModel(spec, 42);
        PathModel b = new PathModel(spec, 42);
        long prev = 0;
        boolean varied = false;
        for (int i = 0; i < 1000; i++) {
            long t = a.arrivalNs(i * MS / 10, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100);
            assertEquals(t, b.arrivalNs(i * MS / 10, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100));
            assertTrue(t >= prev, "reordered at " + i);
            assertTrue(t >= 126 * MS + i * MS / 10);
            varied |= t > 127 * MS + i * MS / 10;
            prev = t;
        }
        assertTrue(varied);
    }

    @Test
    void arrival_randomLoss_matchesRate() throws Exception {
        PathModel p = new PathModel(twoRegions().lossRate(0.1).build(), 7);
        int lost = 0;
        for (int i = 0; i < 10_000; i++) {
            if (p.arrivalNs(i, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100) < 0) {
                lost++;
            }
        }
        assertTrue(lost > 900 && lost < 1100, "lost " + lost);
        assertEquals(lost, p.randomDrops());
        assertEquals(lost, p.flow("f").drops());
    }

    @Test
    void spec_missingRtt_isRejected() {
        RttMatrix m = new RttMatrix().put("a", "b", 10);
        assertThrows(IllegalArgumentException.class,
                () -> NetworkSpec.builder(m).host("10.0.0.1", "a").host("10.0.0.2", "c").build());
        assertThrows(IllegalArgumentException.class, () -> twoRegions().lossRate(1).build());
    }

    @Test
    void partition_dropsBothWaysBetweenItsSides_onlyDuringItsWindow() throws Exception {
        PathModel p = new PathModel(twoRegions().host("10.3.0.1", "mumbai")
                .partition(1000, 2000, Set.of("seoul"), Set.of("dublin")).build(), 1);
        assertEquals(126 * MS + 999 * MS, p.arrivalNs(999 * MS, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100));
        assertEquals(-1, p.arrivalNs(1000 * MS, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100));
        assertEquals(-1, p.arrivalNs(1999 * MS, ip("10.2.0.1"), ip("10.1.0.1"), "g", 100));
        assertTrue(p.arrivalNs(1500 * MS, ip("10.1.0.1"), ip("10.3.0.1"), "h", 100) > 0, "mumbai is on neither side");
        assertEquals(126 * MS + 2000 * MS, p.arrivalNs(2000 * MS, ip("10.1.0.1"), ip("10.2.0.1"), "f", 100));
        assertEquals(2, p.partitionDrops());
        assertEquals(1, p.flow("f").drops());
    }

    @Test
    void partition_badSpec_isRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Partition(5, 5, Set.of("a"), Set.of("b")));
        assertTrue(e.getMessage().contains("from < to"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Partition(0, 5, Set.of("a", "b"), Set.of("b")));
        assertTrue(e.getMessage().contains("'b' is on both sides"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Partition(0, 5, Set.of(), Set.of("b")));
    }

    @Test
    void lossBetweenRegionsOnly_dropsAcrossRegions_neverOnTheLan() throws Exception {
        NetworkSpec.Builder b = twoRegions().host("10.1.0.2", "seoul").lossRate(0.2);
        PathModel everywhere = new PathModel(b.build(), 3);
        PathModel wanOnly = new PathModel(b.lossBetweenRegionsOnly(true).build(), 3);
        int lanLostEverywhere = 0;
        int lanLostWanOnly = 0;
        int wanLost = 0;
        for (int i = 0; i < 2000; i++) {
            lanLostEverywhere += everywhere.arrivalNs(i * MS, ip("10.1.0.1"), ip("10.1.0.2"), "lan", 1500) < 0 ? 1 : 0;
            lanLostWanOnly += wanOnly.arrivalNs(i * MS, ip("10.1.0.1"), ip("10.1.0.2"), "lan", 1500) < 0 ? 1 : 0;
            wanLost += wanOnly.arrivalNs(i * MS, ip("10.1.0.1"), ip("10.2.0.1"), "wan", 1500) < 0 ? 1 : 0;
        }
        assertEquals(0, lanLostWanOnly);
        assertTrue(lanLostEverywhere > 300 && lanLostEverywhere < 500, "lan lost " + lanLostEverywhere);
        assertTrue(wanLost > 300 && wanLost < 500, "wan lost " + wanLost);
    }
}
