package geoblocks.sim.scenario;

import geoblocks.sim.harness.FlowSample;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of a LEDBAT-vs-TCP run, computed from the 100 ms flow samples. Shares and
 * utilization are fractions of the bottleneck capacity (goodput, payload bytes). Windows:
 * "alone" is the second half of the time before TCP starts (after LEDBAT's start-up); "during TCP"
 * skips the first {@code settleS} seconds after TCP starts; "after TCP" is from TCP's stop to the
 * end. Time to yield: from TCP's start until LEDBAT's trailing 500 ms mean first falls to 10 % of
 * capacity or less. Time to recover: from TCP's stop until it first reaches 80 % again. NaN when
 * the event does not happen within the run.
 */
public record LedbatMetrics(double utilizationAlone, double ledbatShareDuringTcp, double tcpShareDuringTcp,
        double ledbatShareAfterTcp, double timeToYieldS, double timeToRecoverS, double meanQueuingDelayAloneMs,
        double meanOwnQueuingDelayAloneMs) {

    public static final double YIELD_SHARE = 0.10;
    public static final double RECOVER_SHARE = 0.80;
    private static final int TRAILING = 5;

    /** Computes the figures; times in seconds, capacity in Mbit/s. */
    public static LedbatMetrics of(List<FlowSample> samples, double capacityMbps, double tcpStartS, double tcpStopS,
            double endS, double settleS) {
        TreeMap<Long, double[]> agg = new TreeMap<>(); // time -> {ledbat Mbps, tcp Mbps}
        double qSum = 0;
        int qN = 0;
        double oSum = 0;
        int oN = 0;
        double aloneFrom = tcpStartS / 2;
        for (FlowSample s : samples) {
            double[] a = agg.computeIfAbsent(s.timeMs(), k -> new double[2]);
            boolean ledbat = s.kind().equals("ledbat");
            a[ledbat ? 0 : 1] += s.throughputMbps();
            double t = s.timeMs() / 1000.0;
            if (ledbat && t > aloneFrom && t <= tcpStartS) {
                if (!Double.isNaN(s.queuingDelayMs())) {
                    qSum += s.queuingDelayMs();
                    qN++;
                }
                if (!Double.isNaN(s.ownQueuingDelayMs())) {
                    oSum += s.ownQueuingDelayMs();
                    oN++;
                }
            }
        }
        double alone = mean(agg, aloneFrom, tcpStartS, 0) / capacityMbps;
        double during = mean(agg, tcpStartS + settleS, tcpStopS, 0) / capacityMbps;
        double tcpDuring = mean(agg, tcpStartS + settleS, tcpStopS, 1) / capacityMbps;
        double after = mean(agg, tcpStopS, endS, 0) / capacityMbps;
        double yield = firstCrossing(agg, tcpStartS, tcpStopS, capacityMbps * YIELD_SHARE, true);
        double recover = firstCrossing(agg, tcpStopS, endS, capacityMbps * RECOVER_SHARE, false);
        return new LedbatMetrics(alone, during, tcpDuring, after, yield, recover, qN == 0 ? Double.NaN : qSum / qN,
                oN == 0 ? Double.NaN : oSum / oN);
    }

    /** Mean of column {@code col} over samples with from < t <= to. */
    static double mean(TreeMap<Long, double[]> agg, double fromS, double toS, int col) {
        double sum = 0;
        int n = 0;
        for (Map.Entry<Long, double[]> e : agg.entrySet()) {
            double t = e.getKey() / 1000.0;
            if (t > fromS + 1e-9 && t <= toS + 1e-9) {
                sum += e.getValue()[col];
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** Seconds after {@code fromS} at which LEDBAT's trailing mean first goes below/above {@code level}. */
    static double firstCrossing(TreeMap<Long, double[]> agg, double fromS, double toS, double level, boolean below) {
        double[] window = new double[TRAILING];
        int n = 0;
        for (Map.Entry<Long, double[]> e : agg.entrySet()) {
            double t = e.getKey() / 1000.0;
            if (t <= fromS + 1e-9) {
                continue;
            }
            if (t > toS + 1e-9) {
                break;
            }
            window[n % TRAILING] = e.getValue()[0];
            n++;
            if (n < TRAILING) {
                continue;
            }
            double m = 0;
            for (double v : window) {
                m += v;
            }
            m /= TRAILING;
            if (below ? m <= level : m >= level) {
                return t - fromS;
            }
        }
        return Double.NaN;
    }

    /** Jain's fairness index of the given throughputs: 1 when equal, 1/n when one takes all. */
    public static double jain(double... x) {
        double s = 0;
        double s2 = 0;
        for (double v : x) {
            s += v;
            s2 += v * v;
        }
        return s2 == 0 ? Double.NaN : s * s / (x.length * s2);
    }
}
