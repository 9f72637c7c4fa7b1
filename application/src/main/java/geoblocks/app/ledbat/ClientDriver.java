package geoblocks.app.ledbat;

import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.net.NetAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.Start;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Client side of the test application: opens {@code parallel} streams to the server, sends random
 * bytes for a duration or an amount (at most 16 MiB unacknowledged per stream), checksums what it
 * sent, closes the streams and waits for the server's {@link ResultRecord}s. The outcome (exit code
 * and report) goes to {@link ClientOutcome}.
 */
public final class ClientDriver extends ComponentDefinition {
    private static final int CHUNK = 64 * 1024;
    private static final long MAX_OUTSTANDING = 16L << 20;
    /** Bytes queued in the transport but not yet sent: small, so a timed run stops soon after its time. */
    private static final long MAX_QUEUED = 2L << 20;
    /** Random bytes; each chunk is a copy of a random window of it (cheap, and not compressible). */
    private static final byte[] POOL = new byte[4 << 20];

    static {
        new SplittableRandom(0x5eed).nextBytes(POOL);
    }

    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final ClientInit init;
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final Map<String, ByteArrayOutputStream> replies = new HashMap<>();
    private final Map<Integer, ResultRecord> results = new HashMap<>();
    private long startNanos;
    private boolean stopping;

    private static final class Stream {
        final int index;
        final int id;
        final SplittableRandom random;
        final CRC32C crc = new CRC32C();
        long sent;
        long acked;
        long queued;
        boolean closed;
        long doneNanos;
        StatsCsv csv;

        Stream(int index, int id) {
            this.index = index;
            this.id = id;
            this.random = new SplittableRandom(0x5eed + index);
        }
    }

    public ClientDriver(ClientInit init) {
        this.init = init;
        handle(control, Start.class, e -> start());
        handle(ledbat, StreamOpened.class, this::onOpened);
        handle(ledbat, SendProgress.class, this::onProgress);
        handle(ledbat, StreamClosed.class, this::onClosed);
        handle(ledbat, StreamFailed.class, f -> finish(1, "stream " + f.streamId() + " failed: " + f.reason()));
        handle(ledbat, DataReceived.class, this::onReply);
        handle(ledbat, StreamStats.class, this::onStats);
        handle(ledbat, PeerStats.class, p -> {
            for (PeerStats.Peer peer : p.peers()) {
                pathMtu = peer.pathMtuBytes();   // one peer: the server
            }
        });
        handle(timer, TimeUp.class, t -> stopAll());
    }

