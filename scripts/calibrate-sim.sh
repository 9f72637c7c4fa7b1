#!/usr/bin/env bash
# Runs the same "LEDBAT vs TCP cubic" scenario on the real link (scripts/ledbat-real-link.sh) and in
# the simulator (node.jar simulate ledbat-vs-tcp --rtt-ms N) at each RTT, computes the same figures
# from both with scripts/reallink/linkmetrics.py, and prints them side by side. Run as root (the
# real link needs namespaces); not part of `mvn verify`.
#
# Scenario: 20 Mbit/s, 400 ms buffer, LEDBAT (defaults) for 30 s, TCP cubic from 14 to 24 s.
# Simulator model (SIM_MODEL):
#   calibrated (default): --tcp linux-cubic (HyStart, MSS 1448, delayed ACKs, SYN exchange, 200 ms
#     minimum RTO), the real link's bytes per packet on the bottleneck (LEDBAT over GeoNetwork:
#     +73 bytes per datagram for Ethernet, IP, UDP and the AEAD seal; TCP: +14 for Ethernet), and
#     LEDBAT starting when the real run's first data did (GeoNetwork sets up an authenticated
#     session first; the simulator has none)
#   plain: the model before calibration: --tcp cubic (RFC 8312, no HyStart, MSS 1460, an ACK per
#     segment), message sizes only, LEDBAT from time 0
#
# Environment: RTTS ("0 122 252"), OUT (/tmp/calibrate-sim-<time>), JAR (application/target/node.jar),
# SIM_MODEL (calibrated), REUSE_REAL (a directory holding real-rtt<N>/ from an earlier run: reuse
# those instead of running the real link again), REAL_ARGS (extra environment for the real-link
# script, e.g. "NICE=0").
#
# Figures (definitions in scripts/reallink/linkmetrics.py): LEDBAT alone (4-14 s), its share while
# TCP runs, time to yield and to recover, queuing delay alone, TCP's rate. The last line is
#   RESULT max_rel_diff=X worst=METRIC@RTT
# the largest |sim - real| / max(|real|, floor) over the rates (floor 1 Mbit/s), the share (floor
# 0.15: shares under 15 % count in absolute points against 15 %, so 3 points = 0.2) and the queuing
# delay (floor 10 ms). Times are compared in seconds (aim: within 1 s), on the line before.
set -euo pipefail
cd "$(dirname "$0")/.."
RTTS=${RTTS:-0 122 252}
OUT=${OUT:-/tmp/calibrate-sim-$(date +%Y%m%d-%H%M%S)}
JAR=${JAR:-application/target/node.jar}
SIM_MODEL=${SIM_MODEL:-calibrated}
REUSE_REAL=${REUSE_REAL:-}
REAL_ARGS=${REAL_ARGS:-}
[[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q install -DskipTests" >&2; exit 2; }
case $SIM_MODEL in calibrated|plain) ;; *) echo "error: SIM_MODEL must be calibrated or plain" >&2; exit 2 ;; esac
if [[ -z $REUSE_REAL && $(id -u) -ne 0 ]]; then
  echo "error: run as root (the real link needs ip netns and tc), or pass REUSE_REAL=DIR" >&2
  exit 2
fi
JAR=$(realpath "$JAR")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

