package geoblocks.blockstore.component;

import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.placement.LoadView;
import geoblocks.blockstore.core.placement.PlacementInput;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.port.PlacementPort;
import geoblocks.blockstore.port.PlacementPort.Place;
import geoblocks.blockstore.port.PlacementPort.Placed;
import geoblocks.blockstore.port.PlacementPort.PlacementRefused;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.RttPort.RttUpdate;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;

/**
 * The PlacementPolicy component of a node: answers every {@link Place} (uploads, re-replication)
 * from the node's {@link PolicySet}, over the RTT monitor's latest table and the loads the regions
 * reported ({@link LoadView}: plus what this node placed since). Glue only: the decisions are in
 * the policies and {@link PolicySet#decide}.
 */
public final class PlacementComponent extends ComponentDefinition {
    private final Negative<PlacementPort> port = provides(PlacementPort.class);
    private final Positive<RttPort> rttPort = requires(RttPort.class);

    private final PolicySet policies;
    private final Random random;
    private final LoadView loads = new LoadView();
    private RttTable rtt;
    private Set<String> notPlaceable = Set.of();
    private Map<String, String> zones = Map.of();

    public PlacementComponent(PlacementInit init) {
        this.policies = init.policies;
        this.random = new Random(init.seed);
        this.rtt = new RttTable(init.region, Map.of(), init.peers);
        handle(rttPort, RttUpdate.class, u -> {
            rtt = u.table();
            u.loads().forEach(loads::report);
        });
        handle(port, Place.class, this::onPlace);
        handle(port, PlacementPort.NotPlaceable.class, n -> notPlaceable = n.regions());
        handle(port, PlacementPort.LayoutZones.class, z -> zones = z.zoneOf());
    }

    private void onPlace(Place p) {
        PlacementRequest r = p.request();
        PlacementInput in = new PlacementInput(rtt, loads.current(), r.blockBytes(), r.held(), random, notPlaceable, zones);
        PolicySet.Decision d = policies.decide(r, in);
        if (d.ok()) {
            loads.placed(d.regions(), r.blockBytes());
            trigger(new Placed(p.req(), d.regions()), port);
        } else {
            trigger(new PlacementRefused(p.req(), d.refusal(), d.code()), port);
        }
    }

    public static final class PlacementInit extends Init<PlacementComponent> {
        final String region;
        final Set<String> peers;
        final PolicySet policies;
        final long seed;

        /** {@code peers}: the other regions (down until the RTT monitor hears them). */
        public PlacementInit(String region, List<String> peers, PolicySet policies, long seed) {
            this.region = region;
            this.peers = Set.copyOf(peers);
            this.policies = policies;
            this.seed = seed;
        }
    }
}
