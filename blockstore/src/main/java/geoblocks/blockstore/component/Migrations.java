package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.MoveCopies;
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
import geoblocks.blockstore.wire.ClientOp.PutProgress;
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
    /** A copy may wait while foreground traffic has the link: it times out after this many RPC timeouts. */
    static final int COPY_TIMEOUT_RPCS = 8;

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
            Move m = new Move(null, 0, r.from(), plan);
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
        Move m = new Move(null, 0, from, plan);
        active.put(m.key, m);
        node.inFlight().hold(from.fileId());
        m.pump();
        return true;
    }

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
                node.send(client, new Failed(r.req(), FailureCode.INTERNAL, "keeping the move of '" + r.name() + "' failed: " + e.getMessage()));
                return;
            }
            Move m = new Move(client, r.req(), found.get(), plan);
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
        byTarget.forEach((t, ids) -> {
            for (int i = 0; i < ids.size(); i += FileCodec.MAX_LIST) {
                node.send(node.addressOf(t), new HoldBlocks(0, List.copyOf(ids.subList(i, Math.min(ids.size(),
                        i + FileCodec.MAX_LIST)))));
            }
        });
    }

    void onHold(HoldBlocks h) {
        targetSide.onHold(h);
    }

    private final class Move {
        final String key;
        final NetAddress client;
        final long req;
        final Manifest from;
        final MovePlan plan;
        /** Which copies start when, retries, and the client's heartbeat. */
        final MoveCopies<MovePlan.Copy> copies;
        /** Why the move cannot finish, once it cannot; null while it can. */
        Failure failure;
        /** A move resumed after a restart, waiting for its targets to be up. */
        boolean waiting;

        Move(NetAddress client, long req, Manifest from, MovePlan plan) {
            this.key = MetaMoveStore.key(from.name(), from.fileId());
            this.client = client;
            this.req = req;
            this.from = from;
            this.plan = plan;
            this.copies = new MoveCopies<>(plan.copies(), node.now());
        }

        void pump() {
            for (MovePlan.Copy c : copies.start()) {
                copy(c);
            }
            switch (copies.state()) {
                case FAILED -> abandon();
                case COPIED -> commit();
                case RUNNING -> { }
            }
        }

        boolean targetsUp() {
            for (String t : plan.targets()) {
                if (!t.equals(node.region()) && !node.rtt().isUp(t)) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The version being moved as this node keeps it now (at whatever location epoch), or null when
         * it keeps it no more (the retention dropped it, or the name was forgotten). A client's move
         * also ends when the version is no longer the current one (as the client asked to move that).
         */
        Manifest kept() {
            Manifest v = node.manifests().history(from.name()).flatMap(h -> h.find(from.version())).orElse(null);
            if (v == null || v.deleted() || !v.fileId().equals(from.fileId())) {
                return null;
            }
            Manifest head = node.manifests().find(from.name()).orElse(null);
            return client != null && (head == null || !head.version().equals(from.version())) ? null : v;
        }

        /**
         * A move resumed after a restart: already committed (the manifest names the targets at a
         * later epoch), gone (the version is kept no more: its copies go), or copied again from the
         * start (copies already made are only rewritten in place).
         */
        void resume() {
            Manifest current = kept();
            if (current == null) {
                failure = new Failure(FailureCode.NEWER_EXISTS, "version " + from.version().id() + " of '" + from.name()
                        + "' is kept no more (dropped by the retention, or the name was forgotten) while the move was"
                        + " interrupted");
                abandon();
                return;
            }
            if (current.locEpoch() > from.locEpoch() && plan.noopFor(current)) {
                Logs.info(node.region() + ": resumed move of '" + from.name() + "' was committed; publishing it and"
                        + " dropping the old copies");
                publishAndDrop(current);
                return;
            }
            Logs.info(node.region() + ": resuming the move of '" + from.name() + "' to " + plan.targets());
            pump();
        }

        /** Makes copy {@code c} (started by {@link #copies}); its end goes back to the schedule. */
        void copy(MovePlan.Copy c) {
            Manifest.BlockRef ref = from.blocks().get(c.block());
            BlockId id = from.blockId(c.block());
            Consumer<String> finished = why -> {
                if (why == null) {
                    copies.succeeded(c, ref.length(), node.now());
                    progress();
                } else if (copies.failed(c)) {
                    Logs.warn(node.region() + ": copy of block " + c.block() + " of '" + from.name() + "' to "
                            + c.target() + " failed, trying again: " + why);
                } else if (failure == null) {
                    failure = new Failure(FailureCode.UNAVAILABLE, "copy of block " + c.block() + " to " + c.target()
                            + " failed " + MoveCopies.ATTEMPTS + " times: " + why);
                }
                pump();
            };
            if (c.target().equals(node.region())) {
                pulls.pull(id, ref.length(), ref.crc(), c.holders(), finished);
                return;
            }
            NetAddress target = node.addressOf(c.target());
            long r = node.expect(target, Pending.Waiter.until(Done.class, finished),
                    COPY_TIMEOUT_RPCS * node.settings().rpcTimeoutMs() * 1_000_000L);
            node.send(target, new MoveCopy(r, id.value(), ref.length(), ref.crc(), c.holders()));
        }

        void progress() {
            copies.reported(node.now());
            if (client != null) {
                node.send(client, new PutProgress(req, copies.movedBytes()));
            }
        }

        /** Every copy is durable: the manifest names the targets, then the old homes drop their copies. */
        void commit() {
            Manifest current = kept();
            Manifest moved;
            try {
                if (current == null) {
                    throw new IllegalStateException("version " + from.version().id() + " of '" + from.name() + "' "
                            + (client != null ? "is no longer the current one" : "is kept no more") + " after the copies");
                }
                moved = plan.moved(current); // the same version (else it throws), the next location epoch
                node.versions().merge(ManifestHistory.of(moved));
            } catch (IllegalStateException e) { // deleted, a newer version, or homes changed under it (see MovePlan.moved)
                failure = new Failure(FailureCode.NEWER_EXISTS, e.getMessage());
                abandon();
                return;
            } catch (IOException e) {
                failure = new Failure(FailureCode.INTERNAL, e.getMessage());
                abandon();
                return;
            }
            committed++;
            committedBytes += copies.movedBytes();
            publishAndDrop(moved);
        }

        /**
         * The moved manifest is stored here: publish it, then have the old homes drop their copies. An
         * earlier version goes with the name's whole history, so a peer that forgot the name (the
         * retention dropped the version and its tombstone was collected) does not take it as current.
         */
        void publishAndDrop(Manifest moved) {
            byte[] payload = node.manifests().history(from.name()).filter(h -> !h.head().version().equals(moved.version()))
                    .map(ManifestCodec::encodeHistory).orElseGet(() -> ManifestCodec.encode(moved));
            new ManifestPublisher(node, payload, unreached -> {
                String summary = "moved '" + from.name() + "' to " + plan.targets() + ": " + copies.total() + " block copies"
                        + pulls.via();
                if (!unreached.isEmpty()) {
                    end(null, summary + "; old copies kept until " + unreached + " have the new manifest");
                    return;
                }
                Map<String, List<Integer>> drops = plan.drops();
                drop(drops);
                end(null, summary + "; old copies deleted at " + drops.keySet());
            }).start();
        }

        /** The move cannot finish: the manifest stays, the copies made for it go. */
        void abandon() {
            Map<String, List<Integer>> made = plan.copiesMade();
            // never drop a copy any kept version of the file names (its locations may have changed meanwhile)
            node.manifests().history(from.name()).ifPresent(h -> {
                for (Manifest kept : h.versions()) {
                    if (kept.fileId().equals(from.fileId())) {
                        for (Map.Entry<String, List<Integer>> e : made.entrySet()) {
                            e.getValue().removeIf(b -> b < kept.blocks().size()
                                    && kept.blocks().get(b).replicas().contains(e.getKey()));
                        }
                    }
                }
            });
            drop(made);
            end(failure.prefixed("move of '" + from.name() + "' failed, the file stays where it was: "), null);
        }

        void drop(Map<String, List<Integer>> byRegion) {
            byRegion.forEach((region, blocks) -> {
                List<String> ids = new ArrayList<>();
                for (int b : blocks) {
                    ids.add(from.blockId(b).value());
                }
                if (region.equals(node.region())) {
                    targetSide.dropHere(from.name(), ids);
                    return;
                }
                for (int i = 0; i < ids.size(); i += FileCodec.MAX_LIST) {
                    NetAddress peer = node.addressOf(region);
                    long r = node.expect(peer, Pending.Waiter.of(op -> true,
                            why -> Logs.warn(node.region() + ": " + region + " did not confirm dropping moved blocks of '"
                                    + from.name() + "': " + why)));
                    node.send(peer, new DropBlocks(r, from.name(),
                            List.copyOf(ids.subList(i, Math.min(ids.size(), i + FileCodec.MAX_LIST)))));
                }
            });
        }

        void end(Failure error, String info) {
            active.remove(key);
            forget(key);
            node.inFlight().release(from.fileId(), node.now());
            if (error != null) {
                Logs.warn(node.region() + ": " + error.text());
            } else {
                Logs.info(node.region() + ": " + info);
            }
            if (client != null) {
                node.send(client, error != null ? error.reply(req) : new Done(req, info));
            }
        }
    }

    // ---- targets and old homes (MoveTargets)

    void onMoveCopy(NetAddress coordinator, MoveCopy c) {
        targetSide.onMoveCopy(coordinator, c);
    }

    void onDrop(NetAddress coordinator, DropBlocks d) {
        targetSide.onDrop(coordinator, d);
    }
}