    private void start() {
        startNanos = System.nanoTime();
        if (init.logDir != null) {
            // wall-clock start of the time axis of the CSVs, so other measurements can be aligned
            try {
                Files.writeString(init.logDir.resolve("start_epoch_ms"),
                        System.currentTimeMillis() + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (int i = 0; i < init.parallel; i++) {
            trigger(new OpenStream(init.remote, i), ledbat);
        }
        if (init.durationMillis > 0) {
            ScheduleTimeout st = new ScheduleTimeout(init.durationMillis);
            st.setTimeoutEvent(new TimeUp(st));
            trigger(st, timer);
        }
    }

    private void onOpened(StreamOpened o) {
        Stream s = new Stream((int) o.tag(), o.streamId());
        if (init.logDir != null) {
            s.csv = new StatsCsv(init.logDir.resolve("stream-" + s.index + ".csv"), startNanos / 1000);
        }
        streams.put(o.streamId(), s);
        fill(s);
    }

    private void onProgress(SendProgress p) {
        Stream s = streams.get(p.streamId());
        if (s != null) {
            s.acked = p.ackedBytes();
            s.queued = p.queuedBytes();
            fill(s);
        }
    }

    private void fill(Stream s) {
        while (!s.closed && s.sent - s.acked < MAX_OUTSTANDING && s.queued < MAX_QUEUED
                && (init.bytesPerStream < 0 || s.sent < init.bytesPerStream)) {
            int len = (int) (init.bytesPerStream < 0 ? CHUNK : Math.min(CHUNK, init.bytesPerStream - s.sent));
            byte[] chunk = new byte[len];
            System.arraycopy(POOL, s.random.nextInt(POOL.length - CHUNK), chunk, 0, len);
            s.crc.update(chunk);
            s.sent += len;
            s.queued += len;
            trigger(new SendData(s.id, chunk), ledbat);
        }
        if (!s.closed && init.bytesPerStream >= 0 && s.sent >= init.bytesPerStream) {
            s.closed = true;
            trigger(new CloseStream(s.id), ledbat);
        }
    }

    private void stopAll() {
        stopping = true;
        for (Stream s : streams.values()) {
            if (!s.closed) {
                s.closed = true;
                trigger(new CloseStream(s.id), ledbat);
            }
        }
    }

    private void onClosed(StreamClosed c) {
        if (!c.sender()) {
            return; // a server reply stream ended; handled in onReply
        }
        Stream s = streams.get(c.streamId());
        if (s != null) {
            s.acked = c.bytes();
            s.doneNanos = System.nanoTime();
            if (s.csv != null) {
                s.csv.close();
            }
        }
        check();
    }

    private void onReply(DataReceived d) {
        ByteArrayOutputStream buf = replies.computeIfAbsent(d.peer() + "/" + d.streamId(), k -> new ByteArrayOutputStream());
        buf.writeBytes(d.data());
        if (buf.size() >= ResultRecord.SIZE) {
            try {
                ResultRecord r = ResultRecord.decode(ByteBuffer.wrap(buf.toByteArray()));
                results.put(r.streamId(), r);
            } catch (IllegalArgumentException e) {
                finish(1, "unexpected reply from " + d.peer() + ": " + e.getMessage());
                return;
            }
            replies.remove(d.peer() + "/" + d.streamId());
            check();
        }
    }

    private void onStats(StreamStats st) {
        Stream s = streams.get(st.streamId());
        if (s != null && s.csv != null && s.doneNanos == 0) {
            s.csv.row(st);
        }
    }

    private void check() {
        if (streams.size() < init.parallel || results.size() < init.parallel) {
            return;
        }
        for (Stream s : streams.values()) {
            if (s.doneNanos == 0) {
                return;
            }
        }
        StringBuilder out = new StringBuilder();
        long total = 0;
        long end = 0;
        boolean ok = true;
        for (int i = 0; i < init.parallel; i++) {
            for (Stream s : streams.values()) {
                if (s.index != i) {
                    continue;
                }
                ResultRecord r = results.get(s.id);
                boolean match = r != null && r.bytes() == s.sent && r.crc() == s.crc.getValue();
                ok &= match;
                double secs = (s.doneNanos - startNanos) / 1e9;
                out.append(String.format("stream %d: sent %d bytes, server got %d, crc32c %08x/%08x %s, %.2f s, %.1f Mbit/s%n",
                        i, s.sent, r == null ? -1 : r.bytes(), s.crc.getValue(), r == null ? 0 : r.crc(),
                        match ? "OK" : "MISMATCH", secs, s.sent * 8 / secs / 1e6));
                total += s.sent;
                end = Math.max(end, s.doneNanos);
            }
        }
        double secs = (end - startNanos) / 1e9;
        out.append(String.format("total: %d bytes in %.2f s = %.1f Mbit/s over %d stream(s)%s%s", total, secs,
                total * 8 / secs / 1e6, init.parallel, ok ? "" : " -- CHECKSUM MISMATCH",
                pathMtu > 0 ? ", path MTU " + pathMtu + " bytes of UDP payload" : ""));
        finish(ok ? 0 : 1, out.toString());
    }

    /** The path MTU LEDBAT last reported to the server (UDP payload bytes), 0 before any report. */
    private int pathMtu;

    private void finish(int code, String report) {
        init.outcome.complete(code, report);
    }

    /** The end of the sending time. */
    static final class TimeUp extends Timeout {
        TimeUp(ScheduleTimeout st) {
            super(st);
        }
    }

    /** Where to send, how much, and where results go. */
    public static final class ClientInit extends Init<ClientDriver> {
        final NetAddress remote;
        final int parallel;
        final long durationMillis;
        final long bytesPerStream;
        final Path logDir;
        final ClientOutcome outcome;

        ClientInit(NetAddress remote, int parallel, long durationMillis, long bytesPerStream, Path logDir,
                ClientOutcome outcome) {
            this.remote = remote;
            this.parallel = parallel;
            this.durationMillis = durationMillis;
            this.bytesPerStream = bytesPerStream;
            this.logDir = logDir;
            this.outcome = outcome;
        }
    }
}
