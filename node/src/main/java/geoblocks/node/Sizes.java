package geoblocks.node;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints byte sizes: 65536, 64K, 64KiB, 1M, 1MiB, 1MB (all binary: K = 1024). */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)(i?b)?", Pattern.CASE_INSENSITIVE);

    private Sizes() {}

    public static long parse(String s) {
        Matcher m = SIZE.matcher(s == null ? "" : s.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("bad size '" + s + "': use e.g. 65536, 64KiB, 1MiB");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k": return n << 10;
            case "m": return n << 20;
            case "g": return n << 30;
            default: return n;
        }
    }

    public static String human(long bytes) {
        if (bytes >= 1 << 30 && bytes % (1 << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
