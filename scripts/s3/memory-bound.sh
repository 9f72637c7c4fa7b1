#!/usr/bin/env bash
# Measures that the S3 gateway's memory stays bounded whatever the object size: starts the built-in
# 4-region local cluster with a small heap (HEAP, default 256m), PUTs an object of SIZE_MIB (default
# 1024) MiB of random bytes at seoul with curl (SigV4, streamed from a file), GETs it back whole and as
# a 1 MiB range, checks the bytes (sha256), and samples every node's heap in use (/metrics
# jvm_memory_used_bytes{area="heap"}) every 0.5 s. Prints one line per phase and a RESULT line with
# the largest heap seen at any node and seoul's peak RSS (VmHWM). Not part of `mvn verify`.
#
# Usage: scripts/s3/memory-bound.sh [JAR]   (JAR default application/target/node.jar)
# Environment: SIZE_MIB (1024), HEAP (256m), WORK (a new temp dir; removed unless KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=$(realpath "${1:-application/target/node.jar}")
[[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q package -DskipTests" >&2; exit 2; }
SIZE_MIB=${SIZE_MIB:-1024}
HEAP=${HEAP:-256m}
WORK=${WORK:-$(mktemp -d /tmp/geoblocks-memory-bound.XXXX)}
KEY=geoblocks-demo
SECRET=geoblocks-local-demo-secret
for tool in curl sha256sum; do command -v $tool >/dev/null || { echo "error: needs $tool" >&2; exit 2; }; done
mkdir -p "$WORK"
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [[ -n $p ]] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ ${KEEP:-0} == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

port() { case $1 in seoul) echo 47201;; dublin) echo 47202;; saopaulo) echo 47203;; mumbai) echo 47204;; esac; }
declare -A NODE_PID
for r in seoul dublin saopaulo mumbai; do
  java -Xmx"$HEAP" -jar "$JAR" server --id $r --data "$WORK/data/$r" > "$WORK/$r.log" 2>&1 &
  NODE_PID[$r]=$!
  PIDS+=($!)
done
for r in seoul dublin saopaulo mumbai; do
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$(port $r)/healthz" >/dev/null && break; sleep 0.5; done
  curl -sf "http://127.0.0.1:$(port $r)/healthz" >/dev/null || { echo "error: $r did not start; log:" >&2; tail -5 "$WORK/$r.log" >&2; exit 1; }
done
sleep 3   # the RTT monitor's first round

# heap sampler: the largest heap in use per node, from each node's /metrics
( while :; do
    for r in seoul dublin saopaulo mumbai; do
      v=$(curl -s "http://127.0.0.1:$(port $r)/metrics" | awk '/^jvm_memory_used_bytes\{area="heap"\}/ {print $2}')
      [[ -n $v ]] && echo "$r $v"
    done
    sleep 0.5
  done ) > "$WORK/heap.txt" 2>/dev/null &
SAMPLER=$!
PIDS+=($SAMPLER)

S3=(curl -sS --fail-with-body --aws-sigv4 "aws:amz:us-east-1:s3" --user "$KEY:$SECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD')
URL="http://127.0.0.1:47201"
echo "object: $SIZE_MIB MiB of random bytes; node heap -Xmx$HEAP; work dir $WORK"
head -c $((SIZE_MIB * 1048576)) /dev/urandom > "$WORK/object"
SUM=$(sha256sum < "$WORK/object" | cut -d' ' -f1)
"${S3[@]}" -X PUT "$URL/membound" > /dev/null
t0=$(date +%s.%N)
"${S3[@]}" -T "$WORK/object" "$URL/membound/big" > /dev/null
t1=$(date +%s.%N)
echo "put:   $(python3 -c "print('%.1f s, %.1f MB/s' % ($t1 - $t0, $SIZE_MIB * 1.048576 / ($t1 - $t0)))")"
"${S3[@]}" "$URL/membound/big" -o "$WORK/back"
t2=$(date +%s.%N)
GOT=$(sha256sum < "$WORK/back" | cut -d' ' -f1)
[[ $GOT == "$SUM" ]] || { echo "error: the object read back differs (sha256 $GOT, put $SUM)" >&2; exit 1; }
echo "get:   $(python3 -c "print('%.1f s, %.1f MB/s' % ($t2 - $t1, $SIZE_MIB * 1.048576 / ($t2 - $t1)))"), sha256 equal"
rm -f "$WORK/back"
FIRST=$(( (SIZE_MIB / 2) * 1048576 + 12345 ))
t2=$(date +%s.%N)
"${S3[@]}" -H "Range: bytes=$FIRST-$((FIRST + 1048575))" "$URL/membound/big" -o "$WORK/range"
t3=$(date +%s.%N)
cmp -s "$WORK/range" <(tail -c +$((FIRST + 1)) "$WORK/object" | head -c 1048576) \
  || { echo "error: the 1 MiB range read back differs" >&2; exit 1; }
echo "range: 1 MiB at offset $FIRST in $(python3 -c "print('%.2f s' % ($t3 - $t2))"), bytes equal"
HWM=$(awk '/VmHWM/ {print $2 / 1024}' /proc/${NODE_PID[seoul]}/status)
kill $SAMPLER 2>/dev/null || true
python3 - "$WORK/heap.txt" "$SIZE_MIB" "$HEAP" "$HWM" <<'EOF'
import sys
peak = {}
for line in open(sys.argv[1]):
    r, v = line.split()
    peak[r] = max(peak.get(r, 0.0), float(v))
for r in sorted(peak):
    print("heap in use, max: %-9s %6.1f MiB" % (r, peak[r] / 1048576))
worst = max(peak, key=peak.get)
print("RESULT object_mib=%s heap_limit=%s max_heap_used_mib=%.1f at=%s seoul_peak_rss_mib=%.0f"
      % (sys.argv[2], sys.argv[3], peak[worst] / 1048576, worst, float(sys.argv[4])))
EOF
