package geoblocks.sim.databridge;

import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.bgfg.NodeHost;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.tcp.TcpTransport;
import java.util.LinkedHashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/**
 * Node factories of {@code simulate databridge}: the production nodes (memory storage, default
 * settings, so migrations copy over LEDBAT) and the client machine. Every TCP message between any
 * two of them, the client's included, rides simulated TCP ({@link TcpTransport}, one connection per
 * peer and direction), so random loss on the WAN costs retransmissions and window, never a message.
 */
public final class DataBridgeNodes {
    /** TCP segment payload and initial window (segments), as Linux on an Ethernet path. */
    static final int MSS = 1448;
    static final int INITIAL_WINDOW = 10;
    static final String TCP = "cubic";

    private DataBridgeNodes() {}

    /** Every host but {@code self}: nodes by region, the client as "client". */
    static Map<NetAddress, String> peers(String self, Map<String, String> regions, String client) {
        Map<NetAddress, String> peers = NodeFactory.peersOf(self, regions);
        if (!"client".equals(self)) {
            peers.put(NetAddress.parse(client), "client");
        }
        return peers;
    }

    /** The node of {@code region} (of {@code regions}: region -> "ip:port"); {@code client}: the client's ip:port. */
    public record Node(String region, Map<String, String> regions, String client, long seed) implements NodeFactory {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return NodeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new NodeHost.HostInit(ProductionNode.nodeInit(region, regions, NodeSettings.defaults(),
                    ProductionNode.memoryBlocks(), seed),
                    new TcpTransport.TcpTransportInit(self, region, peers(region, regions, client), TCP, MSS, INITIAL_WINDOW),
                    false);
        }
    }

    /** The client machine in {@code near}: one upload of {@code bytes} to {@code home} along {@code path}. */
    public record Client(Map<String, String> regions, String near, String home, String path, long bytes, int blockSize,
            long seed, long startMs, long timeoutMs) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return DataBridgeClientHost.class;
        }

        /** The client's simulated TCP, toward every node. */
        TcpTransport.TcpTransportInit tcp(NetAddress self) {
            return new TcpTransport.TcpTransportInit(self, "client", peers("client", regions, null), TCP, MSS, INITIAL_WINDOW);
        }
    }
}
