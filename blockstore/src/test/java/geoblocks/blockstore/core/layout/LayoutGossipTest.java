package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LayoutGossipTest {
    static final Layout V0 = LayoutChangesTest.THREE;
    static final Layout V1 = LayoutChangesTest.apply(V0, new LayoutChange.Add("d", "10.0.0.4:7000")).layout();

    @Test
    void newerWhole_isAdopted() {
        LayoutGossip.Decision d = LayoutGossip.onSync(V0, V1.version(), V1.digest(), V1);
        assertSame(V1, d.adopt());
        assertEquals(LayoutGossip.Reply.VERSION, d.reply());
    }

    @Test
    void newerVersionOnly_asksForIt_olderGetsTheWholeLayout_equalEnds() {
        assertEquals(LayoutGossip.Reply.VERSION, LayoutGossip.onSync(V0, 1, V1.digest(), null).reply());
        LayoutGossip.Decision d = LayoutGossip.onSync(V1, 0, V0.digest(), null);
        assertNull(d.adopt());
        assertEquals(LayoutGossip.Reply.WHOLE, d.reply());
        assertEquals(LayoutGossip.Reply.NONE, LayoutGossip.onSync(V1, 1, V1.digest(), null).reply());
    }

    @Test
    void version0_isNeverAdoptedNorSent() {
        Layout other0 = Layout.fromConfig(Map.of("a", "10.0.0.1:7000", "z", "10.0.0.26:7000"));
        for (Layout[] p : new Layout[][] {{V0, other0}, {other0, V0}}) {
            LayoutGossip.Decision d = LayoutGossip.onSync(p[0], 0, p[1].digest(), p[1]);
            assertNull(d.adopt());
            assertEquals(LayoutGossip.Reply.NONE, d.reply());
        }
    }

    /** Nodes apply changes at random, messages arrive in random order and some are lost; afterwards every node holds the newest layout. */
    @Test
    void randomChangesAndExchanges_everyNodeConvergesOnTheNewest_200Seeds() {
        for (long seed = 1; seed <= 200; seed++) {
            converge(seed);
        }
    }

    record Msg(int to, int from, long version, long digest, Layout whole) {}

    private static void converge(long seed) {
        Random rnd = new Random(seed);
        int n = 5;
        Map<String, String> cfg = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            cfg.put("r" + i, "10.0.0." + (i + 1) + ":7000");
        }
        Layout[] at = new Layout[n];
        for (int i = 0; i < n; i++) {
            at[i] = Layout.fromConfig(cfg);
        }
        List<Msg> inFlight = new ArrayList<>();
        int extra = 0;
        for (int step = 0; step < 400; step++) {
            int i = rnd.nextInt(n);
            if (rnd.nextInt(40) == 0) { // an operator applies a change at node i (forced: reports are not modelled here)
                String id = "x" + extra++;
                at[i] = LayoutChanges.apply(at[i], new LayoutChange.Add(id, "10.1.0." + extra + ":7000"), Map.of(),
                        Set.of(), true).layout();
                for (int j = 0; j < n; j++) {
                    if (j != i) {
                        inFlight.add(new Msg(j, i, at[i].version(), at[i].digest(), at[i]));
                    }
                }
            } else if (rnd.nextBoolean()) { // an anti-entropy exchange starts: version only
                int j = (i + 1 + rnd.nextInt(n - 1)) % n;
                inFlight.add(new Msg(j, i, at[i].version(), at[i].digest(), null));
            } else if (!inFlight.isEmpty()) {
                Msg m = inFlight.remove(rnd.nextInt(inFlight.size()));
                if (rnd.nextInt(10) > 0) { // 10 % are lost
                    deliver(m, at, inFlight);
                }
            }
        }
        // quiet: only exchanges, delivered in order, until nothing is in flight
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (i != j) {
                        ArrayDeque<Msg> q = new ArrayDeque<>(List.of(new Msg(j, i, at[i].version(), at[i].digest(), null)));
                        while (!q.isEmpty()) {
                            List<Msg> out = new ArrayList<>();
                            deliver(q.poll(), at, out);
                            q.addAll(out);
                        }
                    }
                }
            }
        }
        Layout newest = at[0];
        for (Layout l : at) {
            if (l.newerThan(newest)) {
                newest = l;
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(newest, at[i], "seed " + seed + " node " + i);
        }
    }

    private static void deliver(Msg m, Layout[] at, List<Msg> out) {
        LayoutGossip.Decision d = LayoutGossip.onSync(at[m.to()], m.version(), m.digest(), m.whole());
        if (d.adopt() != null) {
            at[m.to()] = d.adopt();
        }
        Layout mine = at[m.to()];
        switch (d.reply()) {
            case VERSION -> out.add(new Msg(m.from(), m.to(), mine.version(), mine.digest(), null));
            case WHOLE -> out.add(new Msg(m.from(), m.to(), mine.version(), mine.digest(), mine));
            case NONE -> { }
        }
    }
}
