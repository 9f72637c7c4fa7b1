#!/usr/bin/env bash
# Grows and shrinks a live local cluster under `bench load` (issue 25): starts seoul, dublin and
# saopaulo on loopback, runs `bench load --follow-layout` against them, and while it runs
#   1. starts mumbai's node and `cluster add`s it, then waits until it holds its share (SHORT 0);
#   2. `cluster drain`s dublin and waits until no kept version has a copy there (TO-DRAIN 0, REPLICAS 0);
#   3. `cluster remove`s dublin (tried again while the node refuses), then stops its node.
# Then prints bench load's summary (failed %, lost, corrupt), each step's duration, the bytes the
# moves copied and the final `cluster show`, and checks that its members are mumbai, saopaulo, seoul.
# Exit code 0 only when every step ended, lost=0 corrupt=0, failed <= MAX_FAILED_PCT and the members
# are right.
#
# Run it through `heavy` on a shared machine: heavy scripts/grow-under-load.sh
# Settings (environment): JAR (application/target/node.jar), WORK (a new temp dir, kept), DURATION
# of the load in s (300), THREADS (8), SIZES (50KiB,200KiB,1MiB,3MiB), THINK_MS (500), SETTLE_S of
# load before and between the steps (20), STEP_TIMEOUT_S per step (240), HEAP per node (256m),
# MAX_FAILED_PCT (0.1). bench load keeps its files (--keep-files): the cluster is thrown away after.
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=${JAR:-application/target/node.jar}
WORK=${WORK:-$(mktemp -d /tmp/geoblocks-grow-XXXXXX)}
DURATION=${DURATION:-300}
THREADS=${THREADS:-8}
SIZES=${SIZES:-50KiB,200KiB,1MiB,3MiB}
THINK_MS=${THINK_MS:-500}
SETTLE_S=${SETTLE_S:-20}
STEP_TIMEOUT_S=${STEP_TIMEOUT_S:-240}
HEAP=${HEAP:-256m}
MAX_FAILED_PCT=${MAX_FAILED_PCT:-0.1}
[ -f "$JAR" ] || { echo "no $JAR: build first (mvn -o -q install -DskipTests)" >&2; exit 2; }
mkdir -p "$WORK"
JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")

REGIONS=(seoul dublin saopaulo mumbai)
declare -A PORT HTTP PID
LOAD_PID=
. scripts/lib/local-cluster.sh
pick_ports

ADMIN_TOKEN="grow-under-load-$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
conf() { # the regions given, in a cluster config (with the admin API's root token `cluster` commands send)
  regions_conf "$@"
  echo "geoblocks.admin.token = \"$ADMIN_TOKEN\""
}
conf seoul dublin saopaulo >"$WORK/three.conf"          # the first three nodes' static config: version 0
conf seoul dublin saopaulo mumbai >"$WORK/four.conf"    # the newcomer's and the clients' config

trap stop_all EXIT

now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

start_node() { # REGION CONFIG
  java -Xmx"$HEAP" -XX:+ExitOnOutOfMemoryError -jar "$JAR" server --id "$1" --config "$2" \
    --data "$WORK/data/$1" >>"$WORK/$1.log" 2>&1 &
  PID[$1]=$!
}
await_listening() { # REGION
  for _ in $(seq 1 600); do
    grep -q "listening on" "$WORK/$1.log" 2>/dev/null && return 0
    kill -0 "${PID[$1]}" 2>/dev/null || { echo "node $1 exited:"; tail -20 "$WORK/$1.log"; exit 1; }
    sleep 0.2
  done
  echo "node $1 did not listen within 120 s"; exit 1
}
client() { # REGION ARGS...: the CLI at that region's node
  local at=$1; shift
  java -XX:TieredStopAtLevel=1 -jar "$JAR" client --config "$WORK/four.conf" --at "$at" "$@"
}
metric() { # REGION NAME-WITH-LABELS: the value on that node's /metrics, empty when absent
  curl -s --max-time 5 "http://127.0.0.1:${HTTP[$1]}/metrics" | awk -v m="$2" '$1 == m { print $2 }'
}
sum_metric() { # NAME REGIONS...: the sum over those nodes
  local name=$1 total=0 v; shift
  for r in "$@"; do v=$(metric "$r" "$name"); total=$(python3 -c "print(int($total + float('${v:-0}')))"); done
  echo "$total"
}
change() { # REGION ARGS...: a layout change, tried again while refused (a member has not reported the version, or still holds copies)
  local at=$1 out; shift
  local t0; t0=$(now)
  while true; do
    if out=$(client "$at" cluster "$@" 2>&1); then
      log "cluster $* accepted after $(since "$t0") s"
      return 0
    fi
    if [ "$(python3 -c "print(int($(now) - $t0))")" -ge "$STEP_TIMEOUT_S" ]; then
      log "cluster $* still refused after $STEP_TIMEOUT_S s: $out"; return 1
    fi
    echo "  refused, trying again: $(echo "$out" | grep -v '^\s*$' | tail -1)"
    sleep 2
  done
}
await_step() { # WHAT TEST-FUNCTION: polls until it holds; 1 on timeout
  local t0; t0=$(now)
  until "$2"; do
    if [ "$(python3 -c "print(int($(now) - $t0))")" -ge "$STEP_TIMEOUT_S" ]; then log "$1: not reached in $STEP_TIMEOUT_S s"; return 1; fi
    sleep 2
  done
}

