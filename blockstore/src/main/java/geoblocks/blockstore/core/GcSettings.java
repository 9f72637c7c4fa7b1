package geoblocks.blockstore.core;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the block collector ({@code geoblocks.node.gc-grace}, {@code gc-interval}; see
 * blockstore's reference.conf and docs/operations.md): {@code graceMs}, how long a block no kept
 * version names is kept before it is collected (it must outlive the longest gap in the work that
 * writes blocks before a manifest names them: a block's transfer within an upload, a move's
 * keep-alive, an anti-entropy round), and {@code intervalMs}, how often a sweep over every block
 * starts (0: never; the collector is off).
 */
public record GcSettings(long graceMs, long intervalMs) {
    /** 10 minutes of grace (as Garage's BLOCK_GC_DELAY), a sweep every hour. */
    public static final GcSettings DEFAULTS = new GcSettings(600_000, 3_600_000);
    /** No sweeps. */
    public static final GcSettings OFF = new GcSettings(600_000, 0);

    public GcSettings {
        if (graceMs < 1000) {
            throw new IllegalArgumentException("geoblocks.node.gc-grace must be >= 1 s, was " + graceMs + " ms");
        }
        if (intervalMs != 0 && intervalMs < 1000) {
            throw new IllegalArgumentException("geoblocks.node.gc-interval must be 0 (off) or >= 1 s, was "
                    + intervalMs + " ms");
        }
    }

    public boolean enabled() {
        return intervalMs > 0;
    }

    public static GcSettings from(Config root) {
        Config c = root.getConfig("geoblocks.node");
        return new GcSettings(c.getDuration("gc-grace", TimeUnit.MILLISECONDS),
                c.getDuration("gc-interval", TimeUnit.MILLISECONDS));
    }
}
