package geoblocks.node.http;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A bound on guessing the dashboard's password: a client address that failed {@code maxFailures} logins
 * within {@code windowMs} is refused for {@code lockoutMs} (the server answers 429 with Retry-After,
 * without checking its credentials); a successful login forgets its failures. At most
 * {@link #MAX_ADDRESSES} addresses are tracked (the stalest are dropped first). Time is passed in;
 * thread-safe (one server's connections share it).
 */
public final class LoginThrottle {
    static final int MAX_ADDRESSES = 10_000;

    private record Failures(int count, long firstMs, long lockedUntilMs) {}

    private final int maxFailures;
    private final long windowMs;
    private final long lockoutMs;
    private final LongSupplier clock;
    private final Map<String, Failures> byAddress = new HashMap<>();

    public LoginThrottle(int maxFailures, long windowMs, long lockoutMs, LongSupplier clock) {
        if (maxFailures < 1 || windowMs < 1 || lockoutMs < 1) {
            throw new IllegalArgumentException("max failures, window and lockout must be >= 1, were " + maxFailures + ", "
                    + windowMs + " ms and " + lockoutMs + " ms");
        }
        this.maxFailures = maxFailures;
        this.windowMs = windowMs;
        this.lockoutMs = lockoutMs;
        this.clock = clock;
    }

    /** 10 failures a minute, then a minute locked out. */
    public static LoginThrottle standard(LongSupplier clock) {
        return new LoginThrottle(10, 60_000, 60_000, clock);
    }

    /** Milliseconds {@code address} must still wait before it may try again; 0 when it may now. */
    public synchronized long lockedMs(String address) {
        Failures f = byAddress.get(address);
        return f == null ? 0 : Math.max(0, f.lockedUntilMs() - clock.getAsLong());
    }

    /** A login from {@code address} failed. */
    public synchronized void failed(String address) {
        long now = clock.getAsLong();
        Failures f = byAddress.get(address);
        if (f == null || now - f.firstMs() >= windowMs) {
            f = new Failures(0, now, 0);
        }
        int count = f.count() + 1;
        Failures next = count >= maxFailures ? new Failures(0, now, now + lockoutMs) : new Failures(count, f.firstMs(), f.lockedUntilMs());
        if (!byAddress.containsKey(address) && byAddress.size() >= MAX_ADDRESSES) {
            evictStalest();
        }
        byAddress.put(address, next);
    }

    /** A login from {@code address} succeeded: its failures are forgotten. */
    public synchronized void succeeded(String address) {
        byAddress.remove(address);
    }

    private void evictStalest() {
        Iterator<Map.Entry<String, Failures>> it = byAddress.entrySet().iterator();
        String stalest = null;
        long oldest = Long.MAX_VALUE;
        while (it.hasNext()) {
            Map.Entry<String, Failures> e = it.next();
            long last = Math.max(e.getValue().firstMs(), e.getValue().lockedUntilMs());
            if (last < oldest) {
                oldest = last;
                stalest = e.getKey();
            }
        }
        byAddress.remove(stalest);
    }
}
