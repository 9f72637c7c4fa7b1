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

    static void downloadsDone(int run) {
        turn = run + 1;
    }
}
