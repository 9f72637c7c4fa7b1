package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.repair.RepairNodes;
import java.util.List;
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
    void status_reportsTheLedbatFlowToEachPeer_whileTheRepairRunsAndAfter() {
        assertNotNull(ledbat.during(), "Seoul's status showed an active flow while it pushed: " + ledbat.records());
        assertEquals(1, ledbat.duringFlows().size(), ledbat.records().toString());
        Repair.PeerFlow d = ledbat.duringFlows().get(0);
        assertEquals("seoul", d.region());
        assertEquals("mumbai", d.peer());
        assertTrue(d.active());
        assertTrue(d.streams() >= 1, d.toString());
        assertTrue(d.cwndBytes() >= 1400, d.toString());
        assertTrue(ledbat.during().queuedBytes() > 0 && ledbat.during().queuedBytes() <= BYTES + 1024,
                "background bytes still to send: " + ledbat.during().queuedBytes());
        assertTrue(d.queuedBytes() + d.inFlightBytes() <= ledbat.during().queuedBytes() + 1400, d + " vs "
                + ledbat.during());

        List<Repair.PeerFlow> after = ledbat.flowsFrom("seoul");
        assertEquals(1, after.size(), ledbat.records().toString());
        Repair.PeerFlow a = after.get(0);
        assertEquals("mumbai", a.peer());
        assertFalse(a.active(), "the flow ended with the last stream");
        assertEquals(0, a.streams());
        assertEquals(0, a.cwndBytes());
        assertEquals(0, a.queuedBytes() + a.inFlightBytes());
        // the path: RTT 160 ms, one-way 80 ms (one simulated clock, so no offset), plus serialization
        assertTrue(a.rttMs() >= 160 && a.rttMs() < 170, "rtt " + a.rttMs());
        assertTrue(a.baseDelayMs() >= 80 && a.baseDelayMs() < 85, "base delay " + a.baseDelayMs());
        assertTrue(a.queuingDelayMs() >= 0 && a.queuingDelayMs() < 100, "queuing delay " + a.queuingDelayMs());
        assertEquals(0, a.retransmissions(), "no loss on this path");
        assertEquals(0, ledbat.node("seoul").queuedBytes());
        assertEquals(0, ledbat.node("seoul").queuedCopies());
        assertEquals(List.of(), ledbat.flowsFrom("mumbai"), "Mumbai only received");
        assertEquals(List.of(), tcp.flows(), "over TCP no LEDBAT flow exists");
    }

    @Test
    void sameSeed_givesTheSameRecords() {
        assertEquals(ledbat.records(), Repair.run(5, "ledbat").records());
    }
}
