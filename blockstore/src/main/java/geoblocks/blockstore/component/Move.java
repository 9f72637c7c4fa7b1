package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.MoveCopies;
import geoblocks.blockstore.core.MovePlan;
import geoblocks.blockstore.meta.MetaMoveStore;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.PeerOp.DropBlocks;
import geoblocks.blockstore.wire.PeerOp.MoveCopy;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One move of one version's replicas, run by {@link Migrations} (which keeps it in the metadata
 * engine and the table of active moves): its copies ({@link MoveCopies} decides which start when),
 * the commit (the manifest names the targets at the next location epoch), the publication and the
 * drop of the old copies, or, when it cannot finish, the drop of the copies made for it. A client's
 * move reports progress and one Done or Failed to the client.
 */
final class Move {
    /** What a move reports back to the {@link Migrations} that runs it. */
    interface Owner {
        /** The move committed after copying {@code bytes} of blocks. */
        void committed(long bytes);

        /** The move ended (committed and dropped, or abandoned): it is no longer active or kept. */
        void ended(Move m);
    }

    /** A copy may wait while foreground traffic has the link: it times out after this many RPC timeouts. */
    static final int COPY_TIMEOUT_RPCS = 8;

    private final Node node;
    private final BlockPull pulls;
    private final MoveTargets targetSide;
    private final Owner owner;
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

    Move(Node node, BlockPull pulls, MoveTargets targetSide, Owner owner, NetAddress client, long req, Manifest from,
            MovePlan plan) {
        this.node = node;
        this.pulls = pulls;
        this.targetSide = targetSide;
        this.owner = owner;
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
        Consumer<Failure> finished = why -> {
            if (why == null) {
                copies.succeeded(c, ref.length(), node.now());
                progress();
            } else if (copies.failed(c)) {
                Logs.warn(node.region() + ": copy of block " + c.block() + " of '" + from.name() + "' to "
                        + c.target() + " failed, trying again: " + why.text());
            } else if (failure == null) { // the last attempt's code: the target's full disk, a block no holder has...
                failure = why.prefixed("copy of block " + c.block() + " to " + c.target()
                        + " failed " + MoveCopies.ATTEMPTS + " times: ");
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
            failure = Failure.ofStorage(e);
            abandon();
            return;
        }
        owner.committed(copies.movedBytes());
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
                                + from.name() + "': " + why.text())));
                node.send(peer, new DropBlocks(r, from.name(),
                        List.copyOf(ids.subList(i, Math.min(ids.size(), i + FileCodec.MAX_LIST)))));
            }
        });
    }

    void end(Failure error, String info) {
        owner.ended(this);
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