log "work dir $WORK; starting seoul, dublin, saopaulo ($(uptime | sed 's/.*load/load/'))"
for r in seoul dublin saopaulo; do start_node "$r" "$WORK/three.conf"; done
for r in seoul dublin saopaulo; do await_listening "$r"; done
log "three nodes listen; starting bench load for $DURATION s"
java -jar "$JAR" bench load --config "$WORK/four.conf" --follow-layout --duration "$DURATION" --threads "$THREADS" \
  --sizes "$SIZES" --think-ms "$THINK_MS" --progress 10 --keep-files --out "$WORK/load" >"$WORK/load.log" 2>&1 &
LOAD_PID=$!
until grep -q "the clock starts now" "$WORK/load.log"; do
  kill -0 "$LOAD_PID" 2>/dev/null || { echo "bench load ended early:"; cat "$WORK/load.log"; exit 1; }
  sleep 1
done
T_LOAD=$(now)
log "load running; $SETTLE_S s of it on three regions"
sleep "$SETTLE_S"
STEPS_OK=1

# 1. add mumbai
MOVED0=$(sum_metric geoblocks_moved_bytes_total seoul dublin saopaulo)
T_ADD=$(now)
log "step 1: starting mumbai's node, then cluster add mumbai 127.0.0.1:${PORT[mumbai]}"
start_node mumbai "$WORK/four.conf"
await_listening mumbai
change seoul add mumbai "127.0.0.1:${PORT[mumbai]}" || STEPS_OK=0
filled() {
  local s p
  s=$(metric seoul 'geoblocks_rebalance_short_bytes{region="mumbai"}')
  p=$(metric seoul 'geoblocks_placed_blocks{region="mumbai"}')
  [ "${p%.*}" -gt 0 ] 2>/dev/null && [ "${s:-0}" = "0.0" -o -z "$s" ] && \
    [ -n "$(metric seoul geoblocks_rebalance_pending_bytes)" ] && [ "$(metric seoul geoblocks_rebalance_pending_bytes)" = "0.0" ]
}
await_step "mumbai filled" filled || STEPS_OK=0
ADD_S=$(since "$T_ADD")
MOVED1=$(sum_metric geoblocks_moved_bytes_total seoul dublin saopaulo mumbai)
FILL_MOVES=$(sum_metric 'geoblocks_rebalance_moves_started_total{kind="fill"}' seoul dublin saopaulo mumbai)
log "step 1 done in $ADD_S s: mumbai holds $(metric seoul 'geoblocks_placed_bytes{region="mumbai"}') bytes placed; $((MOVED1 - MOVED0)) bytes moved, $FILL_MOVES fill moves"
sleep "$SETTLE_S"

