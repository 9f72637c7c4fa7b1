package geoblocks.ledbat.component;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/** What a loopback transfer observed, filled in by the {@link Endpoint}s from Kompics threads. */
final class TransferResult {
    final CountDownLatch done;
    final Map<Integer, Long> receivedBytes = new ConcurrentHashMap<>();
    final Map<Integer, Long> senderClosedBytes = new ConcurrentHashMap<>();
    final AtomicLong corruptBytes = new AtomicLong();
    final AtomicLong outOfOrderDeliveries = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong receiverClosed = new AtomicLong();
    final AtomicLong statsEvents = new AtomicLong();
    final AtomicLong stale = new AtomicLong();
    final AtomicLong invalid = new AtomicLong();
    final AtomicLong maxPeers = new AtomicLong();
    final AtomicLong maxStreamsPerPeer = new AtomicLong();
    final AtomicLong cwndMismatches = new AtomicLong();
    /** The last path MTU the sender's PeerStats reported. */
    final AtomicLong pathMtu = new AtomicLong();
    volatile String firstFailure;

    TransferResult(int streams) {
        done = new CountDownLatch(2 * streams);
    }
}
