package geoblocks.sim.harness;

import geoblocks.net.NetAddress;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Factory of the {@link Sampler} node. */
public record SamplerNode(long periodMs) implements NodeFactory {
    @Override
    public Class<? extends ComponentDefinition> component() {
        return Sampler.class;
    }

    @Override
    public Init<? extends ComponentDefinition> init(NetAddress self) {
        return new Sampler.SamplerInit(periodMs);
    }
}
