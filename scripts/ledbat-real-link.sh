#!/usr/bin/env bash
# LEDBAT vs TCP over a real (kernel) 20 Mbit/s bottleneck. Run as root; not part of `mvn verify`.
#
#   sender ns  --veth-- router ns (tbf 20mbit on its egress toward the receiver) --veth-- receiver ns
#   10.77.1.1           10.77.1.254 | 10.77.2.254                                         10.77.2.1
#
# One LEDBAT stream (node.jar ledbat client -> server) runs for DURATION s; a kernel TCP flow
# (iperf3 -C cubic) runs from TCP_START to TCP_STOP s of LEDBAT's time axis. Writes the LEDBAT CSV,
# the TCP CSV, a PNG plot and a summary (LEDBAT alone, its share while TCP runs and after, time to
# yield and to recover) into OUT. Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/ledbat-real-link-<time>),
# DURATION (30), TCP_START (14), TCP_STOP (24), RATE (20mbit), PARALLEL (1),
# LEDBAT_ARGS (extra client/server options, e.g. "--target 10" or "--mode ledbat++"),
# RTT_MS (0), JITTER_MS (0), LOSS_PCT (0): with any of them set, the router forwards through
# scripts/delayline (TUN devices + policy routing; this kernel has no netem), RTT_MS/2 each way.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/real-link-topology.sh
source scripts/lib/real-link-topology.sh   # root check; RATE, RTT_MS, JITTER_MS, LOSS_PCT defaults
JAR=${JAR:-application/target/node.jar}
OUT=${OUT:-/tmp/ledbat-real-link-$(date +%Y%m%d-%H%M%S)}
DURATION=${DURATION:-30}
TCP_START=${TCP_START:-14}
TCP_STOP=${TCP_STOP:-24}
PARALLEL=${PARALLEL:-1}
LEDBAT_ARGS=${LEDBAT_ARGS:-}
[[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q -pl ledbat install -DskipTests && mvn -B -q -pl application package -DskipTests" >&2; exit 2; }
JAR=$(realpath "$JAR")
if ! command -v iperf3 >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null
fi
mkdir -p "$OUT/log"
rm -f "$OUT"/log/stream-*.csv "$OUT/log/start_epoch_ms" "$OUT/iperf3.json" "$OUT/tcp.csv"
OUT=$(realpath "$OUT")

topology_up lb
echo "topology up: sender 10.77.1.1 -> router (tbf $RATE, delay line RTT ${RTT_MS} ms, jitter ${JITTER_MS} ms, loss ${LOSS_PCT} %) -> receiver 10.77.2.1, $PING"

JAVA=(java -Dcom.barchart.udt.library.extract.location="$OUT/udt" -jar "$JAR")
# --- receivers ------------------------------------------------------------------------------
ip netns exec $C "${JAVA[@]}" ledbat server --bind 10.77.2.1 --port 7400 --verbose $LEDBAT_ARGS > "$OUT/server.out" 2>&1 &
PIDS+=($!)
ip netns exec $C iperf3 -s -p 5201 > "$OUT/iperf3-server.out" 2>&1 &
PIDS+=($!)
sleep 2

# --- LEDBAT for DURATION s, TCP from TCP_START to TCP_STOP -----------------------------------
ip netns exec $S "${JAVA[@]}" ledbat client --remote 10.77.2.1:7400 --time "$DURATION" --parallel "$PARALLEL" \
    --log "$OUT/log" --verbose $LEDBAT_ARGS > "$OUT/client.out" 2>&1 &
CLIENT=$!
PIDS+=($CLIENT)
for _ in $(seq 100); do [[ -s $OUT/log/start_epoch_ms ]] && break; sleep 0.1; done
START_MS=$(cat "$OUT/log/start_epoch_ms")
now_ms() { date +%s%3N; }
sleep "$(python3 -c "print(max(0, ($START_MS + $TCP_START * 1000 - $(now_ms)) / 1000))")"
TCP_T0_MS=$(now_ms)
ip netns exec $S iperf3 -c 10.77.2.1 -p 5201 -C cubic -t $((TCP_STOP - TCP_START)) -i 0.5 -J --get-server-output > "$OUT/iperf3.json" 2> "$OUT/iperf3.err" || echo "warning: iperf3 failed: $(cat "$OUT/iperf3.err")" >&2
set +e
wait $CLIENT
CLIENT_RC=$?
set -e
cat "$OUT/client.out"

# --- analysis -------------------------------------------------------------------------------
python3 - "$OUT" "$START_MS" "$TCP_T0_MS" "$TCP_START" "$TCP_STOP" "$DURATION" "$RATE" <<'PY'
import csv, glob, json, os, sys
out, start_ms, tcp_t0_ms, t_on, t_off, dur, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), sys.argv[7]
offset = (tcp_t0_ms - start_ms) / 1000.0
j = json.load(open(os.path.join(out, "iperf3.json")))
with open(os.path.join(out, "tcp.csv"), "w") as f:
    f.write("time_s,throughput_mbps\n")
    tcp = []
    # the receiver's view (bytes that crossed the bottleneck), not the sender's socket writes
    ivs = j.get("server_output_json", {}).get("intervals") or j.get("intervals", [])
    for iv in ivs:
        s = iv["sum"]
        tcp.append((s["end"] + offset, s["bits_per_second"] / 1e6))
        f.write("%.3f,%.3f\n" % tcp[-1])
led = {}
for fn in sorted(glob.glob(os.path.join(out, "log", "stream-*.csv"))):
    for r in csv.DictReader(open(fn)):
        t = round(float(r["time_s"]), 1)
        led.setdefault(t, [0.0, 0.0])
        led[t][0] += float(r["throughput_mbps"])
        led[t][1] = max(led[t][1], float(r["queuing_delay_ms"]))
ts = sorted(led)
def mean_led(a, b):
    v = [led[t][0] for t in ts if a <= t < b]
    return sum(v) / len(v) if v else float("nan")
def mean_qd(a, b):
    v = [led[t][1] for t in ts if a <= t < b]
    return sum(v) / len(v) if v else float("nan")
def mean_tcp(a, b):
    v = [m for (t, m) in tcp if a < t <= b]
    return sum(v) / len(v) if v else float("nan")
tcp_on, tcp_off = t_on + (offset - t_on), t_on + (offset - t_on) + (t_off - t_on)
alone = mean_led(4, t_on)
during = mean_led(tcp_on, tcp_off)
tcp_during = mean_tcp(tcp_on, tcp_off)
after = mean_led(tcp_off + 3, dur)
def smooth(t, w=0.5):
    v = [led[x][0] for x in ts if t - w < x <= t]
    return sum(v) / len(v) if v else float("nan")
yield_t = next((t - tcp_on for t in ts if tcp_on < t <= tcp_off and smooth(t) < 0.2 * alone), None)
recover_t = next((t - tcp_off for t in ts if t > tcp_off and smooth(t) >= 0.9 * alone), None)
per_sec = [mean_led(tcp_on + k, tcp_on + k + 1) for k in range(int(t_off - t_on))]
lines = [
    "link %s, LEDBAT time axis from the client's start; TCP (iperf3 cubic) from %.2f to %.2f s" % (rate, tcp_on, tcp_off),
    "LEDBAT alone (4-%.0f s):           %.2f Mbit/s, queuing delay %.1f ms" % (t_on, alone, mean_qd(4, t_on)),
    "while TCP runs: LEDBAT %.2f Mbit/s, TCP %.2f Mbit/s, LEDBAT share %.1f %%, queuing delay %.1f ms"
        % (during, tcp_during, 100 * during / (during + tcp_during), mean_qd(tcp_on, tcp_off)),
    "LEDBAT per second while TCP runs: " + ", ".join("%.1f" % v for v in per_sec),
    "time to yield (LEDBAT < 20 %% of its alone rate): %s" % ("%.1f s" % yield_t if yield_t is not None else "never"),
    "after TCP (%.0f-%.0f s):               %.2f Mbit/s" % (tcp_off + 3, dur, after),
    "time to recover (>= 90 %% of alone rate): %s" % ("%.1f s" % recover_t if recover_t is not None else "never"),
]
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
"${JAVA[@]}" ledbat plot --log "$OUT/log" --tcp "$OUT/tcp.csv" --out "$OUT/ledbat-real-link.png" \
    --title "LEDBAT vs TCP cubic, $RATE tbf bottleneck ${LEDBAT_ARGS:+($LEDBAT_ARGS)}"
echo "results in $OUT (client exit code $CLIENT_RC)"
exit $CLIENT_RC
