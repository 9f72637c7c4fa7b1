package geoblocks.blockstore.core.liveness;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the failure detector ({@code geoblocks.node.failure-detector}, see blockstore's
 * reference.conf and docs/reliability.md): {@code threshold}, the phi above which a peer is
 * suspected; {@code minStdDeviationMs}, the least spread assumed in the gaps between a peer's
 * messages (so a very regular peer is not suspected at its first late message); {@code window}, how
 * many gaps the estimate keeps; {@code maxSilenceMs}, the silence after which a peer is down whatever
 * phi says. The least silence before a peer is down is {@code geoblocks.node.down-after}.
 */
public record DetectorSettings(double threshold, long minStdDeviationMs, int window, long maxSilenceMs) {
    /** Akka's and Cassandra's threshold of 8, half a second of spread, 100 gaps, 30 s at most. */
    public static final DetectorSettings DEFAULTS = new DetectorSettings(8.0, 500, 100, 30_000);

    public DetectorSettings {
        if (!(threshold > 0 && threshold <= 50)) {
            throw new IllegalArgumentException("geoblocks.node.failure-detector.threshold must be in (0, 50], was "
                    + threshold);
        }
        if (minStdDeviationMs < 1) {
            throw new IllegalArgumentException("geoblocks.node.failure-detector.min-std-deviation must be >= 1 ms, was "
                    + minStdDeviationMs + " ms");
        }
        if (window < 2 || window > 10_000) {
            throw new IllegalArgumentException("geoblocks.node.failure-detector.window must be in 2..10000, was " + window);
        }
        if (maxSilenceMs < 1) {
            throw new IllegalArgumentException("geoblocks.node.failure-detector.max-silence must be >= 1 ms, was "
                    + maxSilenceMs + " ms");
        }
    }

    /** These settings, checked against the node's down-after (the least silence before a peer is down). */
    public DetectorSettings coveringDownAfter(long downAfterMs) {
        if (downAfterMs > maxSilenceMs) {
            throw new IllegalArgumentException("geoblocks.node.failure-detector.max-silence (" + maxSilenceMs
                    + " ms) must be >= geoblocks.node.down-after (" + downAfterMs + " ms)");
        }
        return this;
    }

    public static DetectorSettings from(Config root) {
        Config c = root.getConfig("geoblocks.node.failure-detector");
        return new DetectorSettings(c.getDouble("threshold"),
                c.getDuration("min-std-deviation", TimeUnit.MILLISECONDS),
                c.getInt("window"),
                c.getDuration("max-silence", TimeUnit.MILLISECONDS));
    }
}
