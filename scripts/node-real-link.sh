#!/usr/bin/env bash
# Foreground reads vs background replication between two geoblocks nodes over a real (kernel)
# 20 Mbit/s bottleneck. Run as root; not part of `mvn verify`.
#
#   node a (sender ns)  --veth-- router ns (tbf RATE, 400 ms buffer, toward b) --veth-- node b (receiver ns)
#   10.77.1.1:47100            10.77.1.254 | 10.77.2.254                               10.77.2.1:47100
#
# Blocks flow a -> b through the bottleneck in both classes:
#   foreground: a client at b gets FG_MIB MiB whose blocks live only at a (policy local): TCP.
#   background: a put of BG_MIB MiB at a with --ack local and policy localclosest: a's replication
#               queue copies every block to b, over LEDBAT (BG_TRANSPORT=ledbat) or TCP (=tcp).
# Steps: (1) the foreground get alone; (2) start the background replication, measure it alone for
# BG_ALONE_S s; (3) the same get while it runs; (4) stop. b's `client status --every 0.5 --json`
# samples the per-class byte counters throughout. Ends with one line:
#   RESULT fg_alone_mbps=X fg_with_bg_mbps=Y bg_alone_mbps=Z bg_during_fg_mbps=W
# and writes the samples (CSV), a PNG and the node logs into OUT. Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/node-real-link-<time>),
# BG_TRANSPORT (ledbat | tcp), RATE (20mbit), BUFFER_MS (400), FG_MIB (32), BG_MIB (256), BG_ALONE_S (20),
# RTT_MS (0), JITTER_MS (0), LOSS_PCT (0): as in ledbat-real-link.sh (the userspace delay line).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/real-link-topology.sh
source scripts/lib/real-link-topology.sh   # root check; RATE, RTT_MS, JITTER_MS, LOSS_PCT defaults
JAR=${JAR:-application/target/node.jar}
OUT=${OUT:-/tmp/node-real-link-$(date +%Y%m%d-%H%M%S)}
BG_TRANSPORT=${BG_TRANSPORT:-ledbat}
FG_MIB=${FG_MIB:-32}
BG_MIB=${BG_MIB:-256}
BG_ALONE_S=${BG_ALONE_S:-20}
[[ $BG_TRANSPORT == ledbat || $BG_TRANSPORT == tcp ]] || { echo "error: BG_TRANSPORT must be ledbat or tcp, was '$BG_TRANSPORT'" >&2; exit 2; }
[[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q install -DskipTests" >&2; exit 2; }
JAR=$(realpath "$JAR")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT/data-a" "$OUT/data-b" "$OUT"/*.csv "$OUT"/*.out

topology_up nl
echo "topology up: a 10.77.1.1 -> router (tbf $RATE, delay line RTT ${RTT_MS} ms) -> b 10.77.2.1, $PING"

# --- two nodes ----------------------------------------------------------------------------------
SECRET=$(head -c 24 /dev/urandom | base64)
cat > "$OUT/cluster.conf" <<EOF
geoblocks.cluster {
  regions = [
    { id = a, address = "10.77.1.1:47100" }
    { id = b, address = "10.77.2.1:47100" }
  ]
  secret = "$SECRET"
  emulate-wan = false
}
geoblocks.node {
  rpc-timeout = 30 s
  background-transport = $BG_TRANSPORT
  scrub-rate = 0
}
EOF
JAVA=(java -Xmx2g -jar "$JAR")
ip netns exec "$S" "${JAVA[@]}" server --id a --config "$OUT/cluster.conf" --data "$OUT/data-a" > "$OUT/node-a.out" 2>&1 &
PIDS+=($!)
ip netns exec "$C" "${JAVA[@]}" server --id b --config "$OUT/cluster.conf" --data "$OUT/data-b" > "$OUT/node-b.out" 2>&1 &
PIDS+=($!)
at_a() { ip netns exec "$S" "${JAVA[@]}" client --at a --config "$OUT/cluster.conf" "$@"; }
at_b() { ip netns exec "$C" "${JAVA[@]}" client --at b --config "$OUT/cluster.conf" "$@"; }
for i in $(seq 60); do
  if at_a status --json 2>/dev/null | grep -q '"region":"b","up":true'; then break; fi
  [[ $i == 60 ]] && { echo "error: the nodes did not see each other in 60 s; see $OUT/node-*.out" >&2; exit 1; }
  sleep 1
done
echo "nodes up (background-transport = $BG_TRANSPORT)"

head -c $((FG_MIB << 20)) /dev/urandom > "$OUT/fg.bin"
head -c $((BG_MIB << 20)) /dev/urandom > "$OUT/bg.bin"
at_a put "$OUT/fg.bin" --name fg --policy local > /dev/null

now_ms() { date +%s%3N; }
# one get at b of the file that lives only at a; prints "start_ms end_ms" of the transfer itself
# (the client's own "in N ms", which leaves out the JVM's start)
fg_get() {
  local t1 ms
  at_b get fg "$OUT/fg.copy" > "$OUT/fg-get-$1.out" 2>&1 || { cat "$OUT/fg-get-$1.out" >&2; exit 1; }
  t1=$(now_ms)
  ms=$(grep -o 'in [0-9]* ms' "$OUT/fg-get-$1.out" | grep -o '[0-9]*')
  cmp -s "$OUT/fg.bin" "$OUT/fg.copy" || { echo "error: the foreground get returned other bytes" >&2; exit 1; }
  rm -f "$OUT/fg.copy"
  echo "$((t1 - ms)) $t1"
}

at_b status --every 0.5 --json > "$OUT/status-b.jsonl" 2> "$OUT/status-b.err" &
SAMPLER=$!
PIDS+=($SAMPLER)
sleep 2

# (1) foreground alone
read -r FG1_T0 FG1_T1 < <(fg_get alone)
echo "foreground get alone: $(grep -o 'in [0-9]* ms' "$OUT/fg-get-alone.out")"
sleep 2
# (2) background alone
BG_T0=$(now_ms)
at_a put "$OUT/bg.bin" --name bg --policy localclosest --ack local > "$OUT/bg-put.out"
BG_T1=$(now_ms)
echo "background: put of $BG_MIB MiB acknowledged locally in $((BG_T1 - BG_T0)) ms; replicating to b over $BG_TRANSPORT"
sleep "$BG_ALONE_S"
BG_ALONE_T1=$(now_ms)
# (3) foreground while the background runs
read -r FG2_T0 FG2_T1 < <(fg_get with-bg)
echo "foreground get with background: $(grep -o 'in [0-9]* ms' "$OUT/fg-get-with-bg.out")"
sleep 3
kill "$SAMPLER" 2>/dev/null || true
at_a stat bg --json > "$OUT/bg-stat.json" 2>&1 || true

# --- analysis -------------------------------------------------------------------------------------
python3 - "$OUT" "$FG_MIB" "$RATE" "$BG_TRANSPORT" "$FG1_T0" "$FG1_T1" "$BG_T1" "$BG_ALONE_T1" "$FG2_T0" "$FG2_T1" <<'PY'
import os, sys
sys.path.insert(0, "scripts/lib")
from status_samples import load, mbps, write_csv
out, fg_mib, rate, transport = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fg1_t0, fg1_t1, bg_t0, bg_alone_t1, fg2_t0, fg2_t1 = (int(v) for v in sys.argv[5:11])
rows = load(out)
fg_bits = fg_mib * 1048576 * 8
fg_alone = fg_bits / ((fg1_t1 - fg1_t0) / 1000.0) / 1e6
fg_with = fg_bits / ((fg2_t1 - fg2_t0) / 1000.0) / 1e6
bg_alone = mbps(rows, 2, bg_t0 + 5000, bg_alone_t1)  # skip the first 5 s (start-up)
bg_during = mbps(rows, 2, fg2_t0, fg2_t1)
link = float(rate.replace("mbit", ""))
t_zero = rows[0][0]
write_csv(rows, out)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write("background over %s, link %s\n" % (transport, rate))
    f.write("fg alone %.2f Mbit/s, fg with bg %.2f Mbit/s (%.0f %% of alone)\n" % (fg_alone, fg_with, 100 * fg_with / fg_alone))
    f.write("bg alone %.2f Mbit/s (%.0f %% of the link), bg during fg %.2f Mbit/s\n" % (bg_alone, 100 * bg_alone / link, bg_during))
    f.write("events (s from first sample): fg alone %.1f-%.1f, bg put acked %.1f, fg with bg %.1f-%.1f\n" % tuple(
        (t - t_zero) / 1000.0 for t in (fg1_t0, fg1_t1, bg_t0, fg2_t0, fg2_t1)))
print(open(os.path.join(out, "summary.txt")).read(), end="")
print("RESULT fg_alone_mbps=%.2f fg_with_bg_mbps=%.2f bg_alone_mbps=%.2f bg_during_fg_mbps=%.2f" % (fg_alone, fg_with, bg_alone, bg_during))
PY
"${JAVA[@]}" plot-series --csv "$OUT/samples.csv" --out "$OUT/node-real-link-$BG_TRANSPORT.png" \
    --title "Foreground get vs background replication over $BG_TRANSPORT ($RATE, RTT ${RTT_MS} ms)" \
    --y-label "Mbit/s received at b (1.5 s average)" > /dev/null && echo "plot: $OUT/node-real-link-$BG_TRANSPORT.png"
