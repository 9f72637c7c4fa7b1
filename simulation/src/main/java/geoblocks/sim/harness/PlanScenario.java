package geoblocks.sim.harness;

import geoblocks.net.NetAddress;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.net.PathModel;
import geoblocks.sim.net.SimNetworkModel;
import java.util.HashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.network.Address;
import se.sics.kompics.simulator.SimulationScenario;
import se.sics.kompics.simulator.adaptor.Operation;
import se.sics.kompics.simulator.events.system.ChangeNetworkModelEvent;
import se.sics.kompics.simulator.events.system.KillNodeEvent;
import se.sics.kompics.simulator.events.system.SetupEvent;
import se.sics.kompics.simulator.events.system.StartNodeEvent;
import se.sics.kompics.simulator.network.identifier.IdentifierExtractor;
import se.sics.kompics.simulator.network.identifier.impl.SocketIdExtractor;

/**
 * Turns a {@link SimPlan} into a Kompics simulation scenario: at time 0 the setup (nodes are
 * addressed by ip:port) and the network model; then one process per node, starting it at its
 * planned time; the run ends at the planned duration. The operations are static nested classes
 * holding plain data, because the scenario is serialized into the simulator's class loader.
 */
public final class PlanScenario extends SimulationScenario {
    private static final long serialVersionUID = 1L;

    private final SimPlan plan;

    public PlanScenario(SimPlan plan) {
        this.plan = plan;
        StochasticProcess setup = new StochasticProcess("setup") {
            {
                eventInterarrivalTime(constant(0L));
                raise(1, new Setup());
                raise(1, new NetworkOp(plan.network(), plan.seed()));
            }
        };
        setup.start();
        for (NodePlan n : plan.nodes()) {
            StochasticProcess p = new StochasticProcess("start " + n.name()) {
                {
                    eventInterarrivalTime(constant(0L));
                    raise(1, new StartNode(n));
                }
            };
            p.startAt(n.startMs());
        }
        for (SimPlan.Restart r : plan.restarts()) {
            NodePlan n = plan.nodes().stream().filter(x -> x.name().equals(r.node())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no node '" + r.node() + "' to restart"));
            StochasticProcess kill = new StochasticProcess("kill " + n.name() + " at " + r.killMs()) {
                {
                    eventInterarrivalTime(constant(0L));
                    raise(1, new KillNode(n));
                }
            };
            kill.startAt(r.killMs());
            StochasticProcess again = new StochasticProcess("restart " + n.name() + " at " + r.startMs()) {
                {
                    eventInterarrivalTime(constant(0L));
                    raise(1, new StartNode(n));
                }
            };
            again.startAt(r.startMs());
        }
        terminateAt(plan.durationMs() + 1);
    }

    static final class KillNode implements Operation<KillNodeEvent> {
        private static final long serialVersionUID = 1L;
        private final NodePlan node;

        KillNode(NodePlan node) {
            this.node = node;
        }

        @Override
        public KillNodeEvent generate() {
            NetAddress self = node.address();
            return new KillNodeEvent() {
                @Override
                public Address getNodeAddress() {
                    return self;
                }

                @Override
                public String toString() {
                    return "KillNode<" + node.name() + "@" + self + ">";
                }
            };
        }
    }

    public SimPlan plan() {
        return plan;
    }

    static final class Setup implements Operation<SetupEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public SetupEvent generate() {
            return new SetupEvent() {
                @Override
                public IdentifierExtractor getIdentifierExtractor() {
                    return new SocketIdExtractor();
                }
            };
        }
    }

    static final class NetworkOp implements Operation<ChangeNetworkModelEvent> {
        private static final long serialVersionUID = 1L;
        private final NetworkSpec spec;
        private final long seed;

        NetworkOp(NetworkSpec spec, long seed) {
            this.spec = spec;
            this.seed = seed;
        }

        @Override
        public ChangeNetworkModelEvent generate() {
            SimRegistry.reset();
            PathModel path = new PathModel(spec, seed);
            SimRegistry.path(path);
            return new ChangeNetworkModelEvent(new SimNetworkModel(path));
        }
    }

    static final class StartNode implements Operation<StartNodeEvent> {
        private static final long serialVersionUID = 1L;
        private final NodePlan node;

        StartNode(NodePlan node) {
            this.node = node;
        }

        @Override
        public StartNodeEvent generate() {
            NetAddress self = node.address();
            NodeFactory f = node.factory();
            return new StartNodeEvent() {
                @Override
                public Address getNodeAddress() {
                    return self;
                }

                @Override
                public Class<? extends ComponentDefinition> getComponentDefinition() {
                    return f.component();
                }

                @Override
                public Init<? extends ComponentDefinition> getComponentInit() {
                    return f.init(self);
                }

                @Override
                public Map<String, Object> initConfigUpdate() {
                    return new HashMap<>(f.config());
                }

                @Override
                public String toString() {
                    return "StartNode<" + node.name() + "@" + self + ">";
                }
            };
        }
    }
}
