package geoblocks.sim.harness;

import geoblocks.sim.net.NetworkSpec;
import java.io.Serializable;
import java.util.List;

/**
 * Everything one simulation run needs, as serializable data: the seed, the network, the nodes and
 * when they start, how long to run and how often the sampler records flows and links.
 */
public record SimPlan(long seed, NetworkSpec network, List<NodePlan> nodes, long durationMs, long sampleMs)
        implements Serializable {
    public SimPlan {
        nodes = List.copyOf(nodes);
        if (durationMs <= 0) {
            throw new IllegalArgumentException("duration must be > 0 ms, was " + durationMs);
        }
        if (sampleMs <= 0) {
            throw new IllegalArgumentException("sample period must be > 0 ms, was " + sampleMs);
        }
    }
}
