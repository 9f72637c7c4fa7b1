package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.SyncDigest;
import geoblocks.blockstore.wire.PeerOp.SyncLeaves;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a node's anti-entropy compares, on FakeNode (the test answers for the peers): one exchange
 * at a time, peers in turn, the next only after the interval; an idle node whose peers all answered
 * "same names" backs off, a write brings the interval back; a node that started with no manifests
 * decides no creates until it completed an exchange with every peer that is up; a failed exchange
 * does not count as synced. (The exchange itself is AntiEntropyTest's, over two real nodes.)
 */
class AntiEntropyScheduleTest {
    private static final long INTERVAL = 1000 * FakeNode.MS;

    private final FakeNode node = new FakeNode();

    /** The digests sent and not answered yet, with the region each went to. */
    private List<Object[]> asked() {
        List<Object[]> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[1] instanceof SyncDigest d && node.waiting.containsKey(d.req())) {
                out.add(new Object[] {FakeNode.PEERS.get(((NetAddress) s[0]).getPort() - 7000), d});
            }
        }
        return out;
    }

    /** Answers the one digest waiting: the peer holds the same names (no bucket differs). */
    private String answerSame() {
        List<Object[]> a = asked();
        assertEquals(1, a.size(), "one exchange at a time");
        SyncDigest d = (SyncDigest) a.get(0)[1];
        assertEquals(ManifestStore.BUCKETS, d.buckets().size(), "every bucket's digest");
        node.waiting.remove(d.req()).onReply(new SyncLeaves(d.req(), List.of(), false));
        return (String) a.get(0)[0];
    }

    @Test
    void exchanges_goToThePeersInTurn_oneAtATime_afterTheInterval() {
        AntiEntropy ae = new AntiEntropy(node, INTERVAL, false);
        List<String> order = new ArrayList<>();
        ae.tick(node.now);
        ae.tick(node.now);
        assertEquals(1, asked().size(), "no second exchange while one runs");
        order.add(answerSame());
        ae.tick(node.now + INTERVAL - 1);
        assertTrue(asked().isEmpty(), "not before the interval");
        for (int i = 0; i < 2; i++) {
            node.now += INTERVAL;
            ae.tick(node.now);
            order.add(answerSame());
        }
        assertEquals(List.of("dublin", "mumbai", "seoul"), order);
    }

    @Test
    void convergedWithEveryPeer_theIntervalDoubles_andAWriteBringsItBack() throws Exception {
        AntiEntropy ae = new AntiEntropy(node, INTERVAL, false);
        for (int i = 0; i < 3; i++) {
            node.now += INTERVAL;
            ae.tick(node.now);
            answerSame();
        }
        node.now += INTERVAL;
        ae.tick(node.now);
        assertTrue(asked().isEmpty(), "converged with every peer: waits longer than the interval");
        node.now += INTERVAL;
        ae.tick(node.now);
        assertEquals(1, asked().size(), "after twice the interval");
        answerSame();
        node.now += 3 * INTERVAL;
        ae.tick(node.now);
        assertTrue(asked().isEmpty(), "then four times");
        node.now += INTERVAL;
        ae.tick(node.now);
        assertEquals(1, asked().size());
        answerSame();

        node.now += INTERVAL;
        ae.tick(node.now);
        assertTrue(asked().isEmpty(), "still backing off");
        node.manifests().save(new Manifest("w", "fw", 0, 1, "local", "saopaulo", 1,
                List.of(), new Version(HybridClock.of(1, 0),
                        "saopaulo"), 0, false));
        ae.tick(node.now);
        assertEquals(1, asked().size(), "a write: compare at the configured interval again");
    }

    @Test
    void aNodeThatStartedEmpty_decidesCreatesOnlyAfterAnExchangeWithEveryUpPeer() {
        AntiEntropy ae = new AntiEntropy(node, INTERVAL, true);
        assertNotNull(ae.notReadyToDecideCreates());
        long start = node.now;
        for (int i = 0; i < 2; i++) {
            ae.tick(node.now);
            answerSame();
            node.now += INTERVAL;
            assertNotNull(ae.notReadyToDecideCreates(), "not every up peer yet");
        }
        assertFalse(ae.syncedWithEveryPeerSince(start));
        ae.tick(node.now);
        answerSame();
        assertNull(ae.notReadyToDecideCreates());
        assertTrue(ae.syncedWithEveryPeerSince(start));
        assertTrue(ae.syncedWithEveryPeerStartedSince(start));
        assertFalse(ae.syncedWithEveryPeerStartedSince(start + 1), "dublin's exchange started at " + start);
        assertTrue(new AntiEntropy(new FakeNode(), INTERVAL, false).notReadyToDecideCreates() == null,
                "a node that started with manifests decides at once");
    }

    @Test
    void aFailedExchange_doesNotCountAsSynced_andTheNextTickTriesTheNextPeer() {
        AntiEntropy ae = new AntiEntropy(node, INTERVAL, true);
        long start = node.now;
        ae.tick(node.now);
        SyncDigest d = (SyncDigest) asked().get(0)[1];
        node.waiting.remove(d.req()).onReply(new Failed(d.req(), FailureCode.BUSY, "dublin: node busy"));
        assertTrue(asked().isEmpty(), "the exchange ended");
        node.now += INTERVAL;
        ae.tick(node.now);
        assertEquals("mumbai", answerSame());
        node.now += INTERVAL;
        ae.tick(node.now);
        assertEquals("seoul", answerSame());
        assertNotNull(ae.notReadyToDecideCreates(), "dublin's exchange failed");
        assertFalse(ae.syncedWithEveryPeerSince(start));
    }

    @Test
    void withNoPeerUp_nothingIsSent() {
        node.up.clear();
        AntiEntropy ae = new AntiEntropy(node, INTERVAL, false);
        ae.tick(node.now);
        node.now += 10 * INTERVAL;
        ae.tick(node.now);
        assertEquals(List.of(), node.sent);
    }
}
