package geoblocks.app.probe;

import java.io.IOException;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The probe loop: round k starts at {@code start + k * every} (a round that runs late starts the
 * next one at once, no round is skipped); in each round, for each size, a PUT of a new file and
 * then a GET of it, each written as one {@link ProbeRow}. A failed operation is a row with its
 * error, never the end of the probe; a GET after a failed PUT still runs (it reads the last good
 * upload of that size, or fails). Time comes from the injected clocks; waiting from the sleeper.
 */
public final class Probe {
    /** The operations probed, at the probe's region. */
    public interface Ops {
        /** Uploads {@code size} bytes as {@code name} (content fixed by {@code key}). */
        void put(String name, long key, long size) throws IOException;

        /** Downloads {@code name}, checking it is the content of {@code key}. */
        void get(String name, long key, long size) throws IOException;
    }

    /** Waits {@code millis}; interruptible. */
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final ProbeSettings settings;
    private final Ops ops;
    private final LongSupplier nanos;
    private final LongSupplier wallMillis;
    private final Sleeper sleeper;

    public Probe(ProbeSettings settings, Ops ops, LongSupplier nanos, LongSupplier wallMillis, Sleeper sleeper) {
        this.settings = settings;
        this.ops = ops;
        this.nanos = nanos;
        this.wallMillis = wallMillis;
        this.sleeper = sleeper;
    }

    /** Runs the rounds (forever when count is 0), giving every row to {@code rows} as it is made. */
    public void run(Consumer<ProbeRow> rows) throws InterruptedException {
        long start = nanos.getAsLong();
        long[] lastKey = new long[settings.sizes().size()];
        for (long round = 0; settings.count() == 0 || round < settings.count(); round++) {
            long due = start + round * settings.everyMs() * 1_000_000L;
            long wait = (due - nanos.getAsLong()) / 1_000_000L;
            if (wait > 0) {
                sleeper.sleep(wait);
            }
            for (int i = 0; i < settings.sizes().size(); i++) {
                long size = settings.sizes().get(i);
                String name = "probe/" + settings.region() + "/" + size;
                long key = (round + 1) * 1_000_003L + size;
                if (once("PUT", size, () -> ops.put(name, key, size), rows)) {
                    lastKey[i] = key;
                }
                long expect = lastKey[i] != 0 ? lastKey[i] : key;
                once("GET", size, () -> ops.get(name, expect, size), rows);
            }
        }
    }

    private interface Op {
        void run() throws Exception;
    }

    private boolean once(String op, long size, Op body, Consumer<ProbeRow> rows) {
        Instant at = Instant.ofEpochMilli(wallMillis.getAsLong());
        long t0 = nanos.getAsLong();
        String why = null;
        try {
            body.run();
        } catch (Exception e) {
            why = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        double ms = (nanos.getAsLong() - t0) / 1e6;
        rows.accept(why == null ? ProbeRow.ok(at, settings.region(), op, size, ms)
                : ProbeRow.failed(at, settings.region(), op, size, ms, why));
        return why == null;
    }
}
