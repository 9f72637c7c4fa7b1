package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.DrainPlan;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.RebalancePlan;
import geoblocks.blockstore.core.layout.ZoneRepair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Moves copies after a layout change (glue; {@link DrainPlan} and {@link RebalancePlan} decide):
 * walks this node's manifests a page a tick, and for each name this node owns and has handed over
 * starts moves ({@link Migrations#start}: background copies, over LEDBAT unless
 * background-transport = tcp, then the manifest at the next location epoch, then the old copies
 * dropped). First every kept version (the current one and the earlier ones) with a copy at a
 * draining region; then, for the current version, the copy {@link RebalancePlan} picks to fill a
 * short region (a newcomer), or else, for a version of a seed or built-in policy with two copies in
 * one zone of the layout, the move {@link ZoneRepair} picks to spread them over zones. The plan is built from the spread bytes each region held as the last
 * full pass counted them (its picks counted at their targets), and only once the layout changed
 * (version 1 or later): a cluster on its static config never moves data for balance. The plan
 * decides every current version, whoever owns it, so that it counts the moves other nodes start
 * from the same count; this node starts the picks it owns. At most {@value #MAX_MOVES} of its moves run at once, so moving stays
 * paced behind the LEDBAT background's own yielding. Counts what it started, what it found to move,
 * and which draining regions its last full pass found empty.
 */
final class Rebalancer {
    /** Names looked at per tick. */
    static final int PAGE = 100;
    /** Moves this node runs at once (drains and fills together). */
    static final int MAX_MOVES = 4;

    /** What the last full pass found, and the moves started since start; see {@code NodeSnapshot.Layout}. */
    record Figures(long drainStarted, long drainPending, Map<String, Long> drainPendingByRegion, Set<String> drained,
            long fillStarted, long fillPendingBytes, Map<String, Long> shortBy, long committed, long committedBytes,
            long zoneStarted) {
        static final Figures NONE = new Figures(0, -1, Map.of(), Set.of(), 0, -1, Map.of(), 0, 0, 0);
    }

    private final NodeContext node;
    private final Migrations migrations;
    private final List<Manifest> running = new ArrayList<>();
    private String cursor = "";
    private long drainStarted;
    private long fillStarted;
    private long zoneStarted;
    /** The layout when this pass began; its non-active members are what the pass counts as draining. */
    private Layout passLayout;
    private final Map<String, Long> pendingThisPass = new TreeMap<>();
    private long versionsThisPass;
    private Map<String, Long> heldThisPass = new TreeMap<>();
    /** The last full pass: spread bytes per region, and versions with copies at each non-active member. */
    private Map<String, Long> heldLastPass = Map.of();
    private Map<String, Long> pendingLastPass = Map.of();
    private Set<String> drainedLastPass = Set.of();
    private long versionsLastPass = -1;
    private RebalancePlan plan;
    /**
     * The fill moves the plan picked, by file id, in this pass and in the last: a pass counts its
     * picks at their targets, and the next puts them back where they are before deciding them again.
     */
    private Map<String, RebalancePlan.Move> pickedThisPass = new HashMap<>();
    private Map<String, RebalancePlan.Move> pickedLastPass = Map.of();

    Rebalancer(NodeContext node, Migrations migrations) {
        this.node = node;
        this.migrations = migrations;
    }

    void tick() {
        Layout l = node.layout();
        if (passLayout == null) {
            passLayout = l;
        }
        running.removeIf(m -> !migrations.moving(m));
        List<String> up = new ArrayList<>(node.upPeers());
        up.add(node.region());
        Map<String, Long> bytes = new TreeMap<>();
        node.manifests().placed().forEach((r, p) -> bytes.put(r, p.bytes()));
        List<ManifestHistory> page = node.manifests().histories(cursor, PAGE);
        for (ManifestHistory h : page) {
            cursor = h.name();
            boolean mine = l.ownerOf(h.name()).equals(node.region());
            boolean may = mine && node.notReadyToDecide(h.name()) == null;
            // versions the retention is about to drop are not worth moving (and a peer may have forgotten them)
            ManifestHistory kept = h.prune(node.wallMillis(), node.settings().versionRetentionMs()).kept();
            for (Manifest m : DrainPlan.toMove(kept, passLayout)) {
                versionsThisPass++;
                DrainPlan.unplaceable(m, passLayout).forEach(r -> pendingThisPass.merge(r, 1L, Long::sum));
                if (may && DrainPlan.needsMove(m, l) && room(m)) {
                    List<List<String>> targets = DrainPlan.targets(m, l, up, bytes);
                    if (!targets.isEmpty() && migrations.startBlockwise(m, targets)) {
                        running.add(m);
                        drainStarted++;
                    }
                }
            }
            Optional<Manifest> live = h.live();
            if (live.isEmpty()) {
                continue;
            }
            // every node decides every current version (the plan counts the moves it picks), and starts its own
            Optional<RebalancePlan.Move> move = Optional.empty();
            if (plan != null) {
                RebalancePlan.Move before = pickedLastPass.get(live.get().fileId());
                if (before != null) {
                    plan.recount(live.get(), before.targets());
                }
                move = plan.decide(live.get(), up);
                move.ifPresent(mv -> pickedThisPass.put(live.get().fileId(), mv));
            }
            RebalancePlan.add(heldThisPass, live.get(), move.orElse(null));
            if (may && move.isPresent() && room(live.get())) {
                if (migrations.start(live.get(), move.get().targets())) {
                    running.add(live.get());
                    fillStarted++;
                }
            } else if (may && move.isEmpty() && l.version() > 0 && room(live.get())
                    && node.policies().zoneSpread(live.get().policy())) {
                List<String> zoned = ZoneRepair.targets(live.get(), l, up, bytes);
                if (!zoned.isEmpty() && migrations.start(live.get(), zoned)) {
                    running.add(live.get());
                    zoneStarted++;
                }
            }
        }
        if (page.size() < PAGE) {
            endPass(l);
        }
    }

    private boolean room(Manifest m) {
        return running.size() < MAX_MOVES && !migrations.moving(m);
    }

    private void endPass(Layout l) {
        cursor = "";
        Map<String, ManifestStore.Placed> placed = node.manifests().placed();
        Set<String> drained = new TreeSet<>();
        for (String r : passLayout.members()) {
            ManifestStore.Placed p = placed.get(r);
            if (!passLayout.placeable(r) && !pendingThisPass.containsKey(r) && (p == null || p.blocks() == 0)) {
                drained.add(r);
            }
        }
        drainedLastPass = Set.copyOf(drained);
        pendingLastPass = Map.copyOf(pendingThisPass);
        versionsLastPass = versionsThisPass;
        heldLastPass = Map.copyOf(heldThisPass);
        plan = l.version() == 0 ? null : new RebalancePlan(l, heldLastPass);
        pickedLastPass = pickedThisPass;
        pickedThisPass = new HashMap<>();
        pendingThisPass.clear();
        versionsThisPass = 0;
        heldThisPass = new TreeMap<>();
        passLayout = l;
    }

    Figures figures() {
        return new Figures(drainStarted, versionsLastPass, pendingLastPass, drainedLastPass, fillStarted,
                plan == null ? -1 : plan.shortTotal(), plan == null ? Map.of() : plan.shortBy(), migrations.committed,
                migrations.committedBytes, zoneStarted);
    }
}
