package geoblocks.app.load;

import geoblocks.app.load.LoadStats.Op;
import java.io.PrintStream;

/**
 * Prints one line per interval while a load run goes: requests so far, requests/s and MB/s over
 * the last interval, failures and acknowledged files. Called from one scheduler thread.
 */
final class Progress {
    private final LoadStats stats;
    private final AckedFiles acked;
    private final PrintStream out;
    private final long startNanos;
    private long lastNanos;
    private long lastRequests;
    private long lastRead;
    private long lastWritten;

    Progress(LoadStats stats, AckedFiles acked, PrintStream out, long startNanos) {
        this.stats = stats;
        this.acked = acked;
        this.out = out;
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
    }

    void print() {
        long now = System.nanoTime();
        long ok = stats.total(o -> o.ok);
        long failed = stats.total(o -> o.failed);
        long corrupt = stats.total(o -> o.corrupt);
        long requests = ok + failed + corrupt;
        long read = stats.of(Op.READ).bytes.sum();
        long written = stats.of(Op.WRITE).bytes.sum();
        double dt = (now - lastNanos) / 1e9;
        out.printf("[%6.1f s] requests %d (%.1f/s)  read %.1f MB/s  write %.1f MB/s  failed %d%s  acked files %d%n",
                (now - startNanos) / 1e9, requests, (requests - lastRequests) / dt, (read - lastRead) / 1e6 / dt,
                (written - lastWritten) / 1e6 / dt, failed, corrupt > 0 ? "  CORRUPT " + corrupt : "", acked.size());
        lastNanos = now;
        lastRequests = requests;
        lastRead = read;
        lastWritten = written;
    }
}
