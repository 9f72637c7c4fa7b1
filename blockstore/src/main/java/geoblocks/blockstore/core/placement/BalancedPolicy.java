package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code balanced}: places by RTT while keeping the disk use of the regions within
 * {@code maxSpread} of each other. The band is the candidates whose disk use (as last reported,
 * plus what this node placed there since) is at most the lowest candidate's use + maxSpread, and
 * those that have not reported a disk. Copies go to the band nearest first, this node first; when
 * the band has fewer regions than copies, the least used of the others fill up. So a nearly full
 * region gets no copies until the others catch up; how far above the band the fullest region can
 * drift is one block per report interval per placing node. A region holding more than 1/copies of
 * the cluster's capacity cannot be kept in the band (every block would need two copies on it).
 */
public final class BalancedPolicy implements PlacementPolicy {
    public static final String NAME = "balanced";
    private final int copies;
    private final double maxSpread;

    public BalancedPolicy(int copies, double maxSpread) {
        if (copies < 1) {
            throw new IllegalArgumentException("balanced copies must be >= 1, was " + copies);
        }
        if (!(maxSpread >= 0 && maxSpread <= 1)) {
            throw new IllegalArgumentException("balanced max-disk-spread must be in 0..1, was " + maxSpread);
        }
        this.copies = copies;
        this.maxSpread = maxSpread;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int copies() {
        return copies;
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        return choose(in, copies);
    }

    @Override
    public String replace(PlacementInput in) throws PlacementException {
        return choose(in, 1).get(0);
    }

    private List<String> choose(PlacementInput in, int n) throws PlacementException {
        List<String> band = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        double lowest = in.candidates().stream().mapToDouble(r -> use(in, r)).filter(u -> !Double.isNaN(u)).min()
                .orElse(Double.NaN);
        for (String r : in.candidates()) {
            double u = use(in, r);
            (Double.isNaN(u) || u <= lowest + maxSpread + 1e-12 ? band : rest).add(r);
        }
        List<String> order = in.nearestFirst(band);
        rest.sort(Comparator.comparingDouble((String r) -> use(in, r)).thenComparing(r -> r));
        order.addAll(rest);
        if (order.size() < n) {
            throw new PlacementException(NAME + " needs " + n + " regions that are up and have room, only " + order
                    + " are");
        }
        return List.copyOf(order.subList(0, n));
    }

    private static double use(PlacementInput in, String region) {
        return in.load(region).map(l -> l.disk().used()).orElse(Double.NaN);
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "%d copies by RTT, this node first, among the regions whose disk use is"
                + " within %.0f%% of the least used; then the least used", copies, maxSpread * 100);
    }
}
