package geoblocks.sim.databridge;

/**
 * One upload of a DataBridge comparison: the path ({@link #DIRECT} to the home node, or
 * {@link #REDIRECT} to the near node then moved home), the file size and emulated loss, how long
 * the client waited for its upload to be acknowledged and how long until the object was home (every
 * block durable at the home region and nowhere else), both from the start of the upload, in ms.
 * {@code error} is empty when both were reached (else the times are NaN from the failure on).
 */
public record DataBridgeResult(String path, long bytes, double lossPercent, double waitMs, double homeMs,
        String error) {
    public static final String DIRECT = "direct";
    public static final String REDIRECT = "redirect";

    public DataBridgeResult {
        if (!DIRECT.equals(path) && !REDIRECT.equals(path)) {
            throw new IllegalArgumentException("path must be direct or redirect, was '" + path + "'");
        }
        error = error == null ? "" : error;
    }

    public boolean ok() {
        return error.isEmpty();
    }
}
