#!/bin/sh
# `node.jar bench net` between two running nodes next to iperf3 on loopback with the same parameters
# (docs/benchmarks.md): tcp 256 MiB with 1 and 4 streams; udp 1200-byte datagrams for 2 s at
# 10M, 100M and 1G per stream with 1 and 4 streams.
# Usage: scripts/bench-net-vs-iperf3.sh CONFIG FROM TO [node.jar]   (needs iperf3 and python3; the nodes must run)
set -e
config=${1:?usage: $0 CONFIG FROM TO [node.jar]}
from=${2:?}
to=${3:?}
jar=${4:-application/target/node.jar}
port=48199
out=$(mktemp -d)
echo "== node.jar bench net --from $from --to $to"
java -jar "$jar" bench net --config "$config" --from "$from" --to "$to"
echo "== iperf3 on loopback"
for n in 1 4; do
  iperf3 -s -p $port -1 > /dev/null 2>&1 & sleep 1
  iperf3 -c 127.0.0.1 -p $port -n 256M -P $n -J > "$out/tcp-$n.json"
  python3 -c "import json;j=json.load(open('$out/tcp-$n.json'));print('tcp    %d streams %10.1f Mbit/s' % ($n, j['end']['sum_received']['bits_per_second']/1e6))"
done
for n in 1 4; do
  for b in 10M 100M 1G; do
    iperf3 -s -p $port -1 > /dev/null 2>&1 & sleep 1
    iperf3 -c 127.0.0.1 -p $port -u -b $b -l 1200 -t 2 -P $n -J > "$out/udp-$n-$b.json"
    python3 -c "
import json;s=json.load(open('$out/udp-$n-$b.json'))['end']['sum']
print('udp    %d streams offered %-4s/stream: received %8.1f Mbit/s  loss %.3f %%  jitter %.3f ms' % ($n, '$b',
      s['bits_per_second']*(1-s['lost_percent']/100)/1e6, s['lost_percent'], s['jitter_ms']))"
  done
done
rm -rf "$out"
