package geoblocks.sim.harness;

import geoblocks.net.NetAddress;
import java.io.Serializable;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/**
 * Builds one simulated node (its component class and init) inside the simulator. Implementations
 * are small serializable records of plain data: the simulator serializes the scenario and
 * rebuilds it in its own class loader, where the node is created.
 */
public interface NodeFactory extends Serializable {
    Class<? extends ComponentDefinition> component();

    Init<? extends ComponentDefinition> init(NetAddress self);
}
