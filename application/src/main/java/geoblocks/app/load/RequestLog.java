package geoblocks.app.load;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One CSV row per request of a load run (SPEC.md experiment 8's columns plus where and what):
 * {@code timestamp_ms,elapsed_ms,thread,op,size,latency_ms,result,region,name,error}, where
 * timestamp is when the request started (Unix ms), result is ok, failed or corrupt (bytes read
 * back differ), and error is the failure's message. Thread-safe; a no-op without a file.
 */
final class RequestLog implements AutoCloseable {
    static final String HEADER = "timestamp_ms,elapsed_ms,thread,op,size,latency_ms,result,region,name,error";
    private final BufferedWriter out;

    private RequestLog(BufferedWriter out) {
        this.out = out;
    }

    static RequestLog none() {
        return new RequestLog(null);
    }

    static RequestLog to(Path csv) throws IOException {
        Files.createDirectories(csv.toAbsolutePath().getParent());
        BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
        w.write(HEADER);
        w.newLine();
        return new RequestLog(w);
    }

    void row(long startMillis, long elapsedMs, int thread, LoadStats.Op op, long size, double latencyMs,
            String result, String region, String name, String error) {
        if (out == null) {
            return;
        }
        String line = startMillis + "," + elapsedMs + "," + thread + "," + op.name().toLowerCase(Locale.ROOT) + "," + size + ","
                + String.format(Locale.ROOT, "%.3f", latencyMs) + "," + result + "," + region + "," + name + ","
                + (error == null ? "" : quote(error));
        synchronized (this) {
            try {
                out.write(line);
                out.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the request log: " + e.getMessage(), e);
            }
        }
    }

    private static String quote(String s) {
        return '"' + s.replace("\"", "\"\"").replace('\n', ' ').replace('\r', ' ') + '"';
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
