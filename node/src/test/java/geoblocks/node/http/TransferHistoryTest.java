package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dashboard's server-side chart history: rates from counter deltas, a bounded ring, per-peer LEDBAT series. */
class TransferHistoryTest {
    /** tcpSent, tcpReceived, ledbatSent, ledbatReceived; no background copies over TCP. */
    private static Transfers t(long tcpSent, long tcpReceived, long ledbatSent, long ledbatReceived) {
        return new Transfers(tcpSent, tcpReceived, ledbatSent, ledbatReceived, 0, 0);
    }

    private static LedbatPeer peer(String region, long cwnd, double queuingMs) {
        return new LedbatPeer(region, true, 1, cwnd, 0, 0, queuingMs, 40, 250, 0);
    }

    private static String json(TransferHistory h) {
        JsonWriter j = new JsonWriter();
        h.write(j);
        return j.toString();
    }

    @Test
    void ratesAreBytesPerSecondSinceThePreviousSample_theFirstHasNone() {
        TransferHistory h = new TransferHistory(10);
        h.add(10_000, t(1000, 0, 0, 0), List.of());
        h.add(11_000, t(3000, 500, 0, 0), List.of());
        // half a second later: 4000 LEDBAT bytes sent, 1000 received = 8000 and 2000 B/s
        h.add(11_500, t(3000, 500, 4000, 1000), List.of());
        assertEquals("{\"capacity\":10,\"timeMillis\":[10000,11000,11500],\"foregroundSentBps\":[null,2000,0],"
                + "\"foregroundReceivedBps\":[null,500,0],\"backgroundSentBps\":[null,0,8000],"
                + "\"backgroundReceivedBps\":[null,0,2000],\"ledbat\":{}}", json(h));
    }

    @Test
    void backgroundCountsTcpBackgroundCopiesToo() {
        TransferHistory h = new TransferHistory(4);
        h.add(0, new Transfers(0, 0, 0, 0, 0, 0), List.of());
        // 3000 TCP bytes sent of which 1000 background, 200 LEDBAT: foreground 2000, background 1200
        h.add(1000, new Transfers(3000, 0, 200, 0, 1000, 0), List.of());
        String s = json(h);
        assertTrue(s.contains("\"foregroundSentBps\":[null,2000]"), s);
        assertTrue(s.contains("\"backgroundSentBps\":[null,1200]"), s);
    }

    @Test
    void theRingKeepsTheNewestSamplesOldestFirst() {
        TransferHistory h = new TransferHistory(3);
        for (int i = 0; i < 5; i++) {
            h.add(1000L * i, t(100L * i * i, 0, 0, 0), List.of());
        }
        assertEquals(3, h.size());
        // sent 0, 100, 400, 900, 1600: rates 100, 300, 500, 700; the last three samples stay
        String s = json(h);
        assertTrue(s.startsWith("{\"capacity\":3,\"timeMillis\":[2000,3000,4000],\"foregroundSentBps\":[300,500,700],"), s);
    }

    @Test
    void aSnapshotNotNewerThanTheLastIsIgnored() {
        TransferHistory h = new TransferHistory(4);
        h.add(5000, t(0, 0, 0, 0), List.of());
        h.add(5000, t(999, 0, 0, 0), List.of());
        h.add(4000, t(999, 0, 0, 0), List.of());
        assertEquals(1, h.size());
        h.add(6000, t(100, 0, 0, 0), List.of());
        assertTrue(json(h).contains("\"foregroundSentBps\":[null,100]"), json(h));
    }

    @Test
    void peerSeries_holdNullWhereThePeerHadNoFlowOrNoMeasurement() {
        TransferHistory h = new TransferHistory(4);
        h.add(1000, t(0, 0, 0, 0), List.of(peer("dublin", 3000, Double.NaN)));
        h.add(2000, t(0, 0, 0, 0), List.of(peer("dublin", 6000, 12.5), peer("mumbai", 1500, 3)));
        h.add(3000, t(0, 0, 0, 0), List.of(peer("mumbai", 3000, 4)));
        String s = json(h);
        assertTrue(s.endsWith("\"ledbat\":{\"dublin\":{\"cwndBytes\":[3000,6000,null],\"queuingDelayMs\":[null,12.5,null]},"
                + "\"mumbai\":{\"cwndBytes\":[null,1500,3000],\"queuingDelayMs\":[null,3,4]}}}"), s);
    }

    @Test
    void peerSeries_areBounded() {
        TransferHistory h = new TransferHistory(2);
        List<LedbatPeer> many = new ArrayList<>();
        for (int i = 0; i < TransferHistory.MAX_PEERS + 5; i++) {
            many.add(peer("p" + i, 1000, 1));
        }
        h.add(1000, t(0, 0, 0, 0), many);
        String s = json(h);
        assertTrue(s.contains("\"p" + (TransferHistory.MAX_PEERS - 1) + "\""), s);
        assertTrue(!s.contains("\"p" + TransferHistory.MAX_PEERS + "\""), "peers beyond the bound are left out");
    }

    @Test
    void capacityMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new TransferHistory(0));
    }
}
