package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code localclosestN}: the seed policy {@code localclosest} generalised to N copies. This node,
 * then the N-1 candidate peers with the lowest RTT from it (ties by id), so with N = 2 it places
 * exactly like {@code localclosest}. Down or full peers are skipped like any non-candidate; when
 * this node is no candidate, or fewer than N-1 peers are, the placement is refused with the reason.
 * Built in as {@code localclosest3} (this node and its two closest peers: three replicas).
 */
public final class NearestPolicy implements PlacementPolicy {
    private final int copies;

    public NearestPolicy(int copies) {
        if (copies < 2) {
            throw new IllegalArgumentException("localclosestN needs N >= 2 copies, was " + copies);
        }
        this.copies = copies;
    }

    /** The built-in name for {@code copies} copies: localclosest3, localclosest4, ... */
    public static String nameFor(int copies) {
        return "localclosest" + copies;
    }

    @Override
    public String name() {
        return nameFor(copies);
    }

    @Override
    public int copies() {
        return copies;
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        String why = in.whyNot(in.self());
        if (why != null) {
            throw new PlacementException(name() + " puts the first copy on this node, but " + why);
        }
        List<String> out = new ArrayList<>();
        out.add(in.self());
        for (String r : in.nearestFirst(in.candidates())) {
            if (out.size() < copies && !r.equals(in.self())) {
                out.add(r);
            }
        }
        if (out.size() < copies) {
            throw new PlacementException(name() + " needs " + (copies - 1) + " peers that are up and have room, only "
                    + out.subList(1, out.size()) + " are");
        }
        return out;
    }

    @Override
    public String describe() {
        return "this node, then the " + (copies - 1) + " peers with the lowest RTT";
    }
}
