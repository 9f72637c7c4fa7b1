package geoblocks.sim.net;

import java.io.Serializable;

/**
 * A bottleneck link's parameters: capacity in bit/s and a drop-tail buffer in bytes. Invariant: both
 * are positive; the buffer holds at least one full-size packet.
 */
public record LinkSpec(long capacityBps, long bufferBytes) implements Serializable {
    public LinkSpec {
        if (capacityBps <= 0) {
            throw new IllegalArgumentException("link capacity must be > 0 bit/s, was " + capacityBps);
        }
        if (bufferBytes < 1500) {
            throw new IllegalArgumentException("link buffer must hold a 1500-byte packet, was " + bufferBytes + " bytes");
        }
    }

    /** A link of {@code mbps} Mbit/s whose buffer drains in {@code bufferMs} milliseconds at full rate. */
    public static LinkSpec ofMbps(double mbps, double bufferMs) {
        long bps = Math.round(mbps * 1_000_000);
        return new LinkSpec(bps, Math.max(1500, Math.round(bps / 8.0 * bufferMs / 1000.0)));
    }

    /** Milliseconds the full buffer takes to drain at capacity. */
    public double bufferMs() {
        return bufferBytes * 8_000.0 / capacityBps;
    }
}
