package geoblocks.sim.placement;

/**
 * Hand-over between the simulated upload and download clients of one placement run: downloads
 * start once every upload has finished, so the two never compete for bandwidth. Static because
 * every simulation runs in a fresh class loader on one thread.
 */
final class PlacementBoard {
    private static boolean uploadsDone;

    private PlacementBoard() {}

    static void uploadsDone() {
        uploadsDone = true;
    }

    static boolean areUploadsDone() {
        return uploadsDone;
    }
}
