package geoblocks.node.http;

import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's chart history, kept by the server so a freshly opened page draws the last minutes
 * at once: a ring of the last {@code capacity} samples, one per node snapshot (about one a second).
 * A sample holds the foreground and background byte rates sent and received since the previous
 * sample (bytes per second; null in the first sample, which has no previous one) and, per LEDBAT
 * peer, its cwnd (bytes) and queuing delay (ms; null until measured, or when the peer had no flow
 * at that sample). Time is passed in ({@code nowMillis}, the snapshot's time). Memory is fixed:
 * arrays of {@code capacity} per series, at most {@link #MAX_PEERS} peers. Thread-safe (one writer,
 * the node's snapshot handler; readers are HTTP requests).
 */
public final class TransferHistory {
    /** Five minutes of one-second samples. */
    public static final int DEFAULT_CAPACITY = 300;
    /** Peers with a series of their own; later ones are left out (a cluster has at most 32 regions). */
    static final int MAX_PEERS = 64;
    private final int capacity;
    private final long[] times;
    private final double[] fgSent;
    private final double[] fgReceived;
    private final double[] bgSent;
    private final double[] bgReceived;
    /** Per peer: cwnd bytes and queuing delay ms, index-aligned with {@link #times}. */
    private final Map<String, double[][]> peers = new LinkedHashMap<>();
    private int size;
    /** Where the next sample goes. */
    private int next;
    private long lastMillis = Long.MIN_VALUE;
    private Transfers last;

    public TransferHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("history capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
        this.times = new long[capacity];
        this.fgSent = new double[capacity];
        this.fgReceived = new double[capacity];
        this.bgSent = new double[capacity];
        this.bgReceived = new double[capacity];
    }

    /**
     * Adds the sample of a snapshot taken at {@code nowMillis}: its transfer counters and LEDBAT
     * peers. A snapshot not newer than the last sample is ignored.
     */
    public synchronized void add(long nowMillis, Transfers t, List<LedbatPeer> ledbat) {
        if (nowMillis <= lastMillis) {
            return;
        }
        int i = next;
        times[i] = nowMillis;
        if (last == null) {
            fgSent[i] = fgReceived[i] = bgSent[i] = bgReceived[i] = Double.NaN;
        } else {
            double seconds = (nowMillis - lastMillis) / 1000.0;
            fgSent[i] = rate(t.foregroundSent() - last.foregroundSent(), seconds);
            fgReceived[i] = rate(t.foregroundReceived() - last.foregroundReceived(), seconds);
            bgSent[i] = rate(t.backgroundSent() - last.backgroundSent(), seconds);
            bgReceived[i] = rate(t.backgroundReceived() - last.backgroundReceived(), seconds);
        }
        for (double[][] p : peers.values()) {
            p[0][i] = Double.NaN;
            p[1][i] = Double.NaN;
        }
        for (LedbatPeer p : ledbat) {
            double[][] series = peers.get(p.region());
            if (series == null) {
                if (peers.size() >= MAX_PEERS) {
                    continue;
                }
                series = new double[2][capacity];
                Arrays.fill(series[0], Double.NaN);
                Arrays.fill(series[1], Double.NaN);
                peers.put(p.region(), series);
            }
            series[0][i] = p.cwndBytes();
            series[1][i] = p.queuingDelayMs();
        }
        last = t;
        lastMillis = nowMillis;
        next = (i + 1) % capacity;
        size = Math.min(size + 1, capacity);
    }

    /** A counter's increase over {@code seconds}, per second; a counter that went back (never, in one process) gives 0. */
    private static double rate(long delta, double seconds) {
        return Math.max(0, delta) / seconds;
    }

    public synchronized int size() {
        return size;
    }

    /**
     * Writes the samples, oldest first, as columns: {@code {"capacity", "timeMillis": [...],
     * "foregroundSentBps", "foregroundReceivedBps", "backgroundSentBps", "backgroundReceivedBps": [...],
     * "ledbat": {peer: {"cwndBytes": [...], "queuingDelayMs": [...]}}}}, every array as long as
     * {@code timeMillis}; null where there is no value.
     */
    public synchronized void write(JsonWriter j) {
        int first = (next - size + capacity) % capacity;
        j.begin().field("capacity", capacity);
        j.name("timeMillis").beginArray();
        for (int k = 0; k < size; k++) {
            j.value(times[(first + k) % capacity]);
        }
        j.endArray();
        column(j, "foregroundSentBps", fgSent, first);
        column(j, "foregroundReceivedBps", fgReceived, first);
        column(j, "backgroundSentBps", bgSent, first);
        column(j, "backgroundReceivedBps", bgReceived, first);
        j.name("ledbat").begin();
        for (Map.Entry<String, double[][]> e : peers.entrySet()) {
            j.name(e.getKey()).begin();
            column(j, "cwndBytes", e.getValue()[0], first);
            column(j, "queuingDelayMs", e.getValue()[1], first);
            j.end();
        }
        j.end().end();
    }

    private void column(JsonWriter j, String name, double[] values, int first) {
        j.name(name).beginArray();
        for (int k = 0; k < size; k++) {
            j.value(values[(first + k) % capacity]);
        }
        j.endArray();
    }
}
