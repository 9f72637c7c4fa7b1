package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.Policy;
import java.util.ArrayList;
import java.util.List;

/**
 * One of SPEC.md's five seed policies ({@link Policy}) as a {@link PlacementPolicy}. It runs the
 * enum's own code over {@link PlacementInput#candidateTable()}, so with every region up and with room
 * it places exactly as {@link Policy#place} (same regions, same draws from the same Random). A region
 * below its disk reserve counts as down. When this node itself has no room, random and tworandom
 * make the same draws over the candidates (the enum would always offer this node); the local
 * policies are then refused by the placement check, with the reason.
 */
public final class SeedPolicy implements PlacementPolicy {
    private final Policy seed;

    public SeedPolicy(Policy seed) {
        this.seed = seed;
    }

    @Override
    public String name() {
        return seed.id();
    }

    @Override
    public int copies() {
        return seed.copies();
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        boolean randomOnly = seed == Policy.RANDOM || seed == Policy.TWORANDOM;
        if (randomOnly && !in.candidates().contains(in.self())) {
            return draw(in.candidates(), in);
        }
        return seed.place(in.candidateTable(), in.random());
    }

    /** The enum's random draws (uniform over a sorted pool, then over what is left) over {@code pool}. */
    private List<String> draw(List<String> pool, PlacementInput in) throws PlacementException {
        if (pool.size() < copies()) {
            throw new PlacementException(name() + " needs " + copies() + " regions that are up and have room, only "
                    + pool + " are");
        }
        List<String> left = new ArrayList<>(pool);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < copies(); i++) {
            out.add(left.remove(in.random().nextInt(left.size())));
        }
        return out;
    }

    @Override
    public String describe() {
        return switch (seed) {
            case RANDOM -> "one region chosen uniformly at random";
            case TWORANDOM -> "two different regions chosen uniformly at random";
            case LOCAL -> "this node";
            case LOCALCLOSEST -> "this node, then the peer with the lowest RTT";
            case LOCALFARTHEST -> "this node, then the peer with the highest RTT";
        };
    }
}
