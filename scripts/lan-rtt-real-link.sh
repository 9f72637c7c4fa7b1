#!/usr/bin/env bash
# Issue 42's proof for "RTT that means something on a LAN": the RTT two geoblocks nodes report of each
# other across a LAN of about 0.05 ms, idle and under load, next to ping's. Run as root; not part of
# `mvn verify`.
#
#   node a  $NET.1:47100 --veth-- bridge (namespace sw) --veth-- $NET.2:47100  node b
#
# Steps: (1) ping a -> b, PINGS packets 10 ms apart: the link's own RTT; (2) start both nodes; from the
# moment each sees the other up, both nodes' `client status --every 1 --json` for IDLE_S s (the RTT each
# reports of the other: the monitor's estimate, what placement and readers use); (3) `bench load` at a
# (THREADS client threads against both nodes) for LOAD_WARM_S + LOAD_S s; the RTTs reported in its last
# LOAD_S s, and ping's over the same seconds (PINGS packets). Two nodes that exchange requests ping each
# other only every 10 s (ProbePlan), so LOAD_WARM_S lets the estimate's window (10 samples) refill with
# samples taken under load. Ends with lines
#   RESULT ping idle median_ms=M p99_ms=P n=N
#   RESULT nodes idle median_ms=M p99_ms=P max_ms=X n=N (a->b median M1, b->a median M2)
#   RESULT nodes idle-settled ...   (the same from SETTLE_S s after both were up: without the first answers)
#   RESULT nodes idle-warm ...      (the same from WARM_S s after both were up: the datagram path compiled)
#   RESULT nodes idle-minutes m1=M m2=M ...   (the median of each minute of the idle phase)
#   RESULT ping load ...
#   RESULT nodes load ...
# (median and p99 over both nodes' samples of their peer's RTT). Namespaces are removed on exit.
#
# A fresh node's first minute reads higher than later ones: its datagram path (Netty's reads and writes,
# which a probe a second runs through) is still interpreted; idle-warm and idle-minutes show that.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/lan-rtt-real-link-<time>),
# NET (10.231.170: a /24 inside 10.231.0.0/16), IDLE_S (300), SETTLE_S (10), WARM_S (120), LOAD_WARM_S (100), LOAD_S (60), PINGS (100),
# THREADS (16), LOAD_ARGS (extra `bench load` options; default "--think-ms 200 --sizes 100KiB,1MiB,3MiB"),
# JAVA_OPTS (extra JVM options of the nodes), KEEP_DATA (1: keep the nodes' data directories, which the
# load fills with 10-13 GB; by default they are removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/netns.sh
if ! command -v ping >/dev/null && [[ $(id -u) -eq 0 ]]; then   # Debian's iputils-ping; the machine may lack it
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q iputils-ping >/dev/null \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q iputils-ping >/dev/null; }
fi
netns_require python3 ping
OUT=${OUT:-/tmp/lan-rtt-real-link-$(date +%Y%m%d-%H%M%S)}
NET=${NET:-10.231.170}
IDLE_S=${IDLE_S:-300}
SETTLE_S=${SETTLE_S:-10}
WARM_S=${WARM_S:-120}
LOAD_WARM_S=${LOAD_WARM_S:-100}
LOAD_S=${LOAD_S:-60}
PINGS=${PINGS:-100}
THREADS=${THREADS:-16}
LOAD_ARGS=${LOAD_ARGS:---think-ms 200 --sizes 100KiB,1MiB,3MiB}
JAVA_OPTS=${JAVA_OPTS:-}
netns_jar
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT/data-a" "$OUT/data-b" "$OUT"/*.out "$OUT"/*.jsonl "$OUT"/*.txt

A=lan-a-$$; B=lan-b-$$; SW=lan-sw-$$
netns_up $A $B $SW
ip -n $SW link add br0 type bridge
ip -n $SW link set br0 up
for side in a b; do
  ns=$A; [[ $side == b ]] && ns=$B
  ip link add l${side}$$ type veth peer name s${side}$$
  ip link set l${side}$$ netns $ns
  ip link set s${side}$$ netns $SW
  ip -n $SW link set s${side}$$ master br0
  ip -n $SW link set s${side}$$ up
done
ip -n $A addr add $NET.1/24 dev la$$; ip -n $A link set la$$ up
ip -n $B addr add $NET.2/24 dev lb$$; ip -n $B link set lb$$ up
ip netns exec $A ping -c 3 -W 2 -q $NET.2 > /dev/null || { echo "error: a cannot ping b" >&2; exit 2; }

