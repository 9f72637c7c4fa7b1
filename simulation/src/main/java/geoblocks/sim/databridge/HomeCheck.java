package geoblocks.sim.databridge;

import geoblocks.blockstore.client.ClientPort;
import java.util.List;

/** Whether a file is home: every block of its manifest is held by exactly the home regions, none pending. */
public final class HomeCheck {
    private HomeCheck() {}

    public static boolean isHome(ClientPort.FileStat stat, List<String> home) {
        var blocks = stat.manifest().blocks();
        for (int i = 0; i < blocks.size(); i++) {
            List<String> replicas = blocks.get(i).replicas();
            if (replicas.size() != home.size() || !replicas.containsAll(home) || !stat.pending(i).isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
