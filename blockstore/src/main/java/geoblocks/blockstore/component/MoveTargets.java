package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockCollector;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.PeerOp.DropBlocks;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.HoldBlocks;
import geoblocks.blockstore.wire.PeerOp.MoveCopy;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The side of a move ({@link Migrations}) at its targets and old homes: a target brings a block
 * here and answers once it is durable ({@link MoveCopy}), keeps the copies of moves in flight while
 * their coordinator says so ({@link HoldBlocks}), and an old home deletes its copies once the moved
 * manifest is published ({@link DropBlocks}), never one that a version it keeps still homes here.
 */
final class MoveTargets {
    private final Node node;
    private final BlockPull pulls;
    private final Consumer<DeleteBlocks> deleteLocal;

    MoveTargets(Node node, BlockPull pulls, Consumer<DeleteBlocks> deleteLocal) {
        this.node = node;
        this.pulls = pulls;
        this.deleteLocal = deleteLocal;
    }

    /** A coordinator's keep-alive: the copies of these files here belong to moves in flight. */
    void onHold(HoldBlocks h) {
        long now = node.now();
        for (String fileId : h.fileIds()) {
            node.inFlight().touch(fileId, now);
        }
    }

    /**
     * Brings a block here for a move and answers Done once it is durable. A good copy already here (a
     * move resumed after its coordinator restarted) is rewritten in place instead of pulled again, so
     * its write time is new and no collection decided before this copy request can delete it.
     */
    void onMoveCopy(NetAddress coordinator, MoveCopy c) {
        BlockId id = BlockId.of(c.blockId());
        BlockCollector.FileBlock.of(id).ifPresent(f -> node.inFlight().touch(f.fileId(), node.now()));
        Consumer<Failure> answer = why -> node.send(coordinator,
                why == null ? new Done(c.req(), "stored") : why.prefixed(node.region() + ": ").reply(c.req()));
        if (c.length() < 0 || !node.admission().tryReserve(c.length())) {
            pulls.pull(id, c.length(), c.crc(), c.holders(), answer); // no room to look first: pull as before
            return;
        }
        node.readLocal(id, read -> {
            if (read.block() != null && read.block().crc() == c.crc() && read.block().length() == c.length()) {
                node.storeLocal(id, read.block().data(), c.crc(), stored -> {
                    node.admission().release(c.length());
                    if (stored.ok()) {
                        answer.accept(null);
                    } else {
                        pulls.pull(id, c.length(), c.crc(), c.holders(), answer);
                    }
                });
                return;
            }
            node.admission().release(c.length());
            pulls.pull(id, c.length(), c.crc(), c.holders(), answer);
        });
    }

    /** Deletes local copies of blocks whose file moved away. */
    void onDrop(NetAddress coordinator, DropBlocks d) {
        Manifest.validateName(d.name());
        int dropped = dropHere(d.name(), d.blockIds());
        node.send(coordinator, new Done(d.req(), "dropped " + dropped + " blocks at " + node.region()));
    }

    /**
     * Deletes the local copies of {@code ids}, except those that any version of {@code name} this node
     * keeps (earlier ones and tombstoned names included) homes here; returns how many.
     */
    int dropHere(String name, List<String> ids) {
        List<BlockId> blocks = new ArrayList<>();
        for (String id : ids) {
            blocks.add(BlockId.of(id)); // refuses a malformed id before anything is deleted
        }
        node.manifests().history(name).ifPresent(h -> {
            for (Manifest m : h.versions()) {
                for (int i = 0; i < m.blocks().size(); i++) {
                    if (m.blocks().get(i).replicas().contains(node.region())) {
                        blocks.remove(m.blockId(i));
                    }
                }
            }
        });
        deleteLocal.accept(new DeleteBlocks(blocks));
        return blocks.size();
    }
}
