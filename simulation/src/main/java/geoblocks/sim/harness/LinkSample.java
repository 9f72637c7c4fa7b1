package geoblocks.sim.harness;

/** One bottleneck link at one sampling instant: backlog (ms), drops so far, utilization (0..1). */
public record LinkSample(long timeMs, String link, double backlogMs, long drops, double utilization) {}
