package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.RttTable;
import geoblocks.net.RttMatrix;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/** The four SPEC.md regions as seen from any one of them, with loads, for placement tests. */
final class Fixtures {
    static final List<String> REGIONS = List.of("dublin", "mumbai", "saopaulo", "seoul");
    static final long MIB = 1 << 20;

    private Fixtures() {}

    /** The RTT table of {@code self} with SPEC.md's RTTs; {@code down} regions are down. */
    static RttTable table(String self, String... down) {
        RttMatrix m = RttMatrix.specDefaults();
        Map<String, Double> up = new TreeMap<>();
        for (String r : REGIONS) {
            if (!r.equals(self) && !List.of(down).contains(r)) {
                up.put(r, m.rttMs(self, r));
            }
        }
        return new RttTable(self, up, Set.of(down));
    }

    static PlacementInput input(String self, Map<String, NodeLoad> loads, long seed, String... down) {
        return new PlacementInput(table(self, down), loads, MIB, List.of(), new Random(seed));
    }

    static PlacementInput input(String self) {
        return input(self, Map.of(), 1);
    }

    /** A load with a disk of {@code totalMiB} with {@code freeMiB} free and a 4 MiB reserve. */
    static NodeLoad disk(long totalMiB, long freeMiB) {
        return new NodeLoad(new DiskSpace(totalMiB * MIB, freeMiB * MIB, 4 * MIB), 0);
    }

    static NodeLoad io(long bytesPerSecond) {
        return new NodeLoad(DiskSpace.UNKNOWN, bytesPerSecond);
    }

    static Map<String, NodeLoad> loads(Object... regionThenLoad) {
        Map<String, NodeLoad> m = new HashMap<>();
        for (int i = 0; i < regionThenLoad.length; i += 2) {
            m.put((String) regionThenLoad[i], (NodeLoad) regionThenLoad[i + 1]);
        }
        return m;
    }
}
