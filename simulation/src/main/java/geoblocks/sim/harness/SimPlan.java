package geoblocks.sim.harness;

import geoblocks.sim.net.NetworkSpec;
import java.io.Serializable;
import java.util.List;

/**
 * Everything one simulation run needs, as serializable data: the seed, the network, the nodes and
 * when they start (and, for some, when they are killed and started again), how long to run and how
 * often the sampler records flows and links.
 */
public record SimPlan(long seed, NetworkSpec network, List<NodePlan> nodes, long durationMs, long sampleMs,
        List<Restart> restarts) implements Serializable {
    /**
     * Node {@code node} (a {@link NodePlan#name()}) is killed at {@code killMs} and started again, with
     * the same factory (whatever it keeps outside the component, e.g. its stores, survives), at
     * {@code startMs}.
     */
    public record Restart(String node, long killMs, long startMs) implements Serializable {
        public Restart {
            if (killMs < 0 || startMs <= killMs) {
                throw new IllegalArgumentException("a restart of '" + node + "' needs 0 <= kill < start, was " + killMs
                        + ".." + startMs + " ms");
            }
        }
    }

    /** A plan without restarts. */
    public SimPlan(long seed, NetworkSpec network, List<NodePlan> nodes, long durationMs, long sampleMs) {
        this(seed, network, nodes, durationMs, sampleMs, List.of());
    }

    public SimPlan {
        nodes = List.copyOf(nodes);
        restarts = List.copyOf(restarts);
        if (durationMs <= 0) {
            throw new IllegalArgumentException("duration must be > 0 ms, was " + durationMs);
        }
        if (sampleMs <= 0) {
            throw new IllegalArgumentException("sample period must be > 0 ms, was " + sampleMs);
        }
    }
}
