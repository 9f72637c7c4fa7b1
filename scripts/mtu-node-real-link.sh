#!/usr/bin/env bash
# Issue 42's proof at node level: two geoblocks nodes in two network namespaces joined by a veth pair
# at MTU (1420: WireGuard's default; 1280: IPv6's minimum). A put of PUT_MIB MiB at a with
# --policy localfarthest --ack local returns with a's copy; its background copy to b rides LEDBAT and
# must complete within DONE_S seconds, with no "Message too long" in either node's log. Run as root;
# not part of `mvn verify` (MtuRealLinkIT covers LEDBAT alone).
#
#   node a  10.231.140.1:47100 --veth pair, MTU $MTU-- 10.231.140.2:47100  node b
#
# Ends with one line:
#   RESULT mtu=M put_mib=N put_s=S copy_s=C too_long_logged=T path_mtu=P load="l1 l2 l3"
# copy_s: from the put's return to the first status sample of a (every 0.3 s) that owes no copy and
# no byte. Exit status 0 when copy_s <= DONE_S, every block's copy is at b (stat) and T = 0; 1
# otherwise; 2 on a setup error. Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/mtu-node-real-link-<time>),
# MTU (1420), PUT_MIB (20), DONE_S (10), NET (10.231.140: a /24 inside 10.231.128.0/17),
# JAVA_OPTS (extra JVM options of the nodes, e.g. -Dgeoblocks.ledbat.path-mtu-search=false).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/netns.sh
netns_require python3
OUT=${OUT:-/tmp/mtu-node-real-link-$(date +%Y%m%d-%H%M%S)}
MTU=${MTU:-1420}
PUT_MIB=${PUT_MIB:-20}
DONE_S=${DONE_S:-10}
NET=${NET:-10.231.140}
JAVA_OPTS=${JAVA_OPTS:-}
netns_jar
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT/data-a" "$OUT/data-b" "$OUT"/*.out "$OUT"/*.log

A=mtn-a-$$; B=mtn-b-$$
netns_up $A $B
ip link add na$$ type veth peer name nb$$
ip link set na$$ netns $A; ip link set nb$$ netns $B
ip -n $A link set na$$ mtu "$MTU"; ip -n $B link set nb$$ mtu "$MTU"
ip -n $A addr add $NET.1/24 dev na$$; ip -n $A link set na$$ up
ip -n $B addr add $NET.2/24 dev nb$$; ip -n $B link set nb$$ up
for k in net.core.rmem_max net.core.wmem_max; do sysctl -qw "$k=4194304" 2>/dev/null || true; done
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

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
  background-transport = ledbat
  scrub-rate = 0
}
EOF
JAVA=(java $JAVA_OPTS -Xmx1g -jar "$JAR")
ip netns exec $A "${JAVA[@]}" server --id a --config "$OUT/cluster.conf" --data "$OUT/data-a" > "$OUT/node-a.out" 2>&1 &
PIDS+=($!)
ip netns exec $B "${JAVA[@]}" server --id b --config "$OUT/cluster.conf" --data "$OUT/data-b" > "$OUT/node-b.out" 2>&1 &
PIDS+=($!)
at_a() { ip netns exec $A java -jar "$JAR" client --at a --config "$OUT/cluster.conf" "$@"; }
for i in $(seq 60); do
  if at_a status --json 2>/dev/null | grep -q '"region":"b","up":true'; then break; fi
  [[ $i == 60 ]] && { echo "error: the nodes did not see each other in 60 s; see $OUT/node-*.out" >&2; exit 1; }
  sleep 1
done
echo "nodes up at MTU $MTU"
now_ms() { date +%s%3N; }
at_a status --every 0.3 --json 2> "$OUT/status-a.err" | while IFS= read -r l; do echo "$(now_ms) $l"; done \
    > "$OUT/status-a.log" &
PIDS+=($!)
head -c $((PUT_MIB << 20)) /dev/urandom > "$OUT/put.bin"
sleep 2
T0=$(now_ms)
at_a put "$OUT/put.bin" --name big --policy localfarthest --ack local > "$OUT/put.out" 2>&1 \
    || { cat "$OUT/put.out" >&2; exit 1; }
T1=$(now_ms)
echo "put of $PUT_MIB MiB acknowledged with a's copy in $((T1 - T0)) ms; copying to b over LEDBAT"
DONE_MS=""
for _ in $(seq $((DONE_S * 4 + 120))); do
  DONE_MS=$(python3 - "$OUT/status-a.log" "$T1" <<'PY'
import json, sys
t1 = int(sys.argv[2])
for line in open(sys.argv[1]):
    ts, _, js = line.partition(" ")
    if int(ts) <= t1:
        continue
    try:
        b = json.loads(js)["background"]
    except (ValueError, KeyError):
        continue
    if b["queued_copies"] == 0 and b["queued_bytes"] == 0:
        print(ts)
        break
PY
)
  [[ -n $DONE_MS ]] && break
  sleep 0.25
done
at_a stat big --json > "$OUT/stat.json" 2>&1 || true
COPIED=$(python3 -c "
import json, sys
s = json.load(open('$OUT/stat.json'))
print('yes' if s.get('pending_known') and all(not b['pending'] and 'b' in b['replicas'] for b in s['blocks']) else 'no')
" 2>/dev/null || echo "no")
PATH_MTU=$(tail -1 "$OUT/status-a.log" | grep -o '"path_mtu_bytes":[0-9a-z]*' | tail -1 | cut -d: -f2 || true)
TOO_LONG=$(cat "$OUT"/node-*.out | grep -c "Message too long" || true)
COPY_S=$([[ -n $DONE_MS ]] && python3 -c "print(round(($DONE_MS - $T1) / 1000, 2))" || echo "never")
echo "RESULT mtu=$MTU put_mib=$PUT_MIB put_s=$(python3 -c "print(round(($T1 - $T0) / 1000, 2))") copy_s=$COPY_S" \
    "copied=$COPIED too_long_logged=$TOO_LONG path_mtu=${PATH_MTU:-?} load=\"$LOAD\"" | tee "$OUT/result.txt"
if [[ $COPY_S == never || $COPIED != yes || $TOO_LONG -ne 0 ]] \
    || ! python3 -c "import sys; sys.exit(0 if $COPY_S <= $DONE_S else 1)"; then
  echo "FAILED: see $OUT" >&2
  exit 1
fi
