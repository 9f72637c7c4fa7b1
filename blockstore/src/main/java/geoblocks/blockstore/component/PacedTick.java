package geoblocks.blockstore.component;

import geoblocks.blockstore.core.TickPace;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.timer.CancelPeriodicTimeout;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;

/**
 * A component's periodic tick at the pace {@link TickPace} decides: 250 ms while the component works, 1 s
 * once it has been idle for 2 s, fast again at the next activity. It schedules the component's own tick
 * event on the component's timer port (both given by the component), and schedules again only when the
 * interval changes. The component's own: not thread-safe.
 */
final class PacedTick {
    private final TickPace pace = new TickPace(250_000_000L, 1_000_000_000L, 2_000_000_000L);
    private final Consumer<KompicsEvent> toTimer;
    private final Function<SchedulePeriodicTimeout, Timeout> tick;
    private UUID timerId;
    private long nanos;

    /** Triggers its requests with {@code toTimer}; {@code tick} makes the component's tick event. */
    PacedTick(Consumer<KompicsEvent> toTimer, Function<SchedulePeriodicTimeout, Timeout> tick) {
        this.toTimer = toTimer;
        this.tick = tick;
    }

    /** The component started: tick fast. */
    void start() {
        schedule(pace.fastNanos());
    }

    /** Something moved at {@code now}: the tick turns fast at once if it was slow. */
    void activity(long now) {
        if (pace.activity(now, nanos)) {
            schedule(pace.fastNanos());
        }
    }

    /** A tick ran at {@code now}, with work under way or not: the interval from here on. */
    void ticked(long now, boolean busy) {
        long want = pace.intervalAt(now, busy);
        if (want != nanos) {
            schedule(want);
        }
    }

    private void schedule(long intervalNanos) {
        if (timerId != null) {
            toTimer.accept(new CancelPeriodicTimeout(timerId));
        }
        long ms = intervalNanos / 1_000_000;
        SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(ms, ms);
        spt.setTimeoutEvent(tick.apply(spt));
        timerId = spt.getTimeoutEvent().getTimeoutId();
        nanos = intervalNanos;
        toTimer.accept(spt);
    }
}
