#!/usr/bin/env bash
# A rolling upgrade under load (docs/upgrading.md): starts seoul, dublin, saopaulo and mumbai on
# loopback as the previous release, runs `bench load` against them, and while it runs
#   1. upgrades the regions one at a time: stop the node (SIGTERM), start it as the current build,
#      wait until /readyz says ready and SETTLE_S more;
#   2. rolls one region (dublin) back to the previous release the same way (the cluster version is
#      still the previous release's), and upgrades it again;
#   3. checks that `client status` says every member runs the new release, and raises the cluster
#      version (`client cluster finalize`).
# When the load has ended, it starts dublin as the previous release once more, checks that its peers
# refuse it (below the cluster version), and brings it back on the current build.
# Then prints bench load's summary and one line:
#   RESULT upgraded=4 rolledback=1 finalized=V refused_old=0|1 requests=N failed=N failovers=N lost=N corrupt=N
# Exit code 0 only when every step ended, lost=0 corrupt=0, the cluster version rose and the old build
# was refused after it (failed requests are counted, not fatal: requests in flight at a node that stops fail).
#
# The previous release is built from its git tag (PREVIOUS_TAG, v0.2.0) with an offline Maven build in
# a temporary git worktree, once: the jar is kept in RELEASES (/tmp/geoblocks-releases). OLD_JAR may
# name a jar to run instead; OLD_JAR=played plays the previous release with this build
# (geoblocks.network.previous-release = true: file protocol 4 at most, HELLO layout 2, release 0.2).
#
# Settings (environment): JAR (application/target/node.jar), OLD_JAR (built from PREVIOUS_TAG), WORK (a
# new temp dir, kept), DURATION of the load in s (150), THREADS (8), SIZES (50KiB,200KiB,1MiB),
# THINK_MS (300), SETTLE_S after each step (10), HEAP per node (256m), FAILOVER (3): bench load sends a
# request that failed as UNAVAILABLE (its node stopped: nothing was decided) to the next region, up to
# that many times, as a client with several endpoints would; these retries are counted (failovers=N),
# and only requests that failed after them count as failed. bench load keeps its files (--keep-files):
# the cluster is thrown away after.
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=${JAR:-application/target/node.jar}
PREVIOUS_TAG=${PREVIOUS_TAG:-v0.2.0}
RELEASES=${RELEASES:-/tmp/geoblocks-releases}
OLD_JAR=${OLD_JAR:-}
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
log() { echo "[$(date -u +%H:%M:%S)] $*"; }
build_previous() { # the previous release's node.jar, built from PREVIOUS_TAG once (offline) and kept in RELEASES
  local out="$RELEASES/node-$PREVIOUS_TAG.jar" tree
  if [ ! -f "$out" ]; then
    git rev-parse -q --verify "refs/tags/$PREVIOUS_TAG" >/dev/null \
      || { echo "no git tag $PREVIOUS_TAG here (fetch the tags, or set OLD_JAR)" >&2; exit 2; }
    tree=$(mktemp -d /tmp/geoblocks-previous-XXXXXX)
    log "building $PREVIOUS_TAG in $tree (offline Maven, tests skipped)" >&2
    git worktree add -q --detach "$tree" "$PREVIOUS_TAG"
    (cd "$tree" && mvn -B -o -q -DskipTests package -pl application -am) >&2 \
      || { git worktree remove --force "$tree"; echo "building $PREVIOUS_TAG failed" >&2; exit 2; }
    mkdir -p "$RELEASES"
    cp "$tree/application/target/node.jar" "$out.tmp" && mv "$out.tmp" "$out"
    git worktree remove --force "$tree"
  fi
  echo "$out"
}
PREVIOUS=()
if [ "$OLD_JAR" = played ]; then
  OLD_JAR=$JAR
  PREVIOUS=(-Dgeoblocks.network.previous-release=true)
elif [ -z "$OLD_JAR" ]; then
  OLD_JAR=$(build_previous)
fi
OLD_JAR=$(cd "$(dirname "$OLD_JAR")" && pwd)/$(basename "$OLD_JAR")
log "previous release: $(java -jar "$OLD_JAR" --version)${PREVIOUS:+ (played by this build)}; current: $(java -jar "$JAR" --version)"

