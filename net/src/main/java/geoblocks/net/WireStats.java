package geoblocks.net;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts of network input this JVM refused: malformed (did not decode) and unauthenticated (bad
 * or missing cluster MAC). JVM-global because Kompics' serializer registry is.
 */
public final class WireStats {
    private static final AtomicLong MALFORMED = new AtomicLong();
    private static final AtomicLong UNAUTHENTICATED = new AtomicLong();

    private WireStats() {}

    public static void malformed() {
        MALFORMED.incrementAndGet();
    }

    public static void unauthenticated() {
        UNAUTHENTICATED.incrementAndGet();
    }

    public static long malformedCount() {
        return MALFORMED.get();
    }

    public static long unauthenticatedCount() {
        return UNAUTHENTICATED.get();
    }
}
