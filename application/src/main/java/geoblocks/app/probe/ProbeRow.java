package geoblocks.app.probe;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One line of a probe CSV: {@code timestamp,region,op,size_bytes,latency_ms,result}. The timestamp
 * is the operation's start (ISO-8601 UTC), op is PUT or GET, the latency is the operation's wall
 * time in milliseconds (also for a failure: the time it took to fail), and the result is
 * {@code ok} or {@code failed: <error>}. A result holding a comma, quote or line break is quoted
 * as RFC 4180 says (line breaks become spaces first, so one row is one line).
 */
public record ProbeRow(Instant timestamp, String region, String op, long sizeBytes, double latencyMs, String result) {
    public static final String HEADER = "timestamp,region,op,size_bytes,latency_ms,result";

    public ProbeRow {
        Objects.requireNonNull(timestamp, "timestamp");
        if (!op.equals("PUT") && !op.equals("GET")) {
            throw new IllegalArgumentException("op must be PUT or GET, was '" + op + "'");
        }
        if (region.isEmpty() || region.contains(",") || region.contains("\"")) {
            throw new IllegalArgumentException("bad region '" + region + "'");
        }
        if (sizeBytes < 0 || !(latencyMs >= 0)) {
            throw new IllegalArgumentException("size and latency must be >= 0, were " + sizeBytes + " and " + latencyMs);
        }
        result = result.replace('\r', ' ').replace('\n', ' ');
        if (!result.equals("ok") && !result.startsWith("failed")) {
            throw new IllegalArgumentException("result must be ok or failed: ..., was '" + result + "'");
        }
    }

    public static ProbeRow ok(Instant at, String region, String op, long size, double ms) {
        return new ProbeRow(at, region, op, size, ms, "ok");
    }

    public static ProbeRow failed(Instant at, String region, String op, long size, double ms, String error) {
        return new ProbeRow(at, region, op, size, ms, "failed: " + (error == null ? "unknown error" : error));
    }

    public boolean ok() {
        return result.equals("ok");
    }

    public String toCsv() {
        return timestamp + "," + region + "," + op + "," + sizeBytes + "," + String.format(Locale.ROOT, "%.3f", latencyMs)
                + "," + quote(result);
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /** Parses a line written by {@link #toCsv}; names the problem otherwise. */
    public static ProbeRow parse(String line) {
        List<String> cells = split(line);
        if (cells.size() != 6) {
            throw new IllegalArgumentException("expected 6 fields (" + HEADER + "), got " + cells.size() + ": " + line);
        }
        try {
            return new ProbeRow(Instant.parse(cells.get(0)), cells.get(1), cells.get(2), Long.parseLong(cells.get(3)),
                    Double.parseDouble(cells.get(4)), cells.get(5));
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("bad probe row '" + line + "': " + e.getMessage());
        }
    }

    private static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"' && cell.length() == 0) {
                quoted = true;
            } else if (c == ',') {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quote in probe row: " + line);
        }
        out.add(cell.toString());
        return out;
    }
}
