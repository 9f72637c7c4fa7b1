package geoblocks.app.bench;

import geoblocks.blockstore.wire.BenchOp.NetBenchResult;
import geoblocks.node.http.JsonWriter;
import java.util.List;
import java.util.Optional;

/** {@code bench net}'s output: a row per test and the one JSON object of {@code --json}. */
public final class NetBenchReport {
    private NetBenchReport() {}

    /** Received megabits per second. */
    public static double mbps(NetBenchResult r) {
        return r.nanos() > 0 ? r.receivedBytes() * 8 / 1e6 / (r.nanos() / 1e9) : 0;
    }

    /** Datagrams (messages) sent but not received, in percent; 0 when nothing was sent. */
    public static double lossPct(NetBenchResult r) {
        return r.sentPackets() > 0 ? 100.0 * Math.max(0, r.sentPackets() - r.receivedPackets()) / r.sentPackets() : 0;
    }

    public static double jitterMs(NetBenchResult r) {
        return r.jitterNanos() / 1e6;
    }

    public static String header() {
        return String.format("%-7s %7s %12s %12s %10s %10s %9s %10s", "MODE", "STREAMS", "OFFERED", "MBIT/S",
                "SENT", "RECEIVED", "LOSS %", "JITTER ms");
    }

    public static String row(NetBenchResult r) {
        boolean udp = r.mode().equals("udp");
        return String.format("%-7s %7d %12s %12.1f %10d %10d %9s %10s", r.mode(), r.streams(),
                udp ? String.format("%.0f Mbit/s", r.offeredBps() * (double) r.streams() / 1e6) : "-", mbps(r),
                r.sentPackets(), r.receivedPackets(), udp ? String.format("%.3f", lossPct(r)) : "-",
                udp ? String.format("%.3f", jitterMs(r)) : "-");
    }

    public static String json(NetBenchPlan plan, List<NetBenchResult> results) {
        Optional<NetBenchResult> tcp = find(results, "tcp", 0);
        Optional<NetBenchResult> udp = find(results, "udp", plan.headlineRate());
        Optional<NetBenchResult> ledbat = find(results, "ledbat", 0);
        JsonWriter j = new JsonWriter().begin().field("from", plan.from()).field("to", plan.to());
        j.field("tcp_mbps", tcp.map(NetBenchReport::mbps).orElse(Double.NaN));
        j.field("udp_mbps", udp.map(NetBenchReport::mbps).orElse(Double.NaN));
        j.field("udp_offered_mbps", plan.headlineRate() / 1e6);
        j.field("udp_loss_pct", udp.map(NetBenchReport::lossPct).orElse(Double.NaN));
        j.field("udp_jitter_ms", udp.map(NetBenchReport::jitterMs).orElse(Double.NaN));
        j.field("ledbat_mbps", ledbat.map(NetBenchReport::mbps).orElse(Double.NaN));
        j.name("runs").beginArray();
        for (NetBenchResult r : results) {
            j.begin().field("mode", r.mode()).field("streams", r.streams()).field("offered_bps", r.offeredBps())
                    .field("sent_bytes", r.sentBytes()).field("sent_packets", r.sentPackets())
                    .field("received_bytes", r.receivedBytes()).field("received_packets", r.receivedPackets())
                    .field("seconds", r.nanos() / 1e9).field("mbps", mbps(r)).field("loss_pct", lossPct(r))
                    .field("jitter_ms", jitterMs(r)).end();
        }
        return j.endArray().end().toString();
    }

    /** The one-stream result of {@code mode} (udp: at {@code rate}). */
    private static Optional<NetBenchResult> find(List<NetBenchResult> results, String mode, long rate) {
        return results.stream().filter(r -> r.mode().equals(mode) && r.streams() == 1
                && (!mode.equals("udp") || r.offeredBps() == rate)).findFirst();
    }
}
