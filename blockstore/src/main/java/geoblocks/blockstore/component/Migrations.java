package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.MovePlan;
import geoblocks.blockstore.core.MoveRecord;
import geoblocks.blockstore.meta.MetaMoveStore;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.PeerOp.DropBlocks;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.HoldBlocks;
import geoblocks.blockstore.wire.PeerOp.MoveCopy;
import geoblocks.blockstore.wire.ClientOp.MoveReq;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Moves of one version's replicas to new regions, coordinated by the node the client asked
 * ({@code client move NAME --to R,...}: the current version) or by the node that drains or
 * rebalances ({@link #start}: any version it keeps), in the steps of {@link MovePlan}, one move per
 * version at a time: every target that lacks a block pulls it from a holder as background traffic ({@link MoveCopy}, then {@link BlockPull}: over LEDBAT unless
 * background-transport = tcp), a few blocks at a time; only when all are durable is the manifest
 * rewritten (the same version at the next location epoch, stored and published the way
 * re-replication publishes a location change; anti-entropy carries it to peers that missed it);
 * only when every peer that is up has stored it do the old homes delete their copies
 * ({@link DropBlocks}), and none deletes a block that a version it keeps still homes there. A peer
 * that did not get the new manifest keeps the old copies alive (nothing it could read disappears;
 * its block collector deletes them once anti-entropy brings the new manifest). A failed copy, the
 * version dropped meanwhile by the retention, or (for a client's move) a newer version or a delete
 * written meanwhile, ends the move with the manifest unchanged and the new copies deleted again.
 * The client hears the moved bytes as progress and one Done or Failed at the end.
 *
 * <p>Every move is kept in the metadata engine ({@link MetaMoveStore}) from before its first copy
 * until it ends, so a coordinator restarted mid-move resumes it (once its targets are up; a move
 * whose manifest was already rewritten goes straight to publishing it and dropping the old copies)
 * and nobody is left with copies no one collects. While a move runs its file is held in flight
 * here, and every {@code holdEveryNanos} its targets are told to keep its copies ({@link HoldBlocks}),
 * so no block collector takes a copy that the new manifest is about to name.
 */
final class Migrations {
    private final Node node;
    private final BlockPull pulls;
    private final MoveTargets targetSide;
    /** Moves under way by {@link MetaMoveStore#key(String, String)}: one per version (name and file id). */
    private final TreeMap<String, Move> active = new TreeMap<>();
    private final MetaMoveStore store;
    private final long holdEveryNanos;
    private long lastHold;
    /** Moves that committed since start, and the block bytes they copied. */
    long committed;
    long committedBytes;

    /**
     * Resumes the moves kept in the node's metadata engine (each starts once its targets are up);
     * {@code holdEveryNanos}: how often targets are told to keep a running move's copies.
     */
    Migrations(Node node, BlockPull pulls, Consumer<DeleteBlocks> deleteLocal, long holdEveryNanos) {
        this.node = node;
        this.pulls = pulls;
        this.targetSide = new MoveTargets(node, pulls, deleteLocal);
        this.holdEveryNanos = holdEveryNanos;
        this.lastHold = node.now();
        this.store = new MetaMoveStore(node.manifests().engine());
        resume();
    }

    private void resume() {
        MetaMoveStore.Loaded kept;
        try {
            kept = store.load();
        } catch (IOException e) {
            Logs.warn(node.region() + ": reading the moves in flight failed; they do not resume: " + e.getMessage());
            return;
        }
        for (String key : kept.unreadable()) {
            Logs.warn(node.region() + ": the kept move " + MetaMoveStore.describe(key) + " is unreadable; dropped (its"
                    + " copies are collected after the grace)");
            forget(key);
        }
        for (MoveRecord r : kept.moves()) {
            MovePlan plan;
            try {
                plan = MovePlan.of(r, cluster());
            } catch (IllegalArgumentException e) {
                Logs.warn(node.region() + ": the kept move of '" + r.name() + "' cannot resume: " + e.getMessage());
                forget(MetaMoveStore.key(r));
                continue;
            }
            Move m = move(null, 0, r.from(), plan);
            m.waiting = true;
            active.put(m.key, m);
            node.inFlight().hold(r.from().fileId());
        }
        if (!active.isEmpty()) {
            Logs.info(node.region() + ": resuming " + active.size() + " moves kept in the metadata engine once their"
                    + " targets are up: " + active.keySet());
        }
    }

    private void forget(String key) {
        try {
            store.remove(key);
        } catch (IOException e) {
            Logs.warn(node.region() + ": removing the kept move " + MetaMoveStore.describe(key) + " failed: "
                    + e.getMessage());
        }
    }

    /** The regions a move may target: the members of the node's cluster layout. */
    private Set<String> cluster() {
        Set<String> all = new HashSet<>(node.peerRegions());
        all.add(node.region());
        return all;
    }

    /** Whether this node coordinates a move of any version of {@code name} now. */
    boolean moving(String name) {
        String k = MetaMoveStore.key(name, "");
        String next = active.ceilingKey(k);
        return next != null && next.startsWith(k);
    }

    /** Whether this node coordinates a move of version {@code m} now. */
    boolean moving(Manifest m) {
        return active.containsKey(MetaMoveStore.key(m.name(), m.fileId()));
    }

    /**
     * Starts moving version {@code from} (any version this node keeps, the current one or an earlier
     * one) to {@code targets} with no client waiting (a drain or a rebalance): kept, copied, committed
     * and dropped as a client's move; it commits while the version is kept, superseded or not. False
     * when a move of that version runs, the plan has nothing to do, or keeping it failed.
     */
    boolean start(Manifest from, List<String> targets) {
        if (moving(from) || from.isInline() || from.deleted()) {
            return false;
        }
        return start(from, new MovePlan(from, targets, cluster()));
    }

    /**
     * As {@link #start(Manifest, List)}, block by block (a drain): block {@code i} of {@code from} to
     * {@code blockTargets.get(i)}.
     */
    boolean startBlockwise(Manifest from, List<List<String>> blockTargets) {
        if (moving(from) || from.isInline() || from.deleted()) {
            return false;
        }
        return start(from, MovePlan.blockwise(from, blockTargets, cluster()));
    }

    private boolean start(Manifest from, MovePlan plan) {
        if (plan.noop()) {
            return false;
        }
        try {
            store.save(plan.record(node.wallMillis()));
        } catch (IOException e) {
            Logs.warn(node.region() + ": keeping the drain move of '" + from.name() + "' failed: " + e.getMessage());
            return false;
        }
        Move m = move(null, 0, from, plan);
        active.put(m.key, m);
        node.inFlight().hold(from.fileId());
        m.pump();
        return true;
    }

    private Move move(NetAddress client, long req, Manifest from, MovePlan plan) {
        return new Move(node, pulls, targetSide, owner, client, req, from, plan);
    }

    /** How a move reports back: the committed counters, and the end that takes it out of the table and the engine. */
    private final Move.Owner owner = new Move.Owner() {
        @Override
        public void committed(long bytes) {
            committed++;
            committedBytes += bytes;
        }

        @Override
        public void ended(Move m) {
            active.remove(m.key);
            forget(m.key);
        }
    };

    /** Moves this node coordinates now (each kept in the engine until it ends). */
    int moves() {
        return active.size();
    }

    // ---- coordinator

    void onMove(NetAddress client, MoveReq r) {
        try {
            Manifest.validateName(r.name());
            MovePlan.validate(r.regions(), cluster());
            for (String t : r.regions()) {
                if (!t.equals(node.region()) && !node.rtt().isUp(t)) {
                    throw new FailureException(FailureCode.UNAVAILABLE, "region '" + t + "' is down; move when it is up");
                }
            }
            if (moving(r.name())) {
                throw new FailureException(FailureCode.BUSY, "'" + r.name() + "' is being moved right now");
            }
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(r.req(), FailureCode.of(e, FailureCode.INVALID), e.getMessage()));
            return;
        }
        ManifestLookup.find(node, r.name(), found -> {
            if (found.isEmpty()) {
                node.send(client, new Failed(r.req(), FailureCode.NOT_FOUND, "no such file '" + r.name() + "'"));
                return;
            }
            if (moving(r.name())) {
                node.send(client, new Failed(r.req(), FailureCode.BUSY, "'" + r.name() + "' is being moved right now"));
                return;
            }
            if (found.get().isInline()) { // no blocks: the bytes travel with the manifest
                node.send(client, new Done(r.req(), "'" + r.name() + "' is stored inline: its bytes live in its manifest,"
                        + " which every region keeps; nothing to move"));
                return;
            }
            MovePlan plan = new MovePlan(found.get(), r.regions(), cluster());
            if (plan.noop()) {
                node.send(client, new Done(r.req(), "'" + r.name() + "' already lives at " + plan.targets()));
                return;
            }
            try { // kept before any copy is made: a restart resumes it, and no copy goes unaccounted for
                store.save(plan.record(node.wallMillis()));
            } catch (IOException e) {
                node.send(client, Failure.ofStorage(e).prefixed("keeping the move of '" + r.name() + "' failed: ").reply(r.req()));
                return;
            }
            Move m = move(client, r.req(), found.get(), plan);
            active.put(m.key, m);
            node.inFlight().hold(found.get().fileId());
            m.pump();
        });
    }

    /**
     * Progress heartbeats for the clients of long moves; starts resumed moves whose targets are up;
     * tells targets to keep the copies of running moves.
     */
    void tick(long now) {
        for (Move m : List.copyOf(active.values())) {
            if (m.waiting) {
                if (m.targetsUp()) {
                    m.waiting = false;
                    m.resume();
                }
            } else if (m.copies.heartbeatDue(now)) {
                m.progress();
            }
        }
        if (now - lastHold >= holdEveryNanos) {
            lastHold = now;
            hold();
        }
    }

    /** Tells each target that is up to keep the copies of the moves running towards it. */
    private void hold() {
        Map<String, List<String>> byTarget = new TreeMap<>();
        for (Move m : active.values()) {
            for (String t : m.plan.targets()) {
                if (!t.equals(node.region()) && node.rtt().isUp(t)) {
                    byTarget.computeIfAbsent(t, k -> new ArrayList<>()).add(m.from.fileId());
                }
            }
        }
        Holds.send(node, byTarget);
    }

    void onHold(HoldBlocks h) {
        targetSide.onHold(h);
    }

    // ---- targets and old homes (MoveTargets)

    void onMoveCopy(NetAddress coordinator, MoveCopy c) {
        targetSide.onMoveCopy(coordinator, c);
    }

    void onDrop(NetAddress coordinator, DropBlocks d) {
        targetSide.onDrop(coordinator, d);
    }
}
