#!/usr/bin/env bash
# LEDBAT (`node.jar ledbat client -> server`, over GeoNetwork) across a link of a given MTU between two
# network namespaces: the path MTU search must find the link's size, no datagram may be refused as too
# big in a loop, and the transfer must complete. Run as root (ip netns); MtuRealLinkIT runs it in
# `mvn verify` where it can.
#
#   a ns  10.231.129.1 --veth pair, MTU $MTU (tbf $RATE on a's egress if RATE is set)-- 10.231.129.2  b ns
#
# Moves BYTES (or sends for TIME seconds) from a to b once and prints one line:
#   RESULT mtu=M bytes=B seconds=S mbps=X too_long_logged=N path_mtu=P load="l1 l2 l3" client_rc=R
# (path_mtu: the path MTU a's LEDBAT confirmed to b, in UDP payload bytes, as the client's total line
# reports it; "?" when it does not, e.g. an older node.jar). Exit status 0 when the client finished
# within MAX_S seconds and no log line says "Message too long"; 1 otherwise; 2 on a setup error.
# Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/mtu-real-link-<time>),
# MTU (1420), BYTES (20MiB), TIME (empty; seconds to send for instead of BYTES, for throughput),
# MAX_S (60), RATE (empty: no bottleneck; e.g. 100mbit: a tbf on a's egress), NET (10.231.129: the /24 the two ends use; keep it inside 10.231.128.0/17),
# JAVA_OPTS (extra JVM options of both ends, e.g. -Dgeoblocks.ledbat.path-mtu-search=false),
# LEDBAT_ARGS (extra client/server options).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/netns.sh
netns_require
OUT=${OUT:-/tmp/mtu-real-link-$(date +%Y%m%d-%H%M%S)}
MTU=${MTU:-1420}
BYTES=${BYTES:-20MiB}
TIME=${TIME:-}
MAX_S=${MAX_S:-60}
RATE=${RATE:-}
NET=${NET:-10.231.129}
JAVA_OPTS=${JAVA_OPTS:-}
LEDBAT_ARGS=${LEDBAT_ARGS:-}
netns_jar
[[ $MTU =~ ^[0-9]+$ && $MTU -ge 1280 && $MTU -le 65535 ]] || { echo "error: MTU must be 1280..65535, was '$MTU'" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

A=mtu-a-$$; B=mtu-b-$$
netns_up $A $B
ip link add ma$$ type veth peer name mb$$
ip link set ma$$ netns $A; ip link set mb$$ netns $B
ip -n $A link set ma$$ mtu "$MTU"; ip -n $B link set mb$$ mtu "$MTU"
ip -n $A addr add $NET.1/24 dev ma$$; ip -n $A link set ma$$ up
ip -n $B addr add $NET.2/24 dev mb$$; ip -n $B link set mb$$ up
if [[ -n $RATE ]]; then
  ip netns exec $A tc qdisc add dev ma$$ root tbf rate "$RATE" burst 64kbit latency 100ms
fi
# large UDP buffers (the application asks for 4 MiB; the kernel caps at rmem_max/wmem_max)
for k in net.core.rmem_max net.core.wmem_max; do sysctl -qw "$k=4194304" 2>/dev/null || true; done
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

JAVA=(java $JAVA_OPTS -Dcom.barchart.udt.library.extract.location="$OUT/udt" -jar "$JAR")
ip netns exec $B "${JAVA[@]}" ledbat server --bind $NET.2 --port 7400 --verbose $LEDBAT_ARGS > "$OUT/server.out" 2>&1 &
PIDS+=($!)
# the client starts once the server listens (a JVM on a loaded machine takes seconds to start)
for _ in $(seq 150); do grep -q "listening on" "$OUT/server.out" 2>/dev/null && break; sleep 0.2; done
START=$(date +%s%3N)
set +e
if [[ -n $TIME ]]; then AMOUNT=(--time "$TIME"); BYTES="${TIME}s"; else AMOUNT=(--bytes "$BYTES"); fi
ip netns exec $A timeout "$((MAX_S + 15))" "${JAVA[@]}" ledbat client --remote $NET.2:7400 "${AMOUNT[@]}" --verbose \
    $LEDBAT_ARGS > "$OUT/client.out" 2>&1
RC=$?
set -e
END=$(date +%s%3N)
cat "$OUT/client.out"
TOO_LONG=$(cat "$OUT/client.out" "$OUT/server.out" | grep -c "Message too long" || true)
SECONDS_TAKEN=$(python3 -c "print(round(($END - $START) / 1000, 2))")
MBPS=$(grep '^total' "$OUT/client.out" | grep -o '[0-9.]* Mbit/s' | head -1 | cut -d' ' -f1 || true)
PATH_MTU=$(grep -o 'path MTU [0-9]*' "$OUT/client.out" | tail -1 | cut -d' ' -f3 || true)
echo "RESULT mtu=$MTU bytes=$BYTES seconds=$SECONDS_TAKEN mbps=${MBPS:-?} too_long_logged=$TOO_LONG path_mtu=${PATH_MTU:-?} load=\"$LOAD\" client_rc=$RC" \
    | tee "$OUT/result.txt"
if [[ $RC -ne 0 || $TOO_LONG -ne 0 ]] || ! python3 -c "import sys; sys.exit(0 if ($END - $START) / 1000 <= $MAX_S else 1)"; then
  echo "FAILED: see $OUT" >&2
  exit 1
fi
