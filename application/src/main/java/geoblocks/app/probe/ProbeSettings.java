package geoblocks.app.probe;

import geoblocks.node.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code probe} does, validated: at {@code region}, every {@code everyMs}, PUT then GET one
 * file of each size; {@code count} rounds (0: until stopped). Sizes are binary (1KB = 1024 bytes,
 * as everywhere in node.jar), 1 byte..1 GiB.
 */
public record ProbeSettings(String region, long everyMs, List<Long> sizes, long count) {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)", Pattern.CASE_INSENSITIVE);
    static final long MAX_SIZE = 1L << 30;

    public ProbeSettings {
        sizes = List.copyOf(sizes);
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException("--at REGION is required");
        }
        if (everyMs < 1) {
            throw new IllegalArgumentException("--every must be at least 1 ms, was " + everyMs + " ms");
        }
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("--sizes must name at least one size");
        }
        for (long s : sizes) {
            if (s < 1 || s > MAX_SIZE) {
                throw new IllegalArgumentException("probe size " + s + " is out of range 1 B..1 GiB");
            }
        }
        if (count < 0) {
            throw new IllegalArgumentException("--count must be >= 0 (0: until stopped), was " + count);
        }
    }

    /** A duration: a number and a unit, ms, s, m or h (e.g. 250ms, 30s, 5m, 1h). */
    public static long parseMillis(String s) {
        Matcher m = DURATION.matcher(s == null ? "" : s.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("bad duration '" + s + "': use e.g. 30s, 5m, 1h, 250ms");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> n;
            case "s" -> n * 1000;
            case "m" -> n * 60_000;
            default -> n * 3_600_000;
        };
    }

    /** Sizes such as {@code 1KB,10KB,1MB}. */
    public static List<Long> parseSizes(List<String> sizes) {
        List<Long> out = new ArrayList<>();
        for (String s : sizes) {
            out.add(Sizes.parse(s.trim()));
        }
        return out;
    }
}
