package geoblocks.app.load;

import geoblocks.app.load.LoadStats.Op;
import geoblocks.app.load.LoadStats.OpStats;
import geoblocks.node.Sizes;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * The figures of a finished load run, and the one summary line that ends it:
 * {@code RESULT ... lost=N corrupt=N failed=N}. Lost: acknowledged files no node could return;
 * corrupt: acknowledged files ever returned with wrong bytes (during the run or in the final
 * check); failed: requests that failed during the run (allowed, e.g. while a node is down).
 */
final class LoadReport {
    /** The counts that decide the outcome (the exit code fails when lost or corrupt is not 0). */
    record Summary(long requests, double requestsPerSec, double mbPerSec, int acked, int verified, int lost,
            int corrupt, long failed, long okAfterKill, long missingReplicas, long refused, long retries, long queued,
            long failovers) {
        String line() {
            return String.format(Locale.ROOT,
                    "RESULT requests=%d req/s=%.1f MB/s=%.1f acked=%d verified=%d lost=%d corrupt=%d failed=%d ok-after-kill=%d missing-replicas=%d refused=%d retries=%d queued=%d failovers=%d",
                    requests, requestsPerSec, mbPerSec, acked, verified, lost, corrupt, failed, okAfterKill, missingReplicas,
                    refused, retries, queued, failovers);
        }
    }

    private LoadReport() {}

    static void printRun(PrintStream out, LoadRun.Result r) {
        LoadStats st = r.stats();
        double secs = r.windowMs() / 1e3;
        OpStats rd = st.of(Op.READ);
        OpStats wr = st.of(Op.WRITE);
        out.printf(Locale.ROOT, "%nthroughput over the measured %.0f s (successful requests that ended in it):%n", secs);
        out.printf(Locale.ROOT, "  requests/s  total %7.1f   read %7.1f   write %7.1f   (failed requests in the whole run: %d)%n",
                (rd.okInWindow.sum() + wr.okInWindow.sum()) / secs, rd.okInWindow.sum() / secs,
                wr.okInWindow.sum() / secs, st.total(o -> o.failed));
        out.printf(Locale.ROOT, "  MB/s        total %7.1f   read %7.1f   write %7.1f   (file bytes; nodes store each written byte once per replica)%n",
                (rd.bytesInWindow.sum() + wr.bytesInWindow.sum()) / 1e6 / secs, rd.bytesInWindow.sum() / 1e6 / secs,
                wr.bytesInWindow.sum() / 1e6 / secs);
        out.printf(Locale.ROOT, "%nlatency in ms (successful requests that started in the measured time):%n  %-6s %8s %9s %9s %9s %9s%n", "OP", "COUNT", "p50", "p90", "p99", "max");
        for (Op op : Op.values()) {
            Histogram h = st.of(op).latency;
            out.printf(Locale.ROOT, "  %-6s %8d %9s %9s %9s %9s%n", op.name().toLowerCase(Locale.ROOT), h.getTotalCount(),
                    ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 100));
        }
        out.printf(Locale.ROOT, "%nlatency in ms by file size (p50 / p90 / p99):%n  %-9s %30s %30s%n", "SIZE", "READ", "WRITE");
        for (Long size : rd.bySize.keySet()) {
            out.printf(Locale.ROOT, "  %-9s %30s %30s%n", Sizes.human(size), triple(rd.bySize.get(size)), triple(wr.bySize.get(size)));
        }
        List<LoadStats.Failure> failures = st.failures();
        if (!failures.isEmpty()) {
            out.printf("%nfailed requests by kind (allowed, e.g. while a node is down; never acknowledged):%n");
            for (LoadStats.Failure f : failures.subList(0, Math.min(8, failures.size()))) {
                out.printf("  %6d  %-5s %s%n", f.count(), f.kind().substring(0, f.kind().indexOf(':')).toLowerCase(Locale.ROOT),
                        f.example());
            }
        }
        if (r.killed() != null) {
            out.printf("%nnode %s was SIGKILLed%s; %d requests failed before the kill, %d after; %d succeeded after it%n",
                    r.killed(), r.restarted() ? " and restarted" : " (not restarted)", r.failedBeforeKill(),
                    st.total(o -> o.failed) - r.failedBeforeKill(), st.total(o -> o.okAfterKill));
        }
    }

    /**
     * Refusals, retries and queue waits, apart: requests that failed because a node refused them as
     * busy, the refusals the client sent again, and what the nodes' admission queues did meanwhile.
     */
    static void printAdmission(PrintStream out, LoadRun.Result r, AdmissionFigures a, long retries) {
        LoadStats st = r.stats();
        out.printf(Locale.ROOT, "%nbackpressure over the whole run:%n");
        out.printf(Locale.ROOT, "  refused as busy (failed requests):    %d of %d failed%n", st.total(o -> o.refused),
                st.total(o -> o.failed));
        out.printf(Locale.ROOT, "  busy refusals the client sent again: %d%n", retries);
        out.printf(Locale.ROOT, "  nodes' admission queues:             %d requests admitted at once, %d after waiting"
                + " (%.1f s in all, %.0f ms on average, longest since start %.0f ms); %d refused after the wait, %d with"
                + " the queue full%s%n", a.atOnce(), a.queued(), a.waitSeconds(),
                a.queued() == 0 ? 0.0 : a.waitSeconds() * 1e3 / a.queued(), a.maxWaitSeconds() * 1e3, a.refusedDeadline(),
                a.refusedFull(), a.missing().isEmpty() ? "" : " (no /metrics from " + a.missing() + ")");
    }

    static Summary summarize(LoadRun.Result r, Verifier.Outcome v, long missingReplicas, long retries, AdmissionFigures a) {
        LoadStats st = r.stats();
        Set<String> corrupt = new TreeSet<>(r.acked().corrupt());
        v.corrupt().forEach(c -> corrupt.add(c.substring(0, c.indexOf(':'))));
        double secs = r.windowMs() / 1e3;
        long ok = st.total(o -> o.okInWindow);
        return new Summary(st.total(o -> o.ok) + st.total(o -> o.failed) + st.total(o -> o.corrupt), ok / secs,
                st.total(o -> o.bytesInWindow) / 1e6 / secs, r.acked().size(), v.verified(), v.lost().size(),
                corrupt.size(), st.total(o -> o.failed), st.total(o -> o.okAfterKill), missingReplicas,
                st.total(o -> o.refused), retries, a.queued(), st.failovers.sum());
    }

    static void printVerification(PrintStream out, Verifier.Outcome v, int acked) {
        out.printf(Locale.ROOT, "%nread back %d of %d acknowledged files intact (%.1f MB in %.1f s)%n", v.verified(), acked,
                v.bytes() / 1e6, v.seconds());
        v.lost().stream().limit(20).forEach(l -> out.println("  LOST " + l));
        v.corrupt().stream().limit(20).forEach(c -> out.println("  CORRUPT " + c));
    }

    private static String ms(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        long micros = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
        return String.format(Locale.ROOT, "%.1f", micros / 1e3);
    }

    private static String triple(Histogram h) {
        return h.getTotalCount() == 0 ? "-" : ms(h, 50) + " / " + ms(h, 90) + " / " + ms(h, 99) + " (" + h.getTotalCount() + ")";
    }
}
