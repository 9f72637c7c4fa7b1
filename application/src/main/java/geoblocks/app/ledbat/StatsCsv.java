package geoblocks.app.ledbat;

import geoblocks.ledbat.port.StreamStats;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One CSV per stream, a row per {@link StreamStats} (every 100 ms): time since the client started,
 * the sender's counters, the receiver's out-of-order and duplicate counts, cwnd, flight size,
 * queuing delay, RTT estimates, CTO and the throughput acknowledged since the previous row.
 */
final class StatsCsv implements AutoCloseable {
    static final String HEADER = "time_s,sent,resent,acked_bytes,out_of_order,duplicate,lost,cwnd_bytes,"
            + "flight_bytes,queuing_delay_ms,rtt_ms,srtt_ms,rttvar_ms,cto_ms,throughput_mbps";

    private final BufferedWriter out;
    private final long startMicros;
    private long lastTime = -1;
    private long lastAcked;

    StatsCsv(Path file, long startMicros) {
        this.startMicros = startMicros;
        try {
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            out.write(HEADER);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    void row(StreamStats s) {
        double mbps = lastTime < 0 || s.timeMicros() <= lastTime ? 0
                : (s.ackedBytes() - lastAcked) * 8.0 / (s.timeMicros() - lastTime);
        lastTime = s.timeMicros();
        lastAcked = s.ackedBytes();
        try {
            out.write(String.format(Locale.ROOT, "%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.1f,%.3f",
                    (s.timeMicros() - startMicros) / 1e6, s.sentPackets(), s.resentPackets(), s.ackedBytes(),
                    s.outOfOrder(), s.duplicates(), s.lostPackets(), s.cwnd(), s.flightBytes(),
                    s.queuingDelayMicros() / 1e3, s.rttMicros() / 1e3, s.srttMicros() / 1e3, s.rttvarMicros() / 1e3,
                    s.ctoMicros() / 1e3, mbps));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
