package geoblocks.sim.placement;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.placement.PlacementInput;
import geoblocks.blockstore.core.placement.PlacementPolicy;
import java.util.List;

/** A custom policy for the simulator tests, loaded by class name: one copy, at the farthest peer with room. */
public final class FarthestPeerOnly implements PlacementPolicy {
    @Override
    public String name() {
        return "farthest-only";
    }

    @Override
    public int copies() {
        return 1;
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        List<String> peers = in.nearestFirst(in.candidates().stream().filter(r -> !r.equals(in.self())).toList());
        if (peers.isEmpty()) {
            throw new PlacementException("farthest-only: no peer is up with room");
        }
        return List.of(peers.get(peers.size() - 1));
    }
}
