package geoblocks.sim.harness;

/**
 * One flow at one sampling instant: throughput over the last period, the sender's cwnd, the mean
 * RTT sample, the queuing delay its packets met on the links (NaN when it sent none) and the
 * flow's own queuing-delay estimate (NaN when it has none).
 */
public record FlowSample(long timeMs, String flow, String kind, double throughputMbps, double cwndBytes,
        double rttMs, double queuingDelayMs, double ownQueuingDelayMs) {}
