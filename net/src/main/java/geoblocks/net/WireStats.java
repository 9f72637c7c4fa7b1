package geoblocks.net;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts of network input this JVM refused: malformed (did not decode) and unauthenticated (bad
 * or missing cluster MAC); of bulk datagrams it dropped because its send queue was full; and of
 * datagrams the local stack refused as too big for the path (EMSGSIZE).
 * JVM-global because Kompics' serializer registry is.
 */
public final class WireStats {
    private static final AtomicLong MALFORMED = new AtomicLong();
    private static final AtomicLong UNAUTHENTICATED = new AtomicLong();
    private static final AtomicLong UDP_QUEUE_DROPPED = new AtomicLong();
    private static final AtomicLong UDP_TOO_BIG = new AtomicLong();

    private WireStats() {}

    public static void malformed() {
        MALFORMED.incrementAndGet();
    }

    public static void unauthenticated() {
        UNAUTHENTICATED.incrementAndGet();
    }

    /** A bulk datagram this JVM dropped before sending: its network's send queue was full. */
    public static void udpQueueDropped() {
        UDP_QUEUE_DROPPED.incrementAndGet();
    }

    public static long udpQueueDroppedCount() {
        return UDP_QUEUE_DROPPED.get();
    }

    /** A datagram the local stack refused to send as too big for the path (EMSGSIZE). */
    public static void udpTooBig() {
        UDP_TOO_BIG.incrementAndGet();
    }

    public static long udpTooBigCount() {
        return UDP_TOO_BIG.get();
    }

    public static long malformedCount() {
        return MALFORMED.get();
    }

    public static long unauthenticatedCount() {
        return UNAUTHENTICATED.get();
    }
}
