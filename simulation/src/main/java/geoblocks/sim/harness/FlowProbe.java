package geoblocks.sim.harness;

import geoblocks.net.NetAddress;

/**
 * What the sampler reads about one flow: bytes delivered to the receiving application, the
 * sender's congestion window and RTT samples. Updated by the flow's driver components inside the
 * simulation (single-threaded); the sampler reads and resets the interval fields every period.
 * The source and destination addresses name the flow's data path in the network model.
 */
public final class FlowProbe {
    private final String name;
    private final String kind;
    private final NetAddress source;
    private final NetAddress destination;
    private long deliveredBytes;
    private double cwndBytes = Double.NaN;
    private double rttSumMs;
    private int rttCount;
    private double lastRttMs = Double.NaN;
    private double ownQueueDelayMs = Double.NaN;

    FlowProbe(String name, String kind, NetAddress source, NetAddress destination) {
        this.name = name;
        this.kind = kind;
        this.source = source;
        this.destination = destination;
    }

    public void delivered(long bytes) {
        deliveredBytes += bytes;
    }

    public void cwnd(double bytes) {
        cwndBytes = bytes;
    }

    public void rttSample(double ms) {
        rttSumMs += ms;
        rttCount++;
        lastRttMs = ms;
    }

    /** The flow's own estimate of its queuing delay (LEDBAT reports one), for the record. */
    public void ownQueueDelay(double ms) {
        ownQueueDelayMs = ms;
    }

    public String name() {
        return name;
    }

    public String kind() {
        return kind;
    }

    public NetAddress source() {
        return source;
    }

    public NetAddress destination() {
        return destination;
    }

    long deliveredBytes() {
        return deliveredBytes;
    }

    double cwndBytes() {
        return cwndBytes;
    }

    double ownQueueDelayMs() {
        return ownQueueDelayMs;
    }

    /** Mean RTT sample since the last call (the last sample if none arrived), then resets. */
    double takeRttMs() {
        double r = rttCount == 0 ? lastRttMs : rttSumMs / rttCount;
        rttSumMs = 0;
        rttCount = 0;
        return r;
    }
}
