#!/usr/bin/env bash
# Issue 42: IPv6 addresses, and a cluster that mixes IPv4 and IPv6 nodes. Three nodes, each in a network
# namespace of its own, on one bridge (in a fourth namespace) that carries both families:
#
#   node a  [fd31:231::1]:47100    (host also has 10.231.170.1)
#   node b  [fd31:231::2]:47100    (host also has 10.231.170.2)
#   node c  10.231.170.3:47100     (an IPv4 node: it listens on IPv4 only; its host also has fd31:231::3)
#
# a and b are an IPv6 pair; a and b reach c over IPv4, c reaches a over IPv6. Every region has an
# http-port (so the dashboard's URL is printed with an IPv6 address) and background copies ride LEDBAT.
# Checks, each through the client in the node's namespace:
#   up:      a sees b up (up_v6), a sees c and c sees a up (up_mixed);
#   v6:      a put at a (--ack local, a copy at b by policy) is copied to b in the background, read back
#            from b byte for byte; the path MTU LEDBAT found from a to b is an IPv6 one (1452 on this link);
#   mixed:   a put at c copied to a (IPv4 node to IPv6 node) read back from a, a put at a copied to c (IPv6
#            node to IPv4 node) read back from c;
#   url:     a's dashboard line names http://[fd31:231::1]:47200/ and /healthz answers there;
#   no node logs "Network is unreachable" or "Address family not supported" (a datagram sent to the other
#   family from the wrong socket).
# Run as root; needs ip (iproute2), python3 and curl.
# Ends with one line:
#   RESULT up_v6=yes|no up_mixed=yes|no v6_copy=ok|failed v6_get=ok|failed v6_mtu=N mixed_c_to_a=ok|failed mixed_a_to_c=ok|failed
#          url=ok|failed unreachable_logged=N
# exit 0 when all are ok, N = 0 and the IPv6 path MTU is 1452; 1 otherwise; 2 on a setup error.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/ipv6-node-real-link-<time>),
# NET4 (10.231.170), NET6 (fd31:231:: , a ULA /64), COPY_S (15: how long a background copy may take).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/netns.sh
netns_require python3 curl
OUT=${OUT:-/tmp/ipv6-node-real-link-$(date +%Y%m%d-%H%M%S)}
NET4=${NET4:-10.231.170}
NET6=${NET6:-fd31:231::}
COPY_S=${COPY_S:-15}
netns_jar
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT"/data-* "$OUT"/*.out "$OUT"/*.log

S=v6-s-$$; A=v6-a-$$; B=v6-b-$$; C=v6-c-$$
netns_up $S $A $B $C
ip -n $S link add br$$ type bridge
ip -n $S link set br$$ up
i=0
for n in $A $B $C; do
  i=$((i + 1))
  ip link add v$i-$$ type veth peer name s$i-$$
  ip link set v$i-$$ netns $n; ip link set s$i-$$ netns $S
  ip -n $S link set s$i-$$ master br$$; ip -n $S link set s$i-$$ up
  ip netns exec $n sysctl -qw net.ipv6.conf.all.disable_ipv6=0
  ip -n $n addr add $NET4.$i/24 dev v$i-$$
  ip -n $n -6 addr add ${NET6}$i/64 dev v$i-$$ nodad   # nodad: usable at once, no duplicate detection wait
  ip -n $n link set v$i-$$ up
done

SECRET=$(head -c 24 /dev/urandom | base64)
cat > "$OUT/cluster.conf" <<EOF
geoblocks.cluster {
  regions = [
    { id = a, address = "[${NET6}1]:47100", http-port = 47200 }
    { id = b, address = "[${NET6}2]:47100", http-port = 47200 }
    { id = c, address = "$NET4.3:47100", http-port = 47200 }
  ]
  secret = "$SECRET"
  emulate-wan = false
  rtt-ms {}
}
geoblocks.http.secret-key = "$(head -c 24 /dev/urandom | base64)"
geoblocks.http.probes-need-auth = false
geoblocks.node {
  background-transport = ledbat
  scrub-rate = 0
}
geoblocks.placement.policies {
  to-a { copies = 2, terms = [local, random], require = [a] }
  to-b { copies = 2, terms = [local, random], require = [b] }
  to-c { copies = 2, terms = [local, random], require = [c] }
}
EOF
JAVA=(java -Xmx512m -jar "$JAR")
for r in a b c; do
  ns=$A; [[ $r == b ]] && ns=$B; [[ $r == c ]] && ns=$C
  ip netns exec $ns "${JAVA[@]}" server --id $r --config "$OUT/cluster.conf" --data "$OUT/data-$r" > "$OUT/node-$r.out" 2>&1 &
  PIDS+=($!)
