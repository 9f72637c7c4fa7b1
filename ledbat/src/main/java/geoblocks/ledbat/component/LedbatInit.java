package geoblocks.ledbat.component;

import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.Init;

/**
 * Init of {@link LedbatComponent}: this node's address (source of every packet) and optionally
 * explicit settings; without them the component reads {@code geoblocks.ledbat} from its Kompics
 * config (so per-node config updates in the simulator apply).
 */
public final class LedbatInit extends Init<LedbatComponent> {
    final NetAddress self;
    final LedbatSettings settings;
    final boolean bursts;

    public LedbatInit(NetAddress self) {
        this(self, null);
    }

    public LedbatInit(NetAddress self, LedbatSettings settings) {
        this(self, settings, false);
    }

    /**
     * @param bursts hand the network every window's worth of data packets as one
     *     {@link geoblocks.net.NetBurst}; only for a network that unpacks bursts (GeoNetwork)
     */
    public LedbatInit(NetAddress self, LedbatSettings settings, boolean bursts) {
        this.self = Objects.requireNonNull(self, "self");
        this.settings = settings;
        this.bursts = bursts;
    }
}
