package geoblocks.app.probe;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Probe rows summarised per period (UTC day or hour), op and size: how many operations ran, how
 * many failed, and the median and 90th percentile of the successful ones' latency (nearest rank:
 * the smallest latency with at least p % of the values at or below it). Pure.
 */
public final class ProbeSummary {
    /** How rows are grouped in time. */
    public enum Period {
        DAY(DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC)),
        HOUR(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH':00Z'").withZone(ZoneOffset.UTC));

        final DateTimeFormatter format;

        Period(DateTimeFormatter format) {
            this.format = format;
        }
    }

    /** One group's figures; the percentiles are NaN when no operation of the group succeeded. */
    public record Line(String period, String op, long sizeBytes, int count, int failed, double medianMs, double p90Ms) {
        public String toCsv() {
            return period + "," + op + "," + sizeBytes + "," + count + "," + failed + "," + fmt(medianMs) + "," + fmt(p90Ms);
        }

        private static String fmt(double v) {
            return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
        }
    }

    public static final String HEADER = "period,op,size_bytes,count,failed,median_ms,p90_ms";

    private ProbeSummary() {}

    /** The lines, ordered by period, then op (PUT before GET), then size. */
    public static List<Line> of(List<ProbeRow> rows, Period period) {
        record Key(String period, int opOrder, long size) implements Comparable<Key> {
            public int compareTo(Key o) {
                int c = period.compareTo(o.period);
                if (c == 0) {
                    c = Integer.compare(opOrder, o.opOrder);
                }
                return c != 0 ? c : Long.compare(size, o.size);
            }
        }
        Map<Key, List<ProbeRow>> groups = new TreeMap<>();
        for (ProbeRow r : rows) {
            Key k = new Key(period.format.format(r.timestamp()), r.op().equals("PUT") ? 0 : 1, r.sizeBytes());
            groups.computeIfAbsent(k, x -> new ArrayList<>()).add(r);
        }
        List<Line> out = new ArrayList<>();
        groups.forEach((k, g) -> {
            List<Double> ok = new ArrayList<>();
            int failed = 0;
            for (ProbeRow r : g) {
                if (r.ok()) {
                    ok.add(r.latencyMs());
                } else {
                    failed++;
                }
            }
            Collections.sort(ok);
            out.add(new Line(k.period(), k.opOrder() == 0 ? "PUT" : "GET", k.size(), g.size(), failed,
                    percentile(ok, 50), percentile(ok, 90)));
        });
        return out;
    }

    /** Nearest-rank percentile of sorted values; NaN for none. */
    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
