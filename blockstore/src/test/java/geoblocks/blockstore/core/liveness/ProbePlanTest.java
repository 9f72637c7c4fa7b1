package geoblocks.blockstore.core.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class ProbePlanTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    @Test
    void peerNotUp_isPingedEveryRound() {
        ProbePlan plan = new ProbePlan("a", S);
        for (int i = 0; i < 5; i++) {
            plan.heard("b");
            assertTrue(plan.shouldPing("b", false, i * S), "round " + i);
        }
    }

    @Test
    void upPeer_thatPingedUsSinceTheLastRound_isNotPinged_elseItIs() {
        ProbePlan plan = new ProbePlan("a", S);
        assertTrue(plan.shouldPing("b", true, 0), "first round: nothing heard yet");
        plan.heard("b");
        assertFalse(plan.shouldPing("b", true, S), "b sent us a message since the last round");
        assertTrue(plan.shouldPing("b", true, 2 * S), "b sent nothing since the last round");
        plan.heard("c");
        plan.pinged("c");
        assertTrue(plan.shouldPing("b", true, 3 * S), "another peer's messages do not count for b");
    }

    @Test
    void bothPingedInOneRound_onlyTheLargerIdSkipsTheNext() {
        ProbePlan a = new ProbePlan("a", S);
        ProbePlan b = new ProbePlan("b", S);
        assertTrue(a.shouldPing("b", true, 0));
        assertTrue(b.shouldPing("a", true, 0));
        a.pinged("b");
        b.pinged("a");
        assertTrue(a.shouldPing("b", true, S), "a < b: a keeps pinging");
        assertFalse(b.shouldPing("a", true, S), "b skips: it heard a's ping, a will hear b's answer");
        b.pinged("a");
        assertFalse(b.shouldPing("a", true, 2 * S), "b did not ping last round: a ping from a lets it skip");
        assertTrue(a.shouldPing("b", true, 2 * S), "a heard no ping from b: it pings");
    }

    @Test
    void upPeer_isPingedAtLeastEveryRefresh_whateverItSends() {
        ProbePlan plan = new ProbePlan("a", S);
        assertTrue(plan.shouldPing("b", true, 0));
        int pings = 0;
        for (int i = 1; i <= 3 * ProbePlan.REFRESH_ROUNDS; i++) {
            plan.heard("b");
            if (plan.shouldPing("b", true, i * S)) {
                pings++;
                assertEquals(0, i % ProbePlan.REFRESH_ROUNDS, "a refresh ping only every " + ProbePlan.REFRESH_ROUNDS
                        + " rounds, not at round " + i);
            }
        }
        assertEquals(3, pings);
    }

    @Test
    void rejectsANonPositiveInterval() {
        assertThrows(IllegalArgumentException.class, () -> new ProbePlan("a", 0));
    }

    // ---- two nodes probing each other, with the production detector on both sides

    /** One node of the two-node model: its plan, its detector of the other, what it sent. */
    private static final class Side {
        final ProbePlan plan;
        final PhiAccrualDetector detector = new PhiAccrualDetector(DetectorSettings.DEFAULTS, S, 5 * S);
        final long phase;
        long pings;
        long pongs;
        long lastHeard = -1;
        long maxGap;
        boolean alive = true;

        Side(String region, long phase) {
            this.plan = new ProbePlan(region, S);
            this.phase = phase;
        }

        void heard(long t) {
            if (lastHeard >= 0 && t > lastHeard) {
                maxGap = Math.max(maxGap, t - lastHeard);
            }
            lastHeard = t;
            detector.heard(t);
        }
    }

    private record Event(long at, int seq, Runnable action) {}

    /**
     * Two nodes with rounds every second at different phases, one-way delay {@code delay}; runs
     * {@code seconds}. {@code otherTraffic}: both also exchange a file-protocol message every 100 ms.
     * {@code bDiesAt}: b stops (sends and answers nothing) from then on; -1 never.
     */
    private static Side[] run(long phaseB, long delay, int seconds, boolean otherTraffic, long bDiesAt) {
        return run(phaseB, delay, 0, 0, seconds, otherTraffic, bDiesAt);
    }

    /** As above, each round and each message {@code 0..jitter} late, drawn from {@code seed}. */
    private static Side[] run(long phaseB, long delay, long jitter, long seed, int seconds, boolean otherTraffic,
            long bDiesAt) {
        Random random = new Random(seed);
        LongSupplier late = () -> jitter == 0 ? 0 : (long) (random.nextDouble() * jitter);
        Side a = new Side("a", 0);
        Side b = new Side("b", phaseB);
        PriorityQueue<Event> q = new PriorityQueue<>((x, y) -> x.at != y.at ? Long.compare(x.at, y.at)
                : Integer.compare(x.seq, y.seq));
        int[] seq = {0};
        BiConsumer<Long, Runnable> at = (t, r) -> q.add(new Event(t, seq[0]++, r));
        for (Side[] pair : new Side[][] {{a, b}, {b, a}}) {
            Side me = pair[0];
            Side peer = pair[1];
            for (long t = me.phase; t < seconds * S; t += S) {
                long round = t + late.getAsLong();
                at.accept(round, () -> {
                    if (!me.alive) {
                        return;
                    }
                    if (me.plan.shouldPing(peer == b ? "b" : "a", me.detector.isUp(round), round)) {
                        me.pings++;
                        long arrives = round + delay + late.getAsLong();
                        at.accept(arrives, () -> { // the ping arrives
                            if (!peer.alive) {
                                return;
                            }
                            peer.heard(arrives);
                            peer.plan.pinged(me == a ? "a" : "b");
                            peer.pongs++;
                            long back = arrives + delay + late.getAsLong();
                            at.accept(back, () -> {
                                if (me.alive) {
                                    me.heard(back); // the answer: proof of life, but not the peer's initiative
                                }
                            });
                        });
                    }
                });
            }
            if (otherTraffic) {
                for (long t = me.phase + 50 * MS; t < seconds * S; t += 100 * MS) {
                    long sent = t;
                    at.accept(sent, () -> {
                        if (me.alive) {
                            at.accept(sent + delay, () -> {
                                if (peer.alive) {
                                    peer.heard(sent + delay);
                                    peer.plan.heard(me == a ? "a" : "b");
                                }
                            });
                        }
                    });
                }
            }
        }
        if (bDiesAt >= 0) {
            at.accept(bDiesAt, () -> b.alive = false);
        }
        while (!q.isEmpty()) {
            q.poll().action.run();
        }
        return new Side[] {a, b};
    }

    @Test
    void twoIdleNodes_sendHalfTheProbes_andEachHearsTheOtherEveryRound() {
        for (long phase : new long[] {1 * MS, 300 * MS, 700 * MS, 999 * MS}) {
            for (long delay : new long[] {50 * MS, 150 * MS}) {
                Side[] s = run(phase, delay, 600, false, -1);
                long probes = s[0].pings + s[0].pongs + s[1].pings + s[1].pongs;
                // before: each side pinged each round and answered the other's: 4 per round
                assertTrue(probes <= 2 * 600 + 4 * 600 / ProbePlan.REFRESH_ROUNDS + 20,
                        "phase " + phase / MS + " ms, delay " + delay / MS + " ms: " + probes + " probe messages in 600 rounds");
                for (Side side : s) {
                    assertTrue(side.maxGap <= S + 2 * delay, "gap " + side.maxGap / MS + " ms, phase " + phase / MS);
                    assertTrue(side.detector.isUp(600 * S - 1), "never called down");
                }
            }
        }
    }

    /** Timers and messages 0-30 ms late, as on a loaded machine: still half the probes, no gap beyond two rounds. */
    @Test
    void twoIdleNodes_withJitter_stillHalfTheProbes_andNoLongGaps() {
        for (long seed = 1; seed <= 20; seed++) {
            long phase = seed * 47 * MS % S;
            Side[] s = run(phase, 40 * MS, 30 * MS, seed, 600, false, -1);
            long probes = s[0].pings + s[0].pongs + s[1].pings + s[1].pongs;
            assertTrue(probes <= 2.5 * 600, "seed " + seed + ": " + probes + " probe messages in 600 rounds");
            for (Side side : s) {
                assertTrue(side.maxGap <= 2 * S, "seed " + seed + ": gap " + side.maxGap / MS + " ms");
                assertTrue(side.detector.isUp(600 * S - 1), "never called down");
            }
        }
    }

    @Test
    void twoBusyNodes_sendNoProbesButRefreshes() {
        Side[] s = run(400 * MS, 60 * MS, 300, true, -1);
        long pings = s[0].pings + s[1].pings;
        // 3 rounds before both are up, then one ping each per REFRESH_ROUNDS
        assertTrue(pings <= 2 * (3 + 300 / ProbePlan.REFRESH_ROUNDS + 2), pings + " pings");
        assertTrue(s[0].detector.isUp(300 * S - 1) && s[1].detector.isUp(300 * S - 1));
    }

    @Test
    void aPeerThatDies_isDownAtDownAfter_asWithEveryRoundProbing() {
        for (long phase : new long[] {300 * MS, 700 * MS}) {
            long dies = 100 * S + 500 * MS;
            Side[] s = run(phase, 50 * MS, 120, false, dies);
            Side a = s[0];
            long last = a.detector.lastHeardNanos();
            assertTrue(last <= dies + 100 * MS && last > dies - S - 200 * MS, "a last heard b " + (dies - last) / MS
                    + " ms before it died");
            assertTrue(a.detector.isUp(last + 5 * S - 1));
            assertFalse(a.detector.isUp(last + 5 * S), "down at down-after of silence");
        }
    }
}
