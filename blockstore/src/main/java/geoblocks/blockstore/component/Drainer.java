package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.layout.DrainPlan;
import geoblocks.blockstore.core.layout.Layout;
import java.util.ArrayList;
import java.util.List;

/**
 * Empties draining regions (glue; {@link DrainPlan} decides): while the layout has a region that is
 * not active but still a member, walks this node's manifests a page a tick, and for each current
 * version with a copy there, whose name this node owns and has handed over, starts a move
 * ({@link Migrations#start}: background copies, over LEDBAT unless background-transport = tcp, then
 * the manifest at the next location epoch, then the old copies dropped). At most
 * {@value #MAX_MOVES} of its moves run at once. Counts what it started and what it found to move.
 */
final class Drainer {
    /** Names looked at per tick. */
    static final int PAGE = 100;
    /** Drain moves this node runs at once. */
    static final int MAX_MOVES = 4;

    private final NodeContext node;
    private final Migrations migrations;
    private final List<String> running = new ArrayList<>();
    private String cursor = "";
    /** Moves started since the node started. */
    long started;
    /** Versions needing a move found in the last full pass over the names (-1: no pass finished yet). */
    long pendingLastPass = -1;
    private long pendingThisPass;

    Drainer(NodeContext node, Migrations migrations) {
        this.node = node;
        this.migrations = migrations;
    }

    void tick() {
        Layout l = node.layout();
        if (l.owners().size() == l.members().size()) {
            return; // nothing drains
        }
        running.removeIf(n -> !migrations.moving(n));
        List<String> up = new ArrayList<>(node.upPeers());
        up.add(node.region());
        List<ManifestHistory> page = node.manifests().histories(cursor, PAGE);
        for (ManifestHistory h : page) {
            cursor = h.name();
            Manifest m = node.manifests().find(h.name()).orElse(null);
            if (m == null || !DrainPlan.needsMove(m, l)) {
                continue;
            }
            pendingThisPass++;
            if (running.size() >= MAX_MOVES || migrations.moving(m.name()) || !l.ownerOf(m.name()).equals(node.region())
                    || node.notReadyToDecide(m.name()) != null) {
                continue;
            }
            List<String> targets = DrainPlan.targets(m, l, up);
            if (!targets.isEmpty() && migrations.start(m, targets)) {
                running.add(m.name());
                started++;
            }
        }
        if (page.size() < PAGE) {
            cursor = "";
            pendingLastPass = pendingThisPass;
            pendingThisPass = 0;
        }
    }
}
