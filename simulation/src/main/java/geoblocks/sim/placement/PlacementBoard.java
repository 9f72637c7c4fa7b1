package geoblocks.sim.placement;

/**
 * Turn-taking between the simulated clients of the placement runs that share one simulation: run
 * k uploads when run k - 1 has finished downloading, and downloads once its own uploads are done,
 * so no two transfers ever compete for bandwidth. Static because every simulation runs in a fresh
 * class loader on one thread.
 */
final class PlacementBoard {
    private static int turn;
    private static int uploaded = -1;
    private static final java.util.Map<Integer, java.util.List<geoblocks.blockstore.core.BlockStorage>> STORES =
            new java.util.HashMap<>();

    /** Remembers a node's block store so that it can be emptied once its run is over. */
    static void store(int run, geoblocks.blockstore.core.BlockStorage s) {
        STORES.computeIfAbsent(run, k -> new java.util.ArrayList<>()).add(s);
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
            for (geoblocks.blockstore.core.BlockStorage s : STORES.getOrDefault(run, java.util.List.of())) {
                for (geoblocks.blockstore.core.BlockId id : s.list()) {
                    s.delete(id);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not empty the block stores of run " + run, e);
        }
    }
}
