package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.util.Optional;
import java.util.function.Consumer;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.network.Transport;

/**
 * The {@link PeerNode} of the peer service's parts: who and where this node is (its members' addresses under the
 * layout it follows, to tell a peer's region), its clock, the node's memory budget and counters ({@link NodeWide}),
 * and the two outlets it triggers through (network messages, block-store reads, whose answers it takes by its
 * own request ids). Not thread-safe: the peer service's handlers own it.
 */
final class PeerContext implements PeerNode {
    private final NetAddress self;
    private final String region;
    private final NodeSettings settings;
    private final MemoryBudget budget;
    private final TransferCounters counters;
    private final PeerVersions wireVersions;
    private final Consumer<KompicsEvent> network;
    private final LocalBlocks blocks;
    private LayoutAddresses book;

    /**
     * {@code network} and {@code blockStore} trigger on the component's ports; block-store requests take their
     * ids from {@code ids}, a series apart from the file service's.
     */
    PeerContext(NetAddress self, String region, NodeSettings settings, NodeWide shared, PeerVersions wireVersions,
            Layout layout, RequestIds ids, Consumer<KompicsEvent> network, Consumer<KompicsEvent> blockStore) {
        this.self = self;
        this.region = region;
        this.settings = settings;
        this.budget = shared.budget();
        this.counters = shared.counters();
        this.wireVersions = wireVersions;
        this.network = network;
        this.blocks = new LocalBlocks(blockStore, ids::next);
        layout(layout);
    }

    /** Tells the members' regions by layout {@code l} from now on (the file service logs unresolved members). */
    void layout(Layout l) {
        this.book = LayoutAddresses.of(l, region, self);
    }

    /** The region of a cluster member's address, empty for anyone else. */
    Optional<String> regionOf(NetAddress address) {
        return book.regionOf(address);
    }

    /** A block-store answer: runs the waiter of its request when it is one of this context's. */
    void read(BlockRead r) {
        blocks.read(r);
    }

    @Override
    public String region() {
        return region;
    }

    @Override
    public NodeSettings settings() {
        return settings;
    }

    @Override
    public long now() {
        return System.nanoTime();
    }

    @Override
    public MemoryBudget budget() {
        return budget;
    }

    @Override
    public void send(NetAddress to, FileOp op) {
        counters.tcpSent(NodeContext.blockBytes(op), NodeContext.isBackground(op));
        network.accept(FileMsg.to(wireVersions, new NetHeader(self, to, Transport.TCP), op));
    }

    @Override
    public void readLocal(BlockId id, Consumer<BlockRead> done) {
        blocks.read(id, null, done);
    }
}