REGIONS=(seoul dublin saopaulo mumbai)
declare -A PORT HTTP PID
LOAD_PID=
. scripts/lib/local-cluster.sh
pick_ports
ADMIN_TOKEN="rolling-upgrade-$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
{ regions_conf "${REGIONS[@]}"; echo "geoblocks.admin.token = \"$ADMIN_TOKEN\""; } >"$WORK/cluster.conf"
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
client() { # REGION ARGS...: the current build's CLI at that region's node
  local at=$1; shift
  java -XX:TieredStopAtLevel=1 -jar "$JAR" client --config "$WORK/cluster.conf" --at "$at" "$@"
}
cluster_version() { # REGION: the cluster version that region's layout names
  client "$1" cluster show --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["clusterVersion"])'
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
  --sizes "$SIZES" --think-ms "$THINK_MS" --failover "$FAILOVER" --progress 10 --out "$WORK/load" --keep-files \
  >"$WORK/load.log" 2>&1 &
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
sleep "$SETTLE_S"

STATUS=$(client seoul status)
echo "$STATUS" | grep -E "^cluster version|  runs " | sed 's/^/    /'
echo "$STATUS" | grep -q "^cluster version 0.2 (every member runs" \
  || { echo "status at seoul does not say every member runs the new release:"; echo "$STATUS"; exit 1; }
t0=$(date +%s)
client seoul cluster finalize | head -1
FINAL=""
for _ in $(seq 1 60); do # every member adopts the layout that raised it (sent at once, and by anti-entropy)
  FINAL=$(for r in "${REGIONS[@]}"; do cluster_version "$r"; done | sort -u | tr '\n' ' ')
  [ "$FINAL" = "$(cluster_version seoul) " ] && [ "$(cluster_version seoul)" != 0.2 ] && break
  sleep 1
done
FINALIZED=$(cluster_version seoul)
log "cluster version $FINALIZED at every region (${FINAL% }) after $(( $(date +%s) - t0 )) s"

log "waiting for bench load to end"
LOAD_RC=0
wait "$LOAD_PID" || LOAD_RC=$?
LOAD_PID=
RESULT=$(grep '^RESULT' "$WORK/load.log" || true)

# the cluster version rose: the previous release must not rejoin (what it cannot read may now be on).
# 0.2.0 does not start on the raised layout (format 3); a build that did would be refused by its peers.
log "starting dublin as the previous release once more: it must not rejoin now"
kill "${PID[dublin]}" && wait "${PID[dublin]}" 2>/dev/null || true
start_node dublin old
REFUSED_OLD=0
HOW=""
for _ in $(seq 1 60); do
  if ! kill -0 "${PID[dublin]}" 2>/dev/null; then
    HOW="it did not start: $(grep -a -m1 -E "layout format|cluster runs at cluster version" "$WORK/dublin.log" || true)"
    [ -n "${HOW#it did not start: }" ] && REFUSED_OLD=1
    break
  fi
  if grep -q -a "below the cluster's version $FINALIZED" "$WORK/seoul.log" "$WORK/saopaulo.log" "$WORK/mumbai.log"; then
    HOW="its peers refused it: $(grep -a -h -m1 "below the cluster's version" "$WORK/seoul.log" "$WORK/saopaulo.log" \
      "$WORK/mumbai.log" | head -1 | cut -c1-240)"
    REFUSED_OLD=1
    break
  fi
  sleep 1
done
log "dublin on the previous release: ${HOW:-still running after 60 s, and not refused}"
restart dublin new
log "dublin back on the current build; $(seen_from seoul)"

echo
echo "== bench load (log: $WORK/load.log)"
sed -n '/^throughput over/,/^reading back/p' "$WORK/load.log" | head -40
get() { echo "$RESULT" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
echo "RESULT upgraded=$UPGRADED rolledback=1 finalized=$FINALIZED refused_old=$REFUSED_OLD requests=$(get requests) failed=$(get failed) failovers=$(get failovers) lost=$(get lost) corrupt=$(get corrupt)"
[ -n "$RESULT" ] && [ "$(get lost)" = 0 ] && [ "$(get corrupt)" = 0 ] && [ "$UPGRADED" = 4 ] && [ "$FINALIZED" != 0.2 ] \
  && [ "$REFUSED_OLD" = 1 ]
