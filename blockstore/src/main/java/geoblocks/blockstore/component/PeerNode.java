package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.net.NetAddress;
import java.util.function.Consumer;

/**
 * What a part that serves other nodes may do, wherever it runs: know its region, settings and clock, reserve
 * transfer memory, read local blocks and send file ops. The peer service's parts get only this
 * ({@link PeerContext}); the file service's parts get all of {@link Node}, which extends it.
 */
interface PeerNode {
    String region();

    NodeSettings settings();

    /** The node's monotonic clock in nanoseconds. */
    long now();

    /**
     * Transfer memory of this node (one for the whole node, {@link NodeWide}): reserve before allocating a
     * block-sized buffer. Work for peers (incoming replicas and manifests, blocks served) reserves here
     * directly; client work through {@code Node#admission()}.
     */
    MemoryBudget budget();

    /** Sends {@code op} to {@code to} over TCP; its block bytes count in the node's transfer counters. */
    void send(NetAddress to, FileOp op);

    /** Reads block {@code id} from the node's block store into a heap array; {@code done} gets the answer. */
    void readLocal(BlockId id, Consumer<BlockRead> done);
}
