package geoblocks.blockstore.core;

/** A placement policy cannot be satisfied with the regions that are up. */
public final class PlacementException extends Exception {
    private static final long serialVersionUID = 1L;

    public PlacementException(String message) {
        super(message);
    }
}
