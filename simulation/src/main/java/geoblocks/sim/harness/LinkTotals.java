package geoblocks.sim.harness;

/** A link's totals at the end of a run. */
public record LinkTotals(String link, long packets, long bytes, long drops, double meanQueueDelayMs,
        double maxQueueDelayMs) {}
