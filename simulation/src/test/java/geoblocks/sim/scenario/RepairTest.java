package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.repair.RepairNodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Scrub repair between two real nodes in the simulator (seed 5): over LEDBAT every missing replica
 * is restored, the block bytes ride LEDBAT and none ride TCP; with background-transport = tcp the
 * same repair moves the bytes over TCP instead. Same seed, same records.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RepairTest {
    private static final long BYTES = (long) RepairNodes.BLOCK * RepairNodes.BLOCKS;
    private Repair.Outcome ledbat;
    private Repair.Outcome tcp;

    @BeforeAll
    void run() {
        ledbat = Repair.run(5, "ledbat");
        tcp = Repair.run(5, "tcp");
    }

    private static void assertAllReplicasIntact(Repair.Outcome o) {
        assertEquals(2 * RepairNodes.BLOCKS, o.replicas().size(), o.records().toString());
        o.replicas().forEach((k, ok) -> assertTrue(ok, k + " not intact: " + o.records()));
        assertEquals(RepairNodes.BLOCKS, o.node("mumbai").repaired(), o.records().toString());
        assertEquals(0, o.node("mumbai").unrepairable(), o.records().toString());
    }

    @Test
    void overLedbat_everyMissingReplicaIsRestored_andTheBytesRideLedbatNotTcp() {
        assertAllReplicasIntact(ledbat);
        Repair.NodeStatus seoul = ledbat.node("seoul");
        Repair.NodeStatus mumbai = ledbat.node("mumbai");
        assertTrue(seoul.ledbatSent() >= BYTES, ledbat.records().toString());
        assertTrue(mumbai.ledbatReceived() >= BYTES, ledbat.records().toString());
        assertEquals(seoul.ledbatSent(), mumbai.ledbatReceived(), "every stream byte sent arrived");
        assertEquals(0, seoul.tcpSent() + seoul.tcpReceived() + mumbai.tcpSent() + mumbai.tcpReceived(),
                ledbat.records().toString());
    }

    @Test
    void overTcp_theSameRepairMovesTheBytesOverTcp() {
        assertAllReplicasIntact(tcp);
        assertEquals(BYTES, tcp.node("seoul").tcpSent(), tcp.records().toString());
        assertEquals(BYTES, tcp.node("mumbai").tcpReceived(), tcp.records().toString());
        assertEquals(0, tcp.node("seoul").ledbatSent() + tcp.node("mumbai").ledbatReceived());
    }

    @Test
    void sameSeed_givesTheSameRecords() {
        assertEquals(ledbat.records(), Repair.run(5, "ledbat").records());
    }
}
