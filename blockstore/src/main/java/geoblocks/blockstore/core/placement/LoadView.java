package geoblocks.blockstore.core.placement;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The placement component's view of each region's load: the latest report (from the RTT probes,
 * once per probe interval) minus the bytes this node has placed there since, so a burst of
 * placements between two reports does not see the same free space again and again. A new report
 * from a region replaces both. Pure, single-threaded.
 */
public final class LoadView {
    private final Map<String, NodeLoad> reported = new HashMap<>();
    private final Map<String, Long> placedSince = new HashMap<>();

    /** A fresh report from {@code region}. */
    public void report(String region, NodeLoad load) {
        reported.put(region, load);
        placedSince.remove(region);
    }

    /** This node placed a block of {@code bytes} on each of {@code regions}. */
    public void placed(Collection<String> regions, long bytes) {
        for (String r : regions) {
            placedSince.merge(r, bytes, Long::sum);
        }
    }

    /** Each region's last report, less what was placed there since. */
    public Map<String, NodeLoad> current() {
        Map<String, NodeLoad> out = new HashMap<>();
        reported.forEach((r, l) -> out.put(r, l.minus(placedSince.getOrDefault(r, 0L))));
        return out;
    }
}
