#!/usr/bin/env bash
# A rolling upgrade under load (docs/upgrading.md): starts seoul, dublin, saopaulo and mumbai on
# loopback as the previous release, runs `bench load` against them, and while it runs
#   1. upgrades the regions one at a time: stop the node (SIGTERM), start it as the current build,
#      wait until /readyz says ready and SETTLE_S more;
#   2. rolls one region (dublin) back to the previous release the same way, and upgrades it again.
# Then prints bench load's summary and one line:
#   RESULT upgraded=4 rolledback=1 requests=N failed=N failovers=N lost=N corrupt=N
# Exit code 0 only when every step ended and lost=0 corrupt=0 (failed requests are counted, not
# fatal: requests in flight at a node that stops fail).
#
# There is no earlier release with version ranges yet, so "the previous release" is this build with
# geoblocks.network.previous-release = true: it offers file protocol VERSION-1 at most, as the
# previous release would (see docs/upgrading.md). OLD_JAR may name another jar to run instead.
#
# Settings (environment): JAR (application/target/node.jar), OLD_JAR (JAR, played as the previous
# release), WORK (a new temp dir, kept), DURATION of the load in s (150), THREADS (8),
# SIZES (50KiB,200KiB,1MiB), THINK_MS (300), SETTLE_S after each step (10), HEAP per node (256m),
# FAILOVER (3): bench load sends a request that failed as UNAVAILABLE (its node stopped: nothing was
# decided) to the next region, up to that many times, as a client with several endpoints would; these
# retries are counted (failovers=N), and only requests that failed after them count as failed.
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=${JAR:-application/target/node.jar}
OLD_JAR=${OLD_JAR:-$JAR}
WORK=${WORK:-$(mktemp -d /tmp/geoblocks-upgrade-XXXXXX)}
DURATION=${DURATION:-150}
THREADS=${THREADS:-8}
SIZES=${SIZES:-50KiB,200KiB,1MiB}
THINK_MS=${THINK_MS:-300}
SETTLE_S=${SETTLE_S:-10}
HEAP=${HEAP:-256m}
FAILOVER=${FAILOVER:-3}
[ -f "$JAR" ] || { echo "no $JAR: build first (mvn -o -q install -DskipTests)" >&2; exit 2; }
mkdir -p "$WORK"
JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")
OLD_JAR=$(cd "$(dirname "$OLD_JAR")" && pwd)/$(basename "$OLD_JAR")
PREVIOUS=()
[ "$OLD_JAR" = "$JAR" ] && PREVIOUS=(-Dgeoblocks.network.previous-release=true)

REGIONS=(seoul dublin saopaulo mumbai)
declare -A PORT HTTP PID
LOAD_PID=
. scripts/lib/local-cluster.sh
pick_ports
regions_conf "${REGIONS[@]}" >"$WORK/cluster.conf"
trap stop_all EXIT

start_node() { # REGION old|new
  local jar=$JAR opts=()
  if [ "$2" = old ]; then jar=$OLD_JAR; opts=("${PREVIOUS[@]}"); fi
  java -Xmx"$HEAP" -XX:+ExitOnOutOfMemoryError "${opts[@]}" -jar "$jar" server --id "$1" --config "$WORK/cluster.conf" \
    --data "$WORK/data/$1" >>"$WORK/$1.log" 2>&1 &
  PID[$1]=$!
}
await_ready() { # REGION: /readyz answers 200 within 120 s
  for _ in $(seq 1 600); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:${HTTP[$1]}/readyz")" = 200 ] && return 0
    kill -0 "${PID[$1]}" 2>/dev/null || { echo "node $1 exited:"; tail -20 "$WORK/$1.log"; exit 1; }
    sleep 0.2
  done
  echo "node $1 not ready within 120 s"; tail -20 "$WORK/$1.log"; exit 1
}
restart() { # REGION old|new
  kill "${PID[$1]}" && wait "${PID[$1]}" 2>/dev/null || true
  start_node "$1" "$2"
  await_ready "$1"
}
agreed() { # REGION PEER: the file protocol version REGION's last handshake with PEER agreed
  curl -s --max-time 5 "http://127.0.0.1:${HTTP[$1]}/metrics" \
    | awk -v m="geoblocks_peer_file_protocol{peer=\"127.0.0.1:${PORT[$2]}\"}" '$1 == m { sub(/\.0$/, "", $2); print $2 }'
}
seen_from() { # REGION: the file protocol version its handshakes agreed with each peer
  local out="" p
  for p in "${REGIONS[@]}"; do [ "$p" = "$1" ] || out="$out $p=$(agreed "$1" "$p")"; done
  echo "$1 speaks file protocol with$out"
}

log "work dir $WORK; starting the four regions as the previous release"
for r in "${REGIONS[@]}"; do start_node "$r" old; done
for r in "${REGIONS[@]}"; do await_ready "$r"; done
: >"$WORK/load.log"
java -jar "$JAR" bench load --config "$WORK/cluster.conf" --duration "$DURATION" --threads "$THREADS" \
  --sizes "$SIZES" --think-ms "$THINK_MS" --failover "$FAILOVER" --progress 10 --out "$WORK/load" >"$WORK/load.log" 2>&1 &
LOAD_PID=$!
until grep -q "the clock starts now" "$WORK/load.log"; do
  kill -0 "$LOAD_PID" 2>/dev/null || { echo "bench load ended early:"; cat "$WORK/load.log"; exit 1; }
  sleep 1
done
log "load running; $SETTLE_S s of it on the previous release"
sleep "$SETTLE_S"

UPGRADED=0
for r in "${REGIONS[@]}"; do
  t0=$(date +%s)
  restart "$r" new
  UPGRADED=$((UPGRADED + 1))
  log "$r upgraded (ready after $(( $(date +%s) - t0 )) s); $(seen_from "$([ "$r" = saopaulo ] && echo seoul || echo saopaulo)")"
  sleep "$SETTLE_S"
done
t0=$(date +%s)
restart dublin old
log "dublin rolled back to the previous release (ready after $(( $(date +%s) - t0 )) s); $(seen_from seoul)"
sleep "$SETTLE_S"
restart dublin new
log "dublin upgraded again; $(seen_from seoul)"

log "waiting for bench load to end"
LOAD_RC=0
wait "$LOAD_PID" || LOAD_RC=$?
LOAD_PID=
RESULT=$(grep '^RESULT' "$WORK/load.log" || true)
echo
echo "== bench load (log: $WORK/load.log)"
sed -n '/^throughput over/,/^reading back/p' "$WORK/load.log" | head -40
get() { echo "$RESULT" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
echo "RESULT upgraded=$UPGRADED rolledback=1 requests=$(get requests) failed=$(get failed) failovers=$(get failovers) lost=$(get lost) corrupt=$(get corrupt)"
[ -n "$RESULT" ] && [ "$(get lost)" = 0 ] && [ "$(get corrupt)" = 0 ] && [ "$UPGRADED" = 4 ]
