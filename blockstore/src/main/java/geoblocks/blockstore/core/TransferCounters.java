package geoblocks.blockstore.core;

/**
 * Block bytes this node moved to and from other nodes, per transport: {@code tcp} counts the data
 * of the file protocol's node-to-node block messages (replicas and fetched blocks), {@code ledbat}
 * the bytes of background block streams (header included). Client uploads and downloads are not
 * counted. Invariant: every counter only grows. Not thread-safe: one component owns it.
 */
public final class TransferCounters {
    private long tcpSent;
    private long tcpReceived;
    private long ledbatSent;
    private long ledbatReceived;

    public void tcpSent(long bytes) {
        tcpSent += check(bytes);
    }

    public void tcpReceived(long bytes) {
        tcpReceived += check(bytes);
    }

    public void ledbatSent(long bytes) {
        ledbatSent += check(bytes);
    }

    public void ledbatReceived(long bytes) {
        ledbatReceived += check(bytes);
    }

    public long tcpSent() {
        return tcpSent;
    }

    public long tcpReceived() {
        return tcpReceived;
    }

    public long ledbatSent() {
        return ledbatSent;
    }

    public long ledbatReceived() {
        return ledbatReceived;
    }

    private static long check(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("byte count must not be negative, was " + bytes);
        }
        return bytes;
    }
}
