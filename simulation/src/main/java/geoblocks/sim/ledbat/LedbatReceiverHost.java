package geoblocks.sim.ledbat;

import geoblocks.ledbat.component.LedbatComponent;
import geoblocks.ledbat.component.LedbatInit;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import java.util.HashMap;
import java.util.Map;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.Timer;

/**
 * A simulated host that runs the real {@link LedbatComponent} as a receiver and counts the bytes it
 * delivers in order on the probe of the flow each stream belongs to.
 */
public final class LedbatReceiverHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final Map<StreamKey, FlowProbe> probes = new HashMap<>();

    private record StreamKey(NetAddress peer, int streamId) {}

    public LedbatReceiverHost(LedbatReceiverInit init) {
        Component ledbat = create(LedbatComponent.class, new LedbatInit(init.self, init.options.settings()));
        connect(ledbat.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(ledbat.getNegative(Timer.class), timer, Channel.TWO_WAY);
        handle(ledbat.getPositive(LedbatPort.class), DataReceived.class, d -> {
            StreamKey k = new StreamKey(d.peer(), d.streamId());
            FlowProbe p = probes.get(k);
            if (p == null) {
                p = SimRegistry.stream(d.peer(), d.streamId());
                if (p == null) {
                    return;
                }
                probes.put(k, p);
            }
            p.delivered(d.data().length);
        });
    }

    /** The receiver's address and LEDBAT options (the receiver side uses few of them). */
    public static final class LedbatReceiverInit extends Init<LedbatReceiverHost> {
        final NetAddress self;
        final LedbatOptions options;

        public LedbatReceiverInit(NetAddress self, LedbatOptions options) {
            this.self = self;
            this.options = options;
        }
    }
}
