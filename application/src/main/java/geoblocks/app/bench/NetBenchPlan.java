package geoblocks.app.bench;

import geoblocks.blockstore.core.NetBenchLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code bench net} asks the {@code from} node to run to the {@code to} node, validated
 * before anything is sent: tcp with 1 and N streams; udp at each offered rate (per stream, as
 * iperf3's {@code -b}) with 1 and N streams; ledbat with 1 and N streams. The headline (the
 * JSON's top-level figures) is tcp and ledbat with 1 stream, and udp with 1 stream at the
 * highest offered rate.
 */
public record NetBenchPlan(String from, String to, List<String> modes, int streams, long bytes, long ledbatBytes,
        List<Long> udpRates, int udpDurationMs, int udpPayload) {

    /** One test: the fields of a bench net request. */
    public record Run(String mode, int streams, long bytes, long rateBps, int durationMs, int payload) {}

    public NetBenchPlan {
        modes = List.copyOf(modes);
        udpRates = List.copyOf(udpRates);
        if (from.equals(to)) {
            throw new IllegalArgumentException("--from and --to must be two different regions, both were " + from);
        }
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("--modes must name at least one of tcp, udp, ledbat");
        }
        if (modes.contains("udp") && udpRates.isEmpty()) {
            throw new IllegalArgumentException("--udp-rates must not be empty");
        }
        for (Run r : runsOf(modes, streams, bytes, ledbatBytes, udpRates, udpDurationMs, udpPayload)) {
            String problem = NetBenchLimits.problem(r.mode(), r.streams(), r.bytes(), r.rateBps(), r.durationMs(),
                    r.payload());
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
    }

    /** Also checks that both regions are in the cluster. */
    public NetBenchPlan checkRegions(List<String> regions) {
        for (String r : List.of(from, to)) {
            if (!regions.contains(r)) {
                throw new IllegalArgumentException("region '" + r + "' is not in the cluster " + regions);
            }
        }
        return this;
    }

    public List<Run> runs() {
        return runsOf(modes, streams, bytes, ledbatBytes, udpRates, udpDurationMs, udpPayload);
    }

    private static List<Run> runsOf(List<String> modes, int streams, long bytes, long ledbatBytes, List<Long> rates,
            int durationMs, int payload) {
        List<Integer> counts = streams == 1 ? List.of(1) : List.of(1, streams);
        List<Run> runs = new ArrayList<>();
        for (String mode : modes) {
            for (int n : counts) {
                switch (mode) {
                    case "tcp" -> runs.add(new Run("tcp", n, bytes, 0, 0, 0));
                    case "ledbat" -> runs.add(new Run("ledbat", n, ledbatBytes, 0, 0, 0));
                    case "udp" -> rates.forEach(rate -> runs.add(new Run("udp", n, 0, rate, durationMs, payload)));
                    default -> runs.add(new Run(mode, n, bytes, 0, 0, 0)); // refused by the limits
                }
            }
        }
        return runs;
    }

    /** The highest offered UDP rate: the headline's. */
    public long headlineRate() {
        return udpRates.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /**
     * A rate in bits per second, iperf3-style: a number with an optional K, M or G suffix (powers
     * of 1000), e.g. 500K, 100M, 1G.
     */
    public static long parseRate(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            unit = switch (t.charAt(t.length() - 1)) {
                case 'K' -> 1_000L;
                case 'M' -> 1_000_000L;
                default -> 1_000_000_000L;
            };
            t = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(t);
            if (!(v > 0) || v * unit > Long.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return Math.round(v * unit);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rate must be a positive number of bit/s with an optional K, M or G,"
                    + " was '" + s + "'");
        }
    }
}