for r in $RTTS; do
  real=$OUT/real-rtt$r
  if [[ -n $REUSE_REAL ]]; then
    [[ -f $REUSE_REAL/real-rtt$r/summary.json ]] || { echo "error: no $REUSE_REAL/real-rtt$r/summary.json" >&2; exit 2; }
    [[ $(realpath "$REUSE_REAL/real-rtt$r") == "$real" ]] || { rm -rf "$real"; cp -r "$REUSE_REAL/real-rtt$r" "$real"; }
  else
    echo "== real link, RTT $r ms"
    env $REAL_ARGS JAR="$JAR" OUT="$real" RTT_MS="$r" LEDBAT_IMPL=geoblocks scripts/ledbat-real-link.sh > "$OUT/real-rtt$r.log" 2>&1 \
        || echo "warning: the real-link run at RTT $r ms exited with $? (see $OUT/real-rtt$r.log)" >&2
  fi
  sim_args=(--rate-mbps 20 --buffer-ms 400 --rtt-ms "$r" --tcp-start 14 --tcp-stop 24 --duration 30 --seed 1 --no-plot)
  if [[ $SIM_MODEL == calibrated ]]; then
    # when the real run's LEDBAT data started: its first acknowledged bytes, one RTT earlier
    start=$(python3 - "$real/log" "$r" <<'PY'
import csv, glob, sys
rows = [r for f in sorted(glob.glob(sys.argv[1] + "/stream-*.csv")) for r in csv.DictReader(open(f))]
first = min((float(r["time_s"]) for r in rows if int(r["acked_bytes"]) > 0), default=0.0)
print("%.2f" % max(0.0, first - float(sys.argv[2]) / 1000.0 - 0.1))
PY
)
    sim_args+=(--tcp linux-cubic --udp-overhead-bytes 73 --tcp-overhead-bytes 14 --ledbat-start-s "$start")
  else
    sim_args+=(--tcp cubic)
  fi
  echo "== simulator ($SIM_MODEL), RTT $r ms: ${sim_args[*]}"
  java -jar "$JAR" simulate ledbat-vs-tcp "${sim_args[@]}" --out "$OUT/sim-rtt$r" > "$OUT/sim-rtt$r.log" 2>&1
  python3 scripts/reallink/linkmetrics.py sim "$OUT/sim-rtt$r" > /dev/null
done

python3 - "$OUT" "$SIM_MODEL" $RTTS <<'PY'
import json, math, os, sys
out, model, rtts = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [("alone_mbps", "LEDBAT alone (Mbit/s)", "rate", 1.0), ("share", "LEDBAT share while TCP runs", "share", 0.15),
        ("yield_s", "time to yield (s)", "time", None), ("recover_s", "time to recover (s)", "time", None),
        ("qdelay_alone_ms", "queuing delay alone (ms)", "rate", 10.0), ("tcp_mbps", "TCP while it runs (Mbit/s)", "rate", 1.0)]
lines = ["| metric | " + " | ".join("real %s ms | sim %s ms" % (r, r) for r in rtts) + " |",
         "|---|" + "---|---|" * len(rtts)]
worst, worst_name, time_worst, time_name = 0.0, "-", 0.0, "-"
def fmt(key, v):
    if v is None:
        return "never"
    if isinstance(v, float) and math.isnan(v):
        return "n/a"
    return "%.1f %%" % (100 * v) if key == "share" else "%.2f" % v if key.endswith("mbps") else "%.1f" % v
data = {}
for r in rtts:
    data[r] = (json.load(open(os.path.join(out, "real-rtt%s" % r, "summary.json"))),
               json.load(open(os.path.join(out, "sim-rtt%s" % r, "summary.json"))))
for key, label, kind, floor in rows:
    cells = []
    for r in rtts:
        real, sim = data[r][0].get(key), data[r][1].get(key)
        cells += [fmt(key, real), fmt(key, sim)]
        if kind == "time":
            # "never" counts as the end of its window (10 s for yield, 6 s for recovery)
            cap = 10.0 if key == "yield_s" else 6.0
            a, b = (cap if real is None else real), (cap if sim is None else sim)
            if abs(a - b) > time_worst:
                time_worst, time_name = abs(a - b), "%s@%s" % (key, r)
        elif real is not None and sim is not None and not (math.isnan(real) or math.isnan(sim)):
            d = abs(sim - real) / max(abs(real), floor)
            if d > worst:
                worst, worst_name = d, "%s@%s" % (key, r)
    lines.append("| %s | %s |" % (label, " | ".join(cells)))
loads = ", ".join("%s ms: %s" % (r, data[r][0].get("load")) for r in rtts)
text = "\n".join(lines) + "\n\nsimulator model: %s; load average before each real run: %s\n" % (model, loads)
open(os.path.join(out, "calibration.md"), "w").write(text)
print(text)
print("TIMES max_abs_diff_s=%.1f worst=%s (aim: within 1 s)" % (time_worst, time_name))
print("RESULT max_rel_diff=%.3f worst=%s" % (worst, worst_name))
PY
