#!/usr/bin/env bash
# A foreground get during rebalancing over a real (kernel) 20 Mbit/s bottleneck (issue 25). Run as
# root, through `heavy` on a shared machine; not part of `mvn verify`. The topology is
# scripts/node-real-link.sh's (scripts/lib/real-link-topology.sh):
#
#   node a (sender ns)  --veth-- router ns (tbf RATE, BUFFER_MS buffer, toward b) --veth-- node b (receiver ns)
#   10.77.1.1:47100            10.77.1.254 | 10.77.2.254                                    10.77.2.1:47100
#
# a starts alone (its static config lists only a: layout version 0) and holds the foreground file
# fg (FG_MIB MiB, policy local: it stays at a) and BG_FILES files of BG_FILE_MIB MiB with policy
# random (spread: rebalancing moves about half of them to a newcomer). Then b's node starts (its
# config and the clients' list a and b) and `cluster add b` at a. The fill moves copies a -> b
# across the bottleneck: b pulls each block from a (BlockPull), so a sends them over LEDBAT.
# Steps: (1) the fill alone for BG_ALONE_S s from when b starts receiving it; (2) a get of fg at b
# while the fill runs (TCP, a serves the blocks); (3) wait until the fill is done (a's and b's
# geoblocks_rebalance_pending_bytes 0, b placed copies, moved bytes stable); (4) the same get alone.
# b's `client status --every 0.5 --json` samples the per-class byte counters, and a's and b's
# /metrics the rebalancing figures. Ends with one line:
#   RESULT fg_alone_mbps=.. fg_during_rebalance_mbps=.. ratio=.. bg_alone_mbps=.. bg_during_fg_mbps=.. moved_mb=..
# and writes the samples (CSV), a PNG and the node logs into OUT. Namespaces are removed on exit.
# Exit 0 only when both gets returned fg's bytes and the fill ended within FILL_TIMEOUT_S.
#
# Environment: JAR (application/target/node.jar), OUT (/tmp/rebalance-real-link-<time>),
# HOLD (true | false | default: sets geoblocks.ledbat.foreground-hold in both nodes' config, or
# leaves the build's default), FG_MIB (32), BG_FILES (8), BG_FILE_MIB (32), BG_ALONE_S (20),
# FILL_TIMEOUT_S (600), NODE_JAVA_OPTS (extra JVM options for the nodes and clients, e.g.
# -Dgeoblocks.ledbat.hold-share=0.01 to try a setting), and the link's RATE (20mbit), BUFFER_MS (400), RTT_MS, JITTER_MS, LOSS_PCT (0)
# as in node-real-link.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/real-link-topology.sh
source scripts/lib/real-link-topology.sh   # root check; RATE, RTT_MS, JITTER_MS, LOSS_PCT defaults
JAR=${JAR:-application/target/node.jar}
OUT=${OUT:-/tmp/rebalance-real-link-$(date +%Y%m%d-%H%M%S)}
HOLD=${HOLD:-default}
FG_MIB=${FG_MIB:-32}
BG_FILES=${BG_FILES:-8}
BG_FILE_MIB=${BG_FILE_MIB:-32}
BG_ALONE_S=${BG_ALONE_S:-20}
FILL_TIMEOUT_S=${FILL_TIMEOUT_S:-600}
[[ $HOLD == true || $HOLD == false || $HOLD == default ]] || { echo "error: HOLD must be true, false or default, was '$HOLD'" >&2; exit 2; }
[[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -o -q install -DskipTests" >&2; exit 2; }
JAR=$(realpath "$JAR")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT/data-a" "$OUT/data-b" "$OUT"/*.csv "$OUT"/*.out "$OUT"/*.jsonl

topology_up rb
echo "topology up: a 10.77.1.1 -> router (tbf $RATE, delay line RTT ${RTT_MS} ms) -> b 10.77.2.1, $PING"
echo "load: $(uptime | sed 's/.*load/load/')"

# --- configs: a alone (version 0), b and the clients with a and b ---------------------------------
SECRET=$(head -c 24 /dev/urandom | base64)
REGION_A='{ id = a, address = "10.77.1.1:47100", http-port = 47180 }'
REGION_B='{ id = b, address = "10.77.2.1:47100", http-port = 47180 }'
conf() { # REGION-LINES...
  echo "geoblocks.cluster {"
  echo "  regions = ["
  for r in "$@"; do echo "    $r"; done
  echo "  ]"
  echo "  secret = \"$SECRET\""
  echo "  emulate-wan = false"
  echo "}"
  echo "geoblocks.node {"
  echo "  rpc-timeout = 30 s"
  echo "  background-transport = ledbat"
  echo "  scrub-rate = 0"
  echo "}"
  echo "geoblocks.http.secret-key = \"$SECRET\"   # the HTTP server binds a non-loopback address"
  echo "geoblocks.admin.token = \"$SECRET-admin-api\"   # the root token \`cluster add\` sends"
  echo "geoblocks.placement.balanced.copies = 1   # a alone has one region (the default, 2, needs two)"
  echo "geoblocks.s3.migrated-copies = 1"
  [[ $HOLD == default ]] || echo "geoblocks.ledbat.foreground-hold = $HOLD"
}
conf "$REGION_A" > "$OUT/alone.conf"
conf "$REGION_A" "$REGION_B" > "$OUT/both.conf"

read -r -a NODE_OPTS <<< "${NODE_JAVA_OPTS:-}"
JAVA=(java -Xmx2g "${NODE_OPTS[@]}" -jar "$JAR")
ip netns exec "$S" "${JAVA[@]}" server --id a --config "$OUT/alone.conf" --data "$OUT/data-a" > "$OUT/node-a.out" 2>&1 &
PIDS+=($!)
at_a() { ip netns exec "$S" "${JAVA[@]}" client --at a --config "$OUT/both.conf" "$@"; }
at_b() { ip netns exec "$C" "${JAVA[@]}" client --at b --config "$OUT/both.conf" "$@"; }
metric() { # NS HOST NAME-WITH-LABELS: the value on that node's /metrics, empty when absent
  ip netns exec "$1" curl -s --max-time 5 "http://$2:47180/metrics" | awk -v m="$3" '$1 == m { print $2 }'
}
for i in $(seq 60); do
  if at_a status --json > /dev/null 2>&1; then break; fi
  [[ $i == 60 ]] && { echo "error: node a did not answer in 60 s; see $OUT/node-a.out" >&2; exit 1; }
  sleep 1
done
echo "node a up alone (foreground-hold: $HOLD)"

head -c $((FG_MIB << 20)) /dev/urandom > "$OUT/fg.bin"
at_a put "$OUT/fg.bin" --name fg --policy local > /dev/null
for i in $(seq "$BG_FILES"); do
  head -c $((BG_FILE_MIB << 20)) /dev/urandom > "$OUT/bg.bin"
  at_a put "$OUT/bg.bin" --name "bg$i" --policy random > /dev/null
done
rm -f "$OUT/bg.bin"
echo "at a: fg ($FG_MIB MiB, local) and $BG_FILES x $BG_FILE_MIB MiB (random)"

# --- b joins ---------------------------------------------------------------------------------------
ip netns exec "$C" "${JAVA[@]}" server --id b --config "$OUT/both.conf" --data "$OUT/data-b" > "$OUT/node-b.out" 2>&1 &
PIDS+=($!)
for i in $(seq 60); do
  grep -q "listening on" "$OUT/node-b.out" 2>/dev/null && break
  [[ $i == 60 ]] && { echo "error: node b did not listen in 60 s; see $OUT/node-b.out" >&2; exit 1; }
  sleep 1
done
at_b status --every 0.5 --json > "$OUT/status-b.jsonl" 2> "$OUT/status-b.err" &
SAMPLER=$!
PIDS+=($SAMPLER)
now_ms() { date +%s%3N; }
T_ADD=$(now_ms)
for i in $(seq 120); do
  if out=$(at_a cluster add b 10.77.2.1:47100 2>&1); then echo "cluster add b accepted after $(( ($(now_ms) - T_ADD) / 1000 )) s"; break; fi
  [[ $i == 120 ]] && { echo "error: cluster add b refused for 240 s: $out" >&2; exit 1; }
  sleep 2
done
# metrics sampler: a's and b's rebalancing figures once a second
(
  echo "time_ms,a_pending_bytes,b_pending_bytes,a_short_b,a_moved_bytes,b_moved_bytes,a_fill_moves,b_fill_moves,b_placed_bytes"
  while true; do
    echo "$(now_ms),$(metric "$S" 10.77.1.1 geoblocks_rebalance_pending_bytes),$(metric "$C" 10.77.2.1 geoblocks_rebalance_pending_bytes),$(metric "$S" 10.77.1.1 'geoblocks_rebalance_short_bytes{region="b"}'),$(metric "$S" 10.77.1.1 geoblocks_moved_bytes_total),$(metric "$C" 10.77.2.1 geoblocks_moved_bytes_total),$(metric "$S" 10.77.1.1 'geoblocks_rebalance_moves_started_total{kind="fill"}'),$(metric "$C" 10.77.2.1 'geoblocks_rebalance_moves_started_total{kind="fill"}'),$(metric "$S" 10.77.1.1 'geoblocks_placed_bytes{region="b"}')"
    sleep 1
  done
) > "$OUT/metrics.csv" 2> /dev/null &
PIDS+=($!)

bg_received() { # b's background bytes received, from the sampler's last line
  python3 - "$OUT/status-b.jsonl" <<'PY' 2>/dev/null || echo 0
import json, sys
lines = [l for l in open(sys.argv[1]).read().splitlines()[-5:] if l.startswith("{")]
try:
    print(json.loads(lines[-1])["transfers"]["background"]["bytes_received"] if lines else 0)
except ValueError:
    print(0)
PY
}
for i in $(seq 240); do
  [[ $(bg_received) -gt $((1 << 20)) ]] && break
  [[ $i == 240 ]] && { echo "error: no fill traffic reached b within 120 s of the add; see $OUT/node-*.out" >&2; exit 1; }
  sleep 0.5
done
BG_T0=$(now_ms)
echo "fill started ($(( (BG_T0 - T_ADD) / 1000 )) s after the add); the fill alone for $BG_ALONE_S s"
# fg must be known at b (its manifest by anti-entropy or on demand) before the timed get
for i in $(seq 60); do at_b stat fg > /dev/null 2>&1 && break; sleep 1; done

# one get at b of the file that lives only at a; prints "start_ms end_ms" of the transfer itself
fg_get() {
  local t1 ms
  at_b get fg "$OUT/fg.copy" > "$OUT/fg-get-$1.out" 2>&1 || { cat "$OUT/fg-get-$1.out" >&2; exit 1; }
  t1=$(now_ms)
  ms=$(grep -o 'in [0-9]* ms' "$OUT/fg-get-$1.out" | grep -o '[0-9]*')
  cmp -s "$OUT/fg.bin" "$OUT/fg.copy" || { echo "error: the foreground get ($1) returned other bytes" >&2; exit 1; }
  rm -f "$OUT/fg.copy"
  echo "$((t1 - ms)) $t1"
}
sleep_until() { local d=$(( $1 - $(now_ms) )); (( d > 0 )) && sleep "$(python3 -c "print($d / 1000)")" || true; }
sleep_until $((BG_T0 + BG_ALONE_S * 1000))
BG_ALONE_T1=$(now_ms)
# (2) the get during the fill
read -r FG2_T0 FG2_T1 < <(fg_get during-rebalance)
echo "foreground get during rebalancing: $(grep -o 'in [0-9]* ms' "$OUT/fg-get-during-rebalance.out") (load: $(uptime | sed 's/.*load/load/'))"
# (3) wait for the fill to end
filled() {
  local line pa pb placed ma mb
  line=$(tail -n 1 "$OUT/metrics.csv")
  IFS=, read -r _ pa pb _ ma mb _ _ placed <<< "$line"
  [[ -n $pa && -n $pb && -n $placed ]] || return 1
  python3 -c "import sys; sys.exit(0 if float('$pa') == 0 and float('$pb') == 0 and float('$placed') > 0 and float('${ma:-0}') + float('${mb:-0}') > 0 else 1)"
}
T_WAIT=$(now_ms)
until filled; do
  (( $(now_ms) - T_WAIT > FILL_TIMEOUT_S * 1000 )) && { echo "error: the fill did not end within $FILL_TIMEOUT_S s; see $OUT/metrics.csv" >&2; exit 1; }
  sleep 2
done
sleep 3   # moved bytes stable: the last move commits
FILL_T1=$(now_ms)
echo "fill done $(( (FILL_T1 - BG_T0) / 1000 )) s after it started"
at_a cluster show > "$OUT/cluster-show.txt" 2>&1 || true
sleep 2
# (4) the same get alone
read -r FG1_T0 FG1_T1 < <(fg_get alone)
echo "foreground get alone: $(grep -o 'in [0-9]* ms' "$OUT/fg-get-alone.out") (load: $(uptime | sed 's/.*load/load/'))"
sleep 2
kill "$SAMPLER" 2>/dev/null || true

# --- analysis -------------------------------------------------------------------------------------
python3 - "$OUT" "$FG_MIB" "$RATE" "$HOLD" "$FG1_T0" "$FG1_T1" "$BG_T0" "$BG_ALONE_T1" "$FG2_T0" "$FG2_T1" "$FILL_T1" <<'PY'
import csv, os, sys
sys.path.insert(0, "scripts/lib")
from status_samples import load, mbps, write_csv
out, fg_mib, rate, hold = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fg1_t0, fg1_t1, bg_t0, bg_alone_t1, fg2_t0, fg2_t1, fill_t1 = (int(v) for v in sys.argv[5:12])
rows = load(out)
fg_bits = fg_mib * 1048576 * 8
fg_alone = fg_bits / ((fg1_t1 - fg1_t0) / 1000.0) / 1e6
fg_during = fg_bits / ((fg2_t1 - fg2_t0) / 1000.0) / 1e6
bg_alone = mbps(rows, 2, bg_t0 + 2000, bg_alone_t1)  # skip the first 2 s
bg_during = mbps(rows, 2, fg2_t0, fg2_t1)
bg_after = mbps(rows, 2, fg2_t1, min(fg2_t1 + 10000, fill_t1)) if fill_t1 > fg2_t1 + 2000 else float("nan")
moved = 0.0
with open(os.path.join(out, "metrics.csv")) as f:
    m = [r for r in csv.DictReader(f) if r["a_moved_bytes"] or r["b_moved_bytes"]]
if m:
    last = m[-1]
    moved = float(last["a_moved_bytes"] or 0) + float(last["b_moved_bytes"] or 0)
    fills = "a %s, b %s" % (last["a_fill_moves"] or "0", last["b_fill_moves"] or "0")
else:
    fills = "?"
t_zero = rows[0][0]
write_csv(rows, out)
ratio = fg_during / fg_alone
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write("rebalancing a -> b over LEDBAT, link %s, foreground-hold %s\n" % (rate, hold))
    f.write("fg alone %.2f Mbit/s, fg during rebalancing %.2f Mbit/s (%.0f %% of alone)\n" % (fg_alone, fg_during, 100 * ratio))
    f.write("fill alone %.2f Mbit/s, fill during fg %.2f Mbit/s, fill in the 10 s after fg %.2f Mbit/s\n" % (bg_alone, bg_during, bg_after))
    f.write("moved %.1f MB (fill moves started: %s)\n" % (moved / 1e6, fills))
    f.write("events (s from first sample): fill start %.1f, fg during %.1f-%.1f, fill done %.1f, fg alone %.1f-%.1f\n" % tuple(
        (t - t_zero) / 1000.0 for t in (bg_t0, fg2_t0, fg2_t1, fill_t1, fg1_t0, fg1_t1)))
print(open(os.path.join(out, "summary.txt")).read(), end="")
print("RESULT fg_alone_mbps=%.2f fg_during_rebalance_mbps=%.2f ratio=%.2f bg_alone_mbps=%.2f bg_during_fg_mbps=%.2f moved_mb=%.1f"
      % (fg_alone, fg_during, ratio, bg_alone, bg_during, moved / 1e6))
PY
"${JAVA[@]}" plot-series --csv "$OUT/samples.csv" --out "$OUT/rebalance-real-link-hold-$HOLD.png" \
    --title "Foreground get vs rebalancing fill over LEDBAT ($RATE, RTT ${RTT_MS} ms, foreground-hold $HOLD)" \
    --y-label "Mbit/s received at b (1.5 s average)" > /dev/null && echo "plot: $OUT/rebalance-real-link-hold-$HOLD.png"
echo "load: $(uptime | sed 's/.*load/load/')"
