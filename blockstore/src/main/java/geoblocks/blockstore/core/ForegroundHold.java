package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.PeerOp.FetchMore;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import java.util.HashMap;
import java.util.Map;

/**
 * Foreground first toward a peer: when this node moves foreground data to or from a peer (it serves
 * a block a peer fetches for a user's download, fetches one itself, or sends an upload's replica),
 * its background transfers to that peer hold back at once, for {@code holdNanos} after the last such
 * message, instead of waiting for LEDBAT's delay signal (which is for traffic the node does not own).
 * Background to other peers is not affected. This decides when to tell the transport: at the first
 * foreground message with a peer, then again whenever a quarter of the hold has passed since it was
 * last told, so a stream of blocks costs a few requests a second and the hold never lapses while
 * foreground data keeps moving (it ends between 3/4 of the hold and the hold after the last message).
 * Each report carries the foreground's rate with the peer since the report before (its data bytes
 * over that time; 0 for the first report of a hold), which the transport gives the held background a
 * share of (LEDBAT's HoldPacer). Time is passed in (nanoseconds); pure. Thread-safe ({@link #onForeground}
 * holds its monitor): the components of a node share one, so the rate is over all of the node's foreground
 * bytes with the peer.
 */
public final class ForegroundHold {
    /**
     * The hold after the last foreground message with a peer. A message is counted when this node
     * hands it to the network, and its bytes may wait in the socket's send buffer and the path's
     * queue for a second or more on a slow link (a 20 Mbit/s bottleneck with a 400 ms buffer: the
     * last blocks of a get reached the reader up to 0.8 s after a 2 s hold had ended), so the hold
     * outlasts that.
     */
    public static final long DEFAULT_HOLD_NANOS = 3_000_000_000L;

    private final long holdNanos;
    private final Map<String, Peer> peers = new HashMap<>();

    private static final class Peer {
        long lastTold;
        long bytesSince;
    }

    public ForegroundHold(long holdNanos) {
        if (holdNanos <= 0) {
            throw new IllegalArgumentException("foreground hold must be > 0 ns, was " + holdNanos);
        }
        this.holdNanos = holdNanos;
    }

    /**
     * The foreground data bytes of a node-to-node message, or -1 if it is not foreground: an upload's
     * replica, a block served to or fetched from a peer for a download (with {@code
     * background-transport = tcp} a scrub repair's fetch too), and the requests and credit that ask
     * for them (0 bytes).
     */
    public static long foregroundBytes(FileOp op) {
        if (op instanceof ReplicaData r) {
            return r.background() ? -1 : r.data().length;
        }
        if (op instanceof BlockData b) {
            return b.data().length;
        }
        return op instanceof FetchBlock || op instanceof FetchPaced || op instanceof FetchMore ? 0 : -1;
    }

    /**
     * Foreground data of {@code bytes} with {@code peer} at {@code nowNanos}: the foreground's rate in
     * bytes per second when the transport should be told (again) to hold the background to that peer
     * for {@link #holdNanos()} from now (0: not known yet, the first report of a hold), else -1.
     */
    public synchronized long onForeground(String peer, long nowNanos, long bytes) {
        Peer p = peers.get(peer);
        if (p == null || nowNanos - p.lastTold >= holdNanos) { // the hold before (if any) has ended
            p = p == null ? new Peer() : p;
            peers.put(peer, p);
            p.lastTold = nowNanos;
            p.bytesSince = 0;   // this message's bytes are not over a known time
            return 0;
        }
        p.bytesSince += bytes;
        long since = nowNanos - p.lastTold;
        if (since < holdNanos / 4) {
            return -1;
        }
        long rate = (long) (p.bytesSince * 1e9 / since);
        p.lastTold = nowNanos;
        p.bytesSince = 0;
        return rate;
    }

    public long holdNanos() {
        return holdNanos;
    }
}
