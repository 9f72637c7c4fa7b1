package geoblocks.blockstore.core;

/**
 * Block bytes this node moved to and from other nodes, per transport: {@code tcp} counts the data
 * of the file protocol's node-to-node block messages (replicas and fetched blocks), of which
 * {@code tcpBackground} is the share of background copies sent over TCP (background-transport =
 * tcp); {@code ledbat} counts the bytes of background block streams (header included). So the
 * foreground class is tcp - tcpBackground and the background class ledbat + tcpBackground. Client
 * uploads and downloads are not counted. Invariant: every counter only grows, and tcpBackground
 * never exceeds tcp. Thread-safe (each method holds the counters' monitor): the components of a node
 * share one set of counters.
 */
public final class TransferCounters {
    private long tcpSent;
    private long tcpReceived;
    private long ledbatSent;
    private long ledbatReceived;
    private long tcpBackgroundSent;
    private long tcpBackgroundReceived;

    /** Block bytes sent over TCP; {@code background} for a background copy. */
    public synchronized void tcpSent(long bytes, boolean background) {
        tcpSent += check(bytes);
        if (background) {
            tcpBackgroundSent += bytes;
        }
    }

    /** Block bytes received over TCP; {@code background} for a background copy. */
    public synchronized void tcpReceived(long bytes, boolean background) {
        tcpReceived += check(bytes);
        if (background) {
            tcpBackgroundReceived += bytes;
        }
    }

    public synchronized void ledbatSent(long bytes) {
        ledbatSent += check(bytes);
    }

    public synchronized void ledbatReceived(long bytes) {
        ledbatReceived += check(bytes);
    }

    public synchronized long tcpSent() {
        return tcpSent;
    }

    public synchronized long tcpReceived() {
        return tcpReceived;
    }

    public synchronized long tcpBackgroundSent() {
        return tcpBackgroundSent;
    }

    public synchronized long tcpBackgroundReceived() {
        return tcpBackgroundReceived;
    }

    public synchronized long ledbatSent() {
        return ledbatSent;
    }

    public synchronized long ledbatReceived() {
        return ledbatReceived;
    }

    private static long check(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("byte count must not be negative, was " + bytes);
        }
        return bytes;
    }
}
