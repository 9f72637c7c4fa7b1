package geoblocks.sim.tcp;

import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Node factories of the simulated TCP sender and receiver, for scenario plans. */
public final class TcpNodes {
    private TcpNodes() {}

    /** A bulk sender to {@code peerIp:peerPort} that sends for {@code durationMs} (0 = until the end). */
    public record Sender(String peerIp, int peerPort, String flow, String congestionControl, long durationMs)
            implements NodeFactory {
        @Override
        public Class<? extends ComponentDefinition> component() {
            return TcpSender.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new TcpSender.TcpSenderInit(self, NetAddress.of(peerIp, peerPort), flow, TcpProfile.of(congestionControl),
                    durationMs);
        }
    }

    /** The receiving end of a flow of the given congestion control (its {@link TcpProfile} decides the ACKs). */
    public record Receiver(String flow, String congestionControl) implements NodeFactory {
        public Receiver(String flow) {
            this(flow, "reno");
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return TcpReceiver.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new TcpReceiver.TcpReceiverInit(self, flow, TcpProfile.of(congestionControl));
        }
    }
}