# 2. drain dublin
T_DRAIN=$(now)
MOVED1=$(sum_metric geoblocks_moved_bytes_total seoul dublin saopaulo mumbai)
log "step 2: cluster drain dublin"
change seoul drain dublin || STEPS_OK=0
drained() { # every member's `cluster show`: TO-DRAIN 0 and no replica at dublin (its last full pass began after the drain)
  local r
  for r in seoul saopaulo mumbai dublin; do
    client "$r" cluster show --json 2>/dev/null | python3 -c '
import json, sys
d = [g for g in json.load(sys.stdin)["regions"] if g["region"] == "dublin"][0]
sys.exit(0 if d["state"] == "draining" and d["pendingVersions"] == 0 and d["replicas"] == 0 else 1)' || return 1
  done
}
await_step "dublin drained" drained || STEPS_OK=0
DRAIN_S=$(since "$T_DRAIN")
MOVED2=$(sum_metric geoblocks_moved_bytes_total seoul dublin saopaulo mumbai)
DRAIN_MOVES=$(sum_metric 'geoblocks_rebalance_moves_started_total{kind="drain"}' seoul dublin saopaulo mumbai)
log "step 2 done in $DRAIN_S s: $((MOVED2 - MOVED1)) bytes moved, $DRAIN_MOVES drain moves"

# 3. remove dublin, then stop its node once the clients follow the layout
T_REMOVE=$(now)
log "step 3: cluster remove dublin"
change seoul remove dublin || STEPS_OK=0
REMOVE_S=$(since "$T_REMOVE")
sleep 5 # the load client reads the layout every second: let it stop sending to dublin
kill "${PID[dublin]}" && wait "${PID[dublin]}" 2>/dev/null || true
unset 'PID[dublin]'
log "step 3 done: removed after $REMOVE_S s, dublin's node stopped"

log "waiting for bench load to end ($DURATION s from $(date -u -d @"${T_LOAD%.*}" +%H:%M:%S))"
LOAD_RC=0
wait "$LOAD_PID" || LOAD_RC=$?
LOAD_PID=
SHOW=$(client seoul cluster show)
MEMBERS=$(client seoul cluster show --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(r["region"] for r in d["regions"] if r["state"] != "removed")))')
RESULT=$(grep '^RESULT' "$WORK/load.log" || true)
FAILED_PCT=$(echo "$RESULT" | python3 -c '
import re, sys
s = sys.stdin.read()
req, failed = re.search(r"requests=(\d+)", s), re.search(r"failed=(\d+)", s)
print(f"{100 * int(failed.group(1)) / max(1, int(req.group(1))):.3f}" if req and failed else "")')

echo
echo "== bench load (log: $WORK/load.log)"
sed -n '/^\[.*done; the last requests/,/^reading back/p' "$WORK/load.log" | head -40
grep -i 'layout version\|^verified\|lost\|corrupt' "$WORK/load.log" | grep -v '^RESULT' | head -20
echo "$RESULT"
echo "failed: ${FAILED_PCT:-?} % of the requests"
echo "== steps"
echo "add mumbai:    ${ADD_S} s until it held its share; $((MOVED1 - MOVED0)) bytes moved ($FILL_MOVES fill moves)"
echo "drain dublin:  ${DRAIN_S} s until no kept version had a copy there; $((MOVED2 - MOVED1)) bytes moved ($DRAIN_MOVES drain moves)"
echo "remove dublin: accepted after ${REMOVE_S} s"
echo "== cluster show at seoul"
echo "$SHOW"
echo "members: $MEMBERS"
echo "load: $(uptime | sed 's/.*load/load/')"
OK=1
[ "$STEPS_OK" = 1 ] || { echo "FAIL: a step did not end"; OK=0; }
[ "$LOAD_RC" = 0 ] || { echo "FAIL: bench load exited $LOAD_RC (lost or corrupt files)"; OK=0; }
[ "$MEMBERS" = "mumbai saopaulo seoul" ] || { echo "FAIL: members are '$MEMBERS'"; OK=0; }
python3 -c "import sys; sys.exit(0 if '${FAILED_PCT:-x}' != 'x' and float('${FAILED_PCT:-100}') <= $MAX_FAILED_PCT else 1)" \
  || { echo "FAIL: failed ${FAILED_PCT:-?} % > $MAX_FAILED_PCT %"; OK=0; }
[ "$OK" = 1 ] && echo "PASS" || exit 1