# median and p99 (nearest rank) of ping's "time=" values in a file
ping_figures() {
  python3 - "$1" <<'PY'
import re, sys
v = sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", open(sys.argv[1]).read()))
if not v:
    sys.exit("error: no replies in " + sys.argv[1])
p = lambda q: v[min(len(v) - 1, max(0, -(-len(v) * q // 100) - 1))]
print("median_ms=%.3f p99_ms=%.3f n=%d" % (p(50), p(99), len(v)))
PY
}

ip netns exec $A ping -c "$PINGS" -i 0.01 $NET.2 > "$OUT/ping-idle.txt"
PING_IDLE=$(ping_figures "$OUT/ping-idle.txt")
echo "LAN up: a $NET.1 -- bridge -- b $NET.2; ping $PING_IDLE"

SECRET=$(head -c 24 /dev/urandom | base64)
cat > "$OUT/cluster.conf" <<EOF
geoblocks.cluster {
  regions = [
    { id = a, address = "$NET.1:47100" }
    { id = b, address = "$NET.2:47100" }
  ]
  secret = "$SECRET"
  emulate-wan = false
}
geoblocks.node {
  scrub-rate = 0
}
EOF
JAVA=(java $JAVA_OPTS -Xmx512m -jar "$JAR")
ip netns exec $A "${JAVA[@]}" server --id a --config "$OUT/cluster.conf" --data "$OUT/data-a" > "$OUT/node-a.out" 2>&1 &
PIDS+=($!)
ip netns exec $B "${JAVA[@]}" server --id b --config "$OUT/cluster.conf" --data "$OUT/data-b" > "$OUT/node-b.out" 2>&1 &
PIDS+=($!)
client() { local ns=$1; shift; ip netns exec "$ns" java -jar "$JAR" client --config "$OUT/cluster.conf" "$@"; }
for i in $(seq 90); do
  if client $A --at a status --json 2>/dev/null | grep -q '"region":"b","up":true' \
      && client $B --at b status --json 2>/dev/null | grep -q '"region":"a","up":true'; then break; fi
  [[ $i == 90 ]] && { echo "error: the nodes did not see each other in 90 s; see $OUT/node-*.out" >&2; exit 1; }
  sleep 1
done
now_ms() { date +%s%3N; }
client $A --at a status --every 1 --json > "$OUT/status-a.jsonl" 2> "$OUT/status-a.err" &
PIDS+=($!)
client $B --at b status --every 1 --json > "$OUT/status-b.jsonl" 2> "$OUT/status-b.err" &
PIDS+=($!)
T_IDLE=$(now_ms)
echo "both nodes up; sampling their RTTs for $IDLE_S s idle"
sleep "$IDLE_S"
T_IDLE_END=$(now_ms)

echo "bench load at a: $THREADS threads, $LOAD_ARGS, $((LOAD_WARM_S + LOAD_S)) s"
# shellcheck disable=SC2086
ip netns exec $A java -jar "$JAR" bench load --config "$OUT/cluster.conf" --threads "$THREADS" \
    --duration $((LOAD_WARM_S + LOAD_S)) $LOAD_ARGS > "$OUT/load.out" 2>&1 &
LOAD_PID=$!
PIDS+=($LOAD_PID)
sleep "$LOAD_WARM_S"
T_LOAD=$(now_ms)
ip netns exec $A ping -c "$PINGS" -i $(python3 -c "print(round($LOAD_S * 0.9 / $PINGS, 3))") $NET.2 > "$OUT/ping-load.txt"
PING_LOAD=$(ping_figures "$OUT/ping-load.txt")
sleep $((LOAD_S - LOAD_S * 9 / 10))
T_LOAD_END=$(now_ms)
wait "$LOAD_PID" || echo "warning: bench load exited with $?; see $OUT/load.out" >&2
if ! grep -q "^RESULT requests" "$OUT/load.out" || grep -q "failed=[1-9][0-9][0-9]" "$OUT/load.out"; then
  echo "warning: the load did not run as asked (see $OUT/load.out): the load figures are not under load" >&2
fi
grep -E "req/s|failed" "$OUT/load.out" | tail -3 || true

# The peer RTTs both nodes reported between two times, as "figures" (median, p99 by nearest rank and max,
# and each node's median) or "minutes" (the median of each minute from the first time)
rtt_figures() {
  python3 - "$OUT" "$1" "$2" "$3" <<'PY'
import json, os, statistics, sys
out, mode, t0, t1 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
per, minutes = {}, {}
for node, peer in (("a", "b"), ("b", "a")):
    for line in open(os.path.join(out, "status-%s.jsonl" % node)):
        line = line.strip()
        if not line.startswith("{"):
            continue
        s = json.loads(line)
        if not t0 <= s["time_ms"] <= t1:
            continue
        for p in s["peers"]:
            if p["region"] == peer and p.get("rtt_ms") is not None:
                per.setdefault(node, []).append(p["rtt_ms"])
                minutes.setdefault((s["time_ms"] - t0) // 60000, []).append(p["rtt_ms"])
if mode == "minutes":
    print(" ".join("m%d=%.3f" % (m + 1, statistics.median(v)) for m, v in sorted(minutes.items())) or "none")
    sys.exit(0)
v = sorted(x for xs in per.values() for x in xs)
if not v:
    sys.exit("error: no RTT samples between %d and %d" % (t0, t1))
p = lambda q: v[min(len(v) - 1, max(0, -(-len(v) * q // 100) - 1))]
med = lambda xs: "%.3f" % statistics.median(xs) if xs else "none"
print("median_ms=%.3f p99_ms=%.3f max_ms=%.3f n=%d (a->b median %s, b->a median %s)"
      % (p(50), p(99), v[-1], len(v), med(per.get("a", [])), med(per.get("b", []))))
PY
}
{
  echo "RESULT ping idle $PING_IDLE"
  echo "RESULT nodes idle $(rtt_figures figures "$T_IDLE" "$T_IDLE_END")"
  echo "RESULT nodes idle-settled $(rtt_figures figures $((T_IDLE + SETTLE_S * 1000)) "$T_IDLE_END")"
  if (( IDLE_S > WARM_S )); then
    echo "RESULT nodes idle-warm $(rtt_figures figures $((T_IDLE + WARM_S * 1000)) "$T_IDLE_END")"
  fi
  echo "RESULT nodes idle-minutes $(rtt_figures minutes "$T_IDLE" "$T_IDLE_END")"
  echo "RESULT ping load $PING_LOAD"
  echo "RESULT nodes load $(rtt_figures figures "$T_LOAD" "$T_LOAD_END")"
} | tee "$OUT/result.txt"
echo "phases_ms idle=$T_IDLE-$T_IDLE_END load=$T_LOAD-$T_LOAD_END" >> "$OUT/result.txt"
netns_cleanup
[[ ${KEEP_DATA:-0} == 1 ]] || rm -rf "$OUT/data-a" "$OUT/data-b"   # the load leaves 10-13 GB
