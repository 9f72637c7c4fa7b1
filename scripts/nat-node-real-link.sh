#!/usr/bin/env bash
# Issue 42: a node behind NAT joins, serves and replicates. Three network namespaces:
#
#   node a (private 10.231.160.2, bind 0.0.0.0)  --  router (NAT)  --  node b and the client (10.231.161.2)
#                                     10.231.160.1 | 10.231.161.1 (a's public, advertised address)
#
# The router forwards 10.231.161.1:47100 (TCP and UDP) to 10.231.160.2:47100 and masquerades what a sends.
# a's region entry says address = "10.231.161.1:47100" (not on its host) and bind = "0.0.0.0"; b and the
# client dial a's public address only. Checks, from b's namespace: both nodes see each other up; a put at b
# with tworandom places on both and reads back from a; a put at a (through the NAT) reads back from b; no
# "dialled ... but the peer says" in either log. Run as root; needs ip (iproute2) and nft (nftables).
# Ends with one line: RESULT up=yes|no put_b=ok|failed get_a=ok|failed put_a=ok|failed get_b=ok|failed
# mismatch_logged=N; exit 0 when all ok and N = 0, 1 otherwise, 2 on a setup error.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/nat-node-real-link-<time>),
# NET_PRIVATE (10.231.160), NET_PUBLIC (10.231.161).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/netns.sh
netns_require nft   # scripts/install-nat-tools.sh installs it
OUT=${OUT:-/tmp/nat-node-real-link-$(date +%Y%m%d-%H%M%S)}
PRIV=${NET_PRIVATE:-10.231.160}
PUB=${NET_PUBLIC:-10.231.161}
netns_jar
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "$OUT/data-a" "$OUT/data-b" "$OUT"/*.out

A=nat-a-$$; R=nat-r-$$; B=nat-b-$$
netns_up $A $R $B
ip link add xa$$ type veth peer name xra$$
ip link add xb$$ type veth peer name xrb$$
ip link set xa$$ netns $A; ip link set xra$$ netns $R
ip link set xb$$ netns $B; ip link set xrb$$ netns $R
ip -n $A addr add $PRIV.2/24 dev xa$$; ip -n $A link set xa$$ up
ip -n $R addr add $PRIV.1/24 dev xra$$; ip -n $R link set xra$$ up
ip -n $R addr add $PUB.1/24 dev xrb$$; ip -n $R link set xrb$$ up
ip -n $B addr add $PUB.2/24 dev xb$$; ip -n $B link set xb$$ up
ip -n $A route add default via $PRIV.1
ip netns exec $R sysctl -qw net.ipv4.ip_forward=1
ip netns exec $R nft -f - <<NFT
table ip nat {
  chain prerouting {
    type nat hook prerouting priority dstnat;
    iifname "xrb$$" ip daddr $PUB.1 tcp dport 47100 dnat to $PRIV.2:47100
    iifname "xrb$$" ip daddr $PUB.1 udp dport 47100 dnat to $PRIV.2:47100
  }
  chain postrouting {
    type nat hook postrouting priority srcnat;
    oifname "xrb$$" ip saddr $PRIV.0/24 masquerade
  }
}
NFT

SECRET=$(head -c 24 /dev/urandom | base64)
cat > "$OUT/cluster.conf" <<CONF
geoblocks.cluster {
  regions = [
    { id = a, address = "$PUB.1:47100", bind = "0.0.0.0" }
    { id = b, address = "$PUB.2:47100" }
  ]
  secret = "$SECRET"
  emulate-wan = false
}
geoblocks.node.scrub-rate = 0
CONF
JAVA=(java -Xmx512m -jar "$JAR")
ip netns exec $A "${JAVA[@]}" server --id a --config "$OUT/cluster.conf" --data "$OUT/data-a" > "$OUT/node-a.out" 2>&1 &
PIDS+=($!)
ip netns exec $B "${JAVA[@]}" server --id b --config "$OUT/cluster.conf" --data "$OUT/data-b" > "$OUT/node-b.out" 2>&1 &
PIDS+=($!)
client() { ip netns exec $B java -jar "$JAR" client --config "$OUT/cluster.conf" --at "$@"; }
UP=no
for i in $(seq 60); do
  if client a status --json 2>/dev/null | grep -q '"region":"b","up":true' \
      && client b status --json 2>/dev/null | grep -q '"region":"a","up":true'; then UP=yes; break; fi
  sleep 1
done
echo "nodes see each other: $UP"
head -c $((3 << 20)) /dev/urandom > "$OUT/in-b.bin"
head -c $((3 << 20)) /dev/urandom > "$OUT/in-a.bin"
step() { # NAME COMMAND...: ok or failed, the command's output in OUT/NAME.out
  local name=$1; shift
  if "$@" > "$OUT/$name.out" 2>&1; then echo ok; else echo failed; fi
}
PUT_B=$(step put-b client b put "$OUT/in-b.bin" --name from-b --policy tworandom --block-size 1MiB)
GET_A=$(step get-a client a get from-b "$OUT/out-a.bin")
[[ $GET_A == ok ]] && ! cmp -s "$OUT/in-b.bin" "$OUT/out-a.bin" && GET_A=failed
PUT_A=$(step put-a client a put "$OUT/in-a.bin" --name from-a --policy tworandom --block-size 1MiB)
GET_B=$(step get-b client b get from-a "$OUT/out-b.bin")
[[ $GET_B == ok ]] && ! cmp -s "$OUT/in-a.bin" "$OUT/out-b.bin" && GET_B=failed
MISMATCH=$(cat "$OUT"/node-*.out | grep -c "but the peer says" || true)
echo "RESULT up=$UP put_b=$PUT_B get_a=$GET_A put_a=$PUT_A get_b=$GET_B mismatch_logged=$MISMATCH" | tee "$OUT/result.txt"
if [[ $UP != yes || $PUT_B != ok || $GET_A != ok || $PUT_A != ok || $GET_B != ok || $MISMATCH -ne 0 ]]; then
  echo "FAILED: see $OUT" >&2
  exit 1
fi
