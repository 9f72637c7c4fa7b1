package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load test of SPEC.md experiment 9, short: {@code bench load} in this JVM against four real
 * node processes from node.jar, 8 threads for 30 s with small files, dublin SIGKILLed at 8 s and
 * restarted 5 s later (requests give up after 10 s of silence, so threads caught by the crash
 * come back before the end). Every acknowledged file must come back intact (read at every node in
 * turn, the restarted one included), requests must succeed after the kill, and the request log
 * must hold one row per request. Fixed seed; no assertion on speed.
 */
@ExtendWith(QuickLaunch.class)
class LoadIT {
    private static final Pattern RESULT = Pattern.compile(
            "RESULT requests=(\\d+) .* acked=(\\d+) verified=(\\d+) lost=(\\d+) corrupt=(\\d+) failed=(\\d+) ok-after-kill=(\\d+)");

    @TempDir
    Path work;

    @Test
    void shortLoad_withNodeKilledMidway_losesAndCorruptsNothing() throws Exception {
        assertTrue(Files.isRegularFile(Path.of(System.getProperty("geoblocks.nodeJar"))), "node.jar must be built");
        Path out = work.resolve("out");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        System.setOut(new PrintStream(new TeeStream(buf, stdout), true, StandardCharsets.UTF_8));
        try {
            exit = Main.run("bench", "load", "--threads", "8", "--duration", "30", "--sizes", "50KiB,100KiB,500KiB,1MiB",
                    "--block-size", "256KiB", "--think-ms", "500", "--seed", "42", "--kill", "dublin@8",
                    "--restart-after", "5", "--timeout", "10000", "--node-heap", "256m",
                    "--work-dir", work.resolve("cluster").toString(),
                    "--out", out.toString(), "--progress", "10");
        } finally {
            System.setOut(stdout);
        }
        String text = buf.toString(StandardCharsets.UTF_8);
        Matcher m = RESULT.matcher(text);
        assertTrue(m.find(), "no RESULT line in:\n" + text);
        long requests = Long.parseLong(m.group(1));
        long acked = Long.parseLong(m.group(2));
        assertEquals(0, Long.parseLong(m.group(4)), "lost files:\n" + text);
        assertEquals(0, Long.parseLong(m.group(5)), "corrupt files:\n" + text);
        assertEquals(acked, Long.parseLong(m.group(3)), "every acknowledged file read back intact:\n" + text);
        assertTrue(acked > 4, "files were written beyond the preload:\n" + text);
        assertTrue(Long.parseLong(m.group(7)) > 0, "requests succeeded after the kill:\n" + text);
        assertTrue(text.contains("SIGKILLed node dublin") && text.contains("restarted node dublin"), text);
        assertEquals(0, exit, text);

        List<String> rows = Files.readAllLines(out.resolve("requests.csv"));
        assertEquals("timestamp_ms,elapsed_ms,thread,op,size,latency_ms,result,region,name,error", rows.get(0));
        assertEquals(requests, rows.size() - 1, "one CSV row per request");
        assertTrue(rows.stream().anyMatch(r -> r.contains(",read,") && r.contains(",ok,dublin,")),
                "reads served by dublin (before or after its restart)");
        assertTrue(Files.readString(out.resolve("summary.txt")).startsWith("RESULT "));
    }

    /** Copies everything to two streams: the test reads the output, the build log still shows it. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        TeeStream(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
