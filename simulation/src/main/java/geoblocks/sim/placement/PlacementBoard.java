package geoblocks.sim.placement;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turn-taking between the simulated clients of the placement runs that share one simulation: run
 * k uploads when run k - 1 has finished downloading, and downloads once its own uploads are done,
 * so no two transfers ever compete for bandwidth. Static because every simulation runs in a fresh
 * class loader on one thread.
 */
final class PlacementBoard {
    private static int turn;
    private static int uploaded = -1;
    private static final Map<Integer, List<BlockStorage>> STORES =
            new HashMap<>();

    /** Remembers a node's block store so that it can be emptied once its run is over. */
    static void store(int run, BlockStorage s) {
        STORES.computeIfAbsent(run, k -> new ArrayList<>()).add(s);
    }

    private PlacementBoard() {}

    static boolean mayUpload(int run) {
        return turn == run;
    }

    static boolean mayDownload(int run) {
        return uploaded == run;
    }

    static void uploadsDone(int run) {
        uploaded = run;
    }

    /** Run {@code run} is over: the next may start, and its nodes' blocks are dropped to free memory. */
    static void downloadsDone(int run) {
        turn = run + 1;
        try {
            for (BlockStorage s : STORES.getOrDefault(run, List.of())) {
                for (BlockId id : s.list()) {
                    s.delete(id);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not empty the block stores of run " + run, e);
        }
    }
}
