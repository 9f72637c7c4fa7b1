package geoblocks.sim.bgfg;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.tcp.TcpTransport;
import java.util.LinkedHashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Node factories of the background-vs-foreground scenario: real geoblocks nodes and the two client machines. */
public final class BgFgNodes {
    /** TCP segment payload and initial window (segments) of the nodes' simulated TCP connections. */
    static final int MSS = 1460;
    static final int INITIAL_WINDOW = 10;

    private BgFgNodes() {}

    /**
     * A geoblocks node (the production {@link NodeParent}, memory storage, default settings but
     * {@code background-transport}) for {@code region}, its node-to-node TCP messages over simulated
     * TCP with congestion control {@code tcpCc}; {@code far}: the node whose TCP deliveries are counted.
     */
    public record Node(String region, Map<String, String> regions, long seed, String backgroundTransport,
            String tcpCc, boolean far) implements NodeFactory {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return NodeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            NodeParent.NodeInit node = ProductionNode.nodeInit(region, regions,
                    NodeSettings.defaults().withBackgroundTransport(backgroundTransport), ProductionNode.memoryBlocks(), seed);
            Map<NetAddress, String> peers = NodeFactory.peersOf(region, regions);
            return new NodeHost.HostInit(node,
                    new TcpTransport.TcpTransportInit(self, region, peers, tcpCc, MSS, INITIAL_WINDOW), far);
        }
    }

    /** A client machine in {@code region} talking to that region's node: the uploader or the downloader. */
    public record Client(String region, Map<String, String> regions, boolean uploader, long seed, long fgBytes,
            long bgBytes, int blockSize, long startMs, long warmupMs) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return BgFgClientHost.class;
        }
    }
}
