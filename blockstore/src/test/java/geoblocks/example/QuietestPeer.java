package geoblocks.example;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.placement.PlacementInput;
import geoblocks.blockstore.core.placement.PlacementPolicy;
import java.util.Comparator;
import java.util.List;

/** "quietest": this node, then the peer that moved the fewest block bytes lately (ties: the nearest). */
public final class QuietestPeer implements PlacementPolicy {
    @Override
    public String name() {
        return "quietest";
    }

    @Override
    public int copies() {
        return 2;
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        String quiet = in.nearestFirst(in.candidates()).stream()
                .filter(r -> !r.equals(in.self()))
                .min(Comparator.comparingLong(r -> in.load(r).map(l -> l.ioBytesPerSecond()).orElse(Long.MAX_VALUE)))
                .orElseThrow(() -> new PlacementException("quietest needs a peer that is up and has room"));
        return List.of(in.self(), quiet);
    }

    @Override
    public String describe() {
        return "this node, then the peer with the least recent block I/O";
    }
}
