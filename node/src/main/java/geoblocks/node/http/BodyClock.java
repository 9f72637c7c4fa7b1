package geoblocks.node.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The clock of one connection's current request body against its {@link BodyDeadline}: started
 * once (when the head arrived, at the 100 Continue, or at the first body byte), fed the bytes that
 * come, and a timer on the connection's event loop that re-arms at each new deadline and calls back
 * with the reason once the body has fallen behind. Stopped when the body ends, the next request
 * starts, or the connection closes. Only touched on the connection's event loop.
 */
final class BodyClock {
    private final BodyDeadline limit;
    private final ChannelHandlerContext ctx;
    private long start = Long.MIN_VALUE;   // ms (monotonic) when the clock started; MIN_VALUE when it does not run
    private long bytes;
    private ScheduledFuture<?> timer;
    private Consumer<String> behind;

    BodyClock(BodyDeadline limit, ChannelHandlerContext ctx) {
        this.limit = limit;
        this.ctx = ctx;
    }

    private static long nowMs() {
        return System.nanoTime() / 1_000_000;
    }

    /** Starts the clock (once per body, and only with a bound on bodies); {@code behind} gets why it fell behind. */
    void start(Consumer<String> behind) {
        if (start != Long.MIN_VALUE || !limit.enabled()) {
            return;
        }
        this.behind = behind;
        start = nowMs();
        arm();
    }

    /** Bytes of the body that arrived (counted whether or not the clock runs yet). */
    void received(long n) {
        bytes += n;
    }

    /** The body ended or was given up: no more timing, and the byte count starts again. */
    void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        start = Long.MIN_VALUE;
        bytes = 0;
        behind = null;
    }

    private void arm() {
        long at = limit.deadline(start, bytes);
        if (at != Long.MAX_VALUE) {
            timer = ctx.executor().schedule(this::check, Math.max(0, at - nowMs()), TimeUnit.MILLISECONDS);
        }
    }

    private void check() {
        timer = null;
        if (start == Long.MIN_VALUE) {
            return;
        }
        String why = limit.verdict(start, nowMs(), bytes);
        if (why == null) {
            arm();
            return;
        }
        Consumer<String> b = behind;
        stop();
        b.accept(why);
    }
}
