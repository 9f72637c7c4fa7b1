package geoblocks.sim.harness;

import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.RttMatrix;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/**
 * Builds one simulated node (its component class and init) inside the simulator. Implementations
 * are small serializable records of plain data: the simulator serializes the scenario and
 * rebuilds it in its own class loader, where the node is created. A production node's record
 * implements {@link ProductionNode}, a client machine's {@link SimClientHost.Plan}.
 */
public interface NodeFactory extends Serializable {
    Class<? extends ComponentDefinition> component();

    Init<? extends ComponentDefinition> init(NetAddress self);

    /** Kompics config values this node starts with, over the defaults (none unless a scenario needs some). */
    default Map<String, Object> config() {
        return Map.of();
    }

    /** The cluster of simulated nodes: region -> "ip:port", no emulated WAN (the simulator's network model is the WAN). */
    static ClusterConfig cluster(Map<String, String> regions) {
        Map<String, NetAddress> m = new LinkedHashMap<>();
        regions.forEach((r, a) -> m.put(r, NetAddress.parse(a)));
        return new ClusterConfig(m, RttMatrix.specDefaults(), false);
    }

    /** Every node of {@code regions} (region -> "ip:port") but {@code self}'s, by address: a node's peers. */
    static Map<NetAddress, String> peersOf(String self, Map<String, String> regions) {
        Map<NetAddress, String> peers = new LinkedHashMap<>();
        regions.forEach((r, a) -> {
            if (!r.equals(self)) {
                peers.put(NetAddress.parse(a), r);
            }
        });
        return peers;
    }
}