done
at() { # REGION ARGS...: the client, in the region's namespace, talking to its node
  local r=$1 ns=$A; shift
  [[ $r == b ]] && ns=$B; [[ $r == c ]] && ns=$C
  ip netns exec $ns java -jar "$JAR" client --config "$OUT/cluster.conf" --at $r "$@"
}
UP_V6=no; UP_MIXED=no
END=$((SECONDS + 40))
while (( SECONDS < END )); do
  for r in a b c; do  # a node that exited (a bad address, a failed bind) ends the wait
    grep -q "^error:" "$OUT/node-$r.out" && { echo "node $r exited: $(grep "^error:" "$OUT/node-$r.out")"; break 2; }
  done
  at a status --json > "$OUT/up-a.json" 2>/dev/null || true
  grep -q '"region":"b","up":true' "$OUT/up-a.json" && UP_V6=yes
  grep -q '"region":"c","up":true' "$OUT/up-a.json" && at c status --json 2>/dev/null | grep -q '"region":"a","up":true' \
      && UP_MIXED=yes
  [[ $UP_V6 == yes && $UP_MIXED == yes ]] && break
  sleep 0.5
done
echo "a and b see each other: $UP_V6; a and c: $UP_MIXED"

# copied NAME REGION FROM: waits up to COPY_S s until every block of NAME (asked at FROM) has a copy at REGION
copied() {
  local end=$((SECONDS + COPY_S))
  while (( SECONDS < end )); do
    if at "$3" stat "$1" --json > "$OUT/stat-$1.json" 2>&1 && python3 - "$OUT/stat-$1.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if s.get("pending_known") and s["blocks"]
         and all(not b["pending"] and sys.argv[2] in b["replicas"] for b in s["blocks"]) else 1)
PY
    then echo ok; return; fi
    sleep 0.5
  done
  echo failed
}
# putget NAME FROM POLICY TO: a 4 MiB put at FROM acknowledged with FROM's copy, its copy at TO, read at TO
putget() {
  head -c $((4 << 20)) /dev/urandom > "$OUT/$1.in"
  if ! at "$2" put "$OUT/$1.in" --name "$1" --policy "$3" --ack local --block-size 1MiB > "$OUT/put-$1.out" 2>&1; then
    echo failed; return
  fi
  if [[ $(copied "$1" "$4" "$2") != ok ]]; then echo failed; return; fi
  if at "$4" get "$1" "$OUT/$1.got" > "$OUT/get-$1.out" 2>&1 && cmp -s "$OUT/$1.in" "$OUT/$1.got"; then echo ok
  else echo failed; fi
}

V6_COPY=failed; V6_GET=failed; V6_MTU=none; C_TO_A=failed; A_TO_C=failed; URL=failed
if [[ $UP_V6 == yes ]]; then
  at a status --every 0.3 --json > "$OUT/status-a.log" 2> "$OUT/status-a.err" &
  PIDS+=($!)
  head -c $((4 << 20)) /dev/urandom > "$OUT/v6.in"
  if at a put "$OUT/v6.in" --name v6 --policy to-b --ack local --block-size 1MiB > "$OUT/put-v6.out" 2>&1; then
    V6_COPY=$(copied v6 b a)
    if at b get v6 "$OUT/v6.got" > "$OUT/get-v6.out" 2>&1 && cmp -s "$OUT/v6.in" "$OUT/v6.got"; then V6_GET=ok; fi
  fi
  sleep 1
  V6_MTU=$(python3 - "$OUT/status-a.log" <<'PY'
import json, sys
best = None
for line in open(sys.argv[1]):
    try:
        p = json.loads(line)["background"]["peers"].get("b")
    except (ValueError, KeyError, AttributeError):
        continue
    if p and p.get("path_mtu_bytes"):
        best = p["path_mtu_bytes"]
print(best if best is not None else "none")
PY
)
fi
if [[ $UP_MIXED == yes ]]; then
  C_TO_A=$(putget c2a c to-a a)
  A_TO_C=$(putget a2c a to-c c)
fi
if grep -q "dashboard and metrics on http://\[${NET6}1\]:47200/" "$OUT/node-a.out" \
    && ip netns exec $A curl -sfg --max-time 5 "http://[${NET6}1]:47200/healthz" > "$OUT/healthz-a.out" 2>&1; then
  URL=ok
fi
UNREACHABLE=$(cat "$OUT"/node-*.out | grep -c "Network is unreachable\|Address family not supported" || true)
echo "RESULT up_v6=$UP_V6 up_mixed=$UP_MIXED v6_copy=$V6_COPY v6_get=$V6_GET v6_mtu=$V6_MTU mixed_c_to_a=$C_TO_A mixed_a_to_c=$A_TO_C" \
    "url=$URL unreachable_logged=$UNREACHABLE" | tee "$OUT/result.txt"
if [[ $UP_V6 != yes || $UP_MIXED != yes || $V6_COPY != ok || $V6_GET != ok || $V6_MTU != 1452 || $C_TO_A != ok || $A_TO_C != ok \
    || $URL != ok || $UNREACHABLE -ne 0 ]]; then
  echo "FAILED: see $OUT" >&2
  exit 1
fi
