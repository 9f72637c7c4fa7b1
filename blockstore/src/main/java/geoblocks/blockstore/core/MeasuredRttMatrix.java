package geoblocks.blockstore.core;

import java.util.List;
import java.util.Optional;

/**
 * The cluster's measured RTT matrix as one node knows it (see {@link RttMatrixView}; not the
 * configured one the WAN emulator applies, {@code geoblocks.net.RttMatrix}): its regions, and a
 * {@link Link} for every ordered pair (from, to) it has a figure for. A pair it never heard about
 * has no link.
 */
public record MeasuredRttMatrix(List<String> regions, List<Link> links) {
    public MeasuredRttMatrix {
        regions = List.copyOf(regions);
        links = List.copyOf(links);
    }

    /**
     * What {@code from} measured to {@code to}: the RTT in ms (NaN when down), whether {@code from}
     * reported {@code to} down, whether the figure is fresh (this node's own row, or a row a peer that
     * is up sent recently) and the age of the row in ms (0 for this node's own).
     */
    public record Link(String from, String to, double rttMs, boolean down, boolean fresh, long ageMs) {}

    /** The link from {@code from} to {@code to}, empty when never heard. */
    public Optional<Link> link(String from, String to) {
        return links.stream().filter(l -> l.from.equals(from) && l.to.equals(to)).findFirst();
    }
}
