package geoblocks.sim.harness;

import geoblocks.net.NetAddress;
import java.io.Serializable;

/** A node of a simulation: its name, when it starts (simulated ms), its ip:port and its factory. */
public record NodePlan(String name, long startMs, String ip, int port, NodeFactory factory) implements Serializable {
    public NodePlan {
        if (startMs < 0) {
            throw new IllegalArgumentException("node '" + name + "' must start at >= 0 ms, was " + startMs);
        }
    }

    public NetAddress address() {
        return NetAddress.of(ip, port);
    }
}
