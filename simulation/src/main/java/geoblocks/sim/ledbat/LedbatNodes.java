package geoblocks.sim.ledbat;

import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import java.util.List;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Node factories of the LEDBAT sender and receiver hosts, for scenario plans. */
public final class LedbatNodes {
    private LedbatNodes() {}

    /**
     * A sender of one stream per flow name to the peer; with {@code blockBytes > 0} each flow is a
     * sequence of streams of that many bytes (a new one opens when the last is acknowledged), as
     * the node's background block transfers are; with 0 each flow is one endless stream.
     */
    public record Sender(String peerIp, int peerPort, List<String> flows, LedbatOptions options, int blockBytes)
            implements NodeFactory {
        public Sender {
            flows = List.copyOf(flows);
            if (blockBytes < 0) {
                throw new IllegalArgumentException("block size must be >= 0, was " + blockBytes);
            }
        }

        public Sender(String peerIp, int peerPort, List<String> flows, LedbatOptions options) {
            this(peerIp, peerPort, flows, options, 0);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return LedbatSenderHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new LedbatSenderHost.LedbatSenderInit(self, NetAddress.of(peerIp, peerPort), flows, options, blockBytes);
        }
    }

    public record Receiver(LedbatOptions options) implements NodeFactory {
        @Override
        public Class<? extends ComponentDefinition> component() {
            return LedbatReceiverHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new LedbatReceiverHost.LedbatReceiverInit(self, options);
        }
    }
}
