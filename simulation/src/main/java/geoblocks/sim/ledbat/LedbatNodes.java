package geoblocks.sim.ledbat;

import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import java.util.List;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Node factories of the LEDBAT sender and receiver hosts, for scenario plans. */
public final class LedbatNodes {
    private LedbatNodes() {}

    public record Sender(String peerIp, int peerPort, List<String> flows, LedbatOptions options) implements NodeFactory {
        public Sender {
            flows = List.copyOf(flows);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return LedbatSenderHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new LedbatSenderHost.LedbatSenderInit(self, NetAddress.of(peerIp, peerPort), flows, options);
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
