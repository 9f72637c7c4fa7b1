#!/usr/bin/env bash
# Loopback benchmark (not a test): one LEDBAT stream and PARALLEL streams through node.jar ledbat
# server/client on 127.0.0.1, with the CPU of both processes, and kernel TCP (iperf3) as reference.
# Environment: JAR (application/target/node.jar), TIME (20 s per run), PARALLEL (4), OUT (/tmp/ledbat-bench),
# NETWORK (geoblocks | kompics-netty: the Network component of both ends; default geoblocks).
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=$(realpath "${JAR:-application/target/node.jar}")
TIME=${TIME:-20}
PARALLEL=${PARALLEL:-4}
OUT=${OUT:-/tmp/ledbat-bench}
PORT=${PORT:-7411}
NETWORK=${NETWORK:-geoblocks}
mkdir -p "$OUT"
JAVA=(java -Dcom.barchart.udt.library.extract.location="$OUT/udt" -jar "$JAR")
SERVER=""
cleanup() { [[ -n $SERVER ]] && kill "$SERVER" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)

"${JAVA[@]}" ledbat server --network "$NETWORK" --bind 127.0.0.1 --port "$PORT" > "$OUT/server.out" 2>&1 &
SERVER=$!
sleep 2
echo "network: $NETWORK"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for n in 1 "$PARALLEL"; do
  s0=$(cpu_ticks "$SERVER"); t0=$(date +%s.%N)
  "${JAVA[@]}" ledbat client --network "$NETWORK" --remote 127.0.0.1:"$PORT" --time "$TIME" --parallel "$n" --log "$OUT/log-$n" > "$OUT/client-$n.out" 2>&1 || { cat "$OUT/client-$n.out"; exit 1; }
  s1=$(cpu_ticks "$SERVER"); t1=$(date +%s.%N)
  grep -E "^total|client cpu" "$OUT/client-$n.out"
  python3 -c "print('server cpu: %.0f %% of one core' % (100.0 * ($s1 - $s0) / $HZ / ($t1 - $t0)))"
done
if command -v iperf3 >/dev/null; then
  iperf3 -s -p 5299 -1 > /dev/null 2>&1 &
  sleep 1
  echo "iperf3 TCP loopback, 1 stream:"; iperf3 -c 127.0.0.1 -p 5299 -t 10 | grep -E "receiver"
  iperf3 -s -p 5299 -1 > /dev/null 2>&1 &
  sleep 1
  echo "iperf3 TCP loopback, $PARALLEL streams:"; iperf3 -c 127.0.0.1 -p 5299 -t 10 -P "$PARALLEL" | grep -E "SUM.*receiver"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
