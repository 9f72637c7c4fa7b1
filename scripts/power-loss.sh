#!/usr/bin/env bash
# Power cuts under load (issue 44). A SIGKILL never loses the page cache; a power cut does. This script
# puts each node's data directory on its own LazyFS mount (a FUSE file system that keeps written data in
# its own cache until the application syncs it; `lazyfs::clear-cache` on its fifo drops every unsynced
# byte), and repeats CYCLES times:
#   1. WORKERS load loops put objects (`client put`, random node, size, policy and ack level); an object's
#      name and sha256 are recorded only after the client reported success (acknowledged);
#   2. at a random point, the power of one or more random nodes is cut: each is frozen (SIGSTOP, so that
#      it writes nothing more), then `lazyfs::clear-cache` is written to its mount's fifo (and LazyFS
#      reports the cache cleared), then the node is SIGKILLed, in that order. A node syncs what it writes
#      within milliseconds, so a random instant rarely finds unsynced data: while LazyFS reports none on
#      the frozen nodes' mounts other than RocksDB's info LOG, they are thawed and frozen again 20-150 ms
#      later, up to HUNT times, and the cut falls on the first freeze that finds some;
#   3. the cut nodes are restarted on the same data directories and the script waits until every node's
#      /readyz answers 200 with every peer up; the load stops;
#   4. every object acknowledged in this cycle, and SAMPLE objects drawn from the earlier ones, are read
#      back (`client get` at a random node) and compared by sha256.
# At the end every acknowledged object is read back once more. An object that cannot be read (3 tries,
# 1 s apart) is lost; one that reads back other bytes is corrupt. All random choices come from SEED; the
# timing of real processes does not. The last line is
#   RESULT cycles=N acked=N verified=N lost=N corrupt=N
# and the exit status is non-zero when lost or corrupt is, or when a node did not come back. Before it, the
# script says how many unsynced bytes the cuts dropped, how many cuts dropped data of other files than the
# info LOG, and of which (LazyFS's unsynced-data report just before each clear) and how full each LazyFS cache got (a full cache writes through: nothing to lose).
#
# Needs root, /dev/fuse and LazyFS (scripts/install-lazyfs.sh installs it; LAZYFS names a built binary).
# Settings (environment; CYCLES also as the first argument): NODES (4), CYCLES (50), SEED (1), WORKERS
# (2), LOAD_MIN_MS/LOAD_MAX_MS (1500/6000: the load runs this long before the cut), MAX_SIZE (1048576 bytes),
# BLOCK_SIZE (64KiB), SAMPLE (8), HEAP per node (256m), LAZYFS_CACHE per mount (128mb), READY_S (180), HUNT (20),
# JAR (application/target/node.jar), WORK (a new /tmp/geoblocks-power-* directory: logs, the acknowledged
# list; the data directories are removed when the run passes, unless KEEP_DATA=1).
set -euo pipefail
cd "$(dirname "$0")/.."
NODES=${NODES:-4}
CYCLES=${1:-${CYCLES:-50}}
SEED=${SEED:-1}
WORKERS=${WORKERS:-2}
LOAD_MIN_MS=${LOAD_MIN_MS:-1500}
LOAD_MAX_MS=${LOAD_MAX_MS:-6000}
MAX_SIZE=${MAX_SIZE:-1048576}
BLOCK_SIZE=${BLOCK_SIZE:-64KiB}
SAMPLE=${SAMPLE:-8}
HEAP=${HEAP:-256m}
LAZYFS_CACHE=${LAZYFS_CACHE:-128mb}
READY_S=${READY_S:-180}
HUNT=${HUNT:-20}
KEEP_DATA=${KEEP_DATA:-0}
JAR=${JAR:-application/target/node.jar}
ALL_REGIONS=(a b c d e f g h)

fail_setup() { echo "error: $*" >&2; exit 2; }
[[ $NODES =~ ^[1-8]$ ]] || fail_setup "NODES must be 1 to 8, was '$NODES'"
[[ $CYCLES =~ ^[0-9]+$ && $CYCLES -ge 1 ]] || fail_setup "CYCLES must be a positive number, was '$CYCLES'"
[[ $SEED =~ ^[0-9]+$ ]] || fail_setup "SEED must be a number, was '$SEED'"
[[ $LOAD_MIN_MS =~ ^[0-9]+$ && $LOAD_MAX_MS =~ ^[0-9]+$ && $LOAD_MAX_MS -ge $LOAD_MIN_MS ]] \
  || fail_setup "LOAD_MIN_MS and LOAD_MAX_MS must be numbers, LOAD_MIN_MS <= LOAD_MAX_MS (were '$LOAD_MIN_MS', '$LOAD_MAX_MS')"
[[ $HUNT =~ ^[0-9]+$ ]] || fail_setup "HUNT must be a number, was '$HUNT'"
[[ $WORKERS =~ ^[1-9][0-9]*$ ]] || fail_setup "WORKERS must be a positive number, was '$WORKERS'"
[[ $(id -u) -eq 0 ]] || fail_setup "run as root (LazyFS mounts with allow_other)"
[[ -c /dev/fuse ]] || fail_setup "no /dev/fuse: LazyFS needs FUSE"
[[ -f $JAR ]] || fail_setup "$JAR not found; build it: mvn -B -q install -DskipTests"
JAR=$(realpath "$JAR")
if [[ -z ${LAZYFS:-} ]]; then
  LAZYFS=$(scripts/install-lazyfs.sh | tail -1) || fail_setup "scripts/install-lazyfs.sh failed"
fi
[[ -x $LAZYFS ]] || fail_setup "LazyFS binary $LAZYFS not found"
command -v fusermount3 >/dev/null || fail_setup "needs fusermount3 (Debian's fuse3)"
WORK=${WORK:-$(mktemp -d /tmp/geoblocks-power-XXXXXX)}
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
# LazyFS ignores a --config-path whose text contains "-o" (any case): its configs and fifos live here
LCONF=$(mktemp -d /tmp/gbpl.XXXXXX)
REGIONS=("${ALL_REGIONS[@]:0:$NODES}")
T0=$(date +%s)

declare -A PORT HTTP PID LFS_PID
read -r -a FREE <<<"$(python3 -c '
import socket, sys
ss = [socket.socket() for _ in range(2 * int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))' "$NODES")"
i=0
for r in "${REGIONS[@]}"; do PORT[$r]=${FREE[$i]}; HTTP[$r]=${FREE[$((i + 1))]}; i=$((i + 2)); done

{
  echo "geoblocks.cluster {"
  echo "  regions = ["
  for r in "${REGIONS[@]}"; do echo "    { id = $r, address = \"127.0.0.1:${PORT[$r]}\", http-port = ${HTTP[$r]} }"; done
  echo "  ]"
  echo "  secret = \"power-loss-$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')\""
  echo "  emulate-wan = false"
  echo "}"
  echo "geoblocks.node { scrub-rate = 0 }"
} >"$WORK/cluster.conf"

log() { echo "[$(date -u +%H:%M:%S)] $*"; }

# --- LazyFS mounts ---------------------------------------------------------------------------------
mount_node() { # REGION: its mount at WORK/mnt/REGION over WORK/backing/REGION
  local r=$1
  mkdir -p "$WORK/backing/$r" "$WORK/mnt/$r"
  cat >"$LCONF/$r.toml" <<EOF
[faults]
fifo_path="$LCONF/$r.fifo"
[cache]
apply_eviction=false
[cache.simple]
custom_size="$LAZYFS_CACHE"
blocks_per_page=1
[filesystem]
log_all_operations=false
logfile=""
EOF
  "$LAZYFS" "$WORK/mnt/$r" --config-path "$LCONF/$r.toml" -o allow_other -o modules=subdir \
    -o subdir="$WORK/backing/$r" -f >"$WORK/lazyfs-$r.log" 2>&1 &
  LFS_PID[$r]=$!
  for _ in $(seq 100); do
    mountpoint -q "$WORK/mnt/$r" && [[ -p $LCONF/$r.fifo ]] && return 0
    kill -0 "${LFS_PID[$r]}" 2>/dev/null || { tail -20 "$WORK/lazyfs-$r.log" >&2; fail_setup "LazyFS for $r exited"; }
    sleep 0.1
  done
  fail_setup "LazyFS for $r did not mount in 10 s; see $WORK/lazyfs-$r.log"
}

lazyfs_cmd() { # REGION COMMAND LOG-TEXT: sends lazyfs::COMMAND to that mount; 1 when LOG-TEXT is not logged once more within 10 s
  local before n
  before=$(grep -c "$3" "$WORK/lazyfs-$1.log" || true)
  echo "lazyfs::$2" >"$LCONF/$1.fifo"
  for _ in $(seq 200); do
    n=$(grep -c "$3" "$WORK/lazyfs-$1.log" || true)
    ((n > before)) && return 0
    sleep 0.05
  done
  return 1
}
DROPPED=0   # unsynced bytes the cuts dropped (LazyFS's report just before each)
CUT_EVENTS=0
HITS=0      # cuts that dropped unsynced data other than RocksDB's info LOG
report() { # REGION: LazyFS's unsynced-data report of that mount now: sets REPORT_BYTES, and REPORT_FILES (the
           # files with unsynced data other than RocksDB's info LOG, one a line, also added to WORK/unsynced.txt)
  local n log=$WORK/lazyfs-$1.log
  n=$(wc -l <"$log")
  REPORT_BYTES=0 REPORT_FILES=
  lazyfs_cmd "$1" unsynced-data-report 'total number of bytes un-fsynced' || return 0
  REPORT_BYTES=$(tail -n +$((n + 1)) "$log" | grep -o 'un-fsynced: [0-9]*' | tail -1 | grep -o '[0-9]*$' || echo 0)
  REPORT_FILES=$(tail -n +$((n + 1)) "$log" | grep -o "=> file: '[^']*'" | sed -E "s/^=> file: '//; s/'\$//" \
    | grep -v -E '/LOG(\.old.*)?$' || true)
  [[ -n $REPORT_FILES ]] && REPORT_FILES+=$'\n'
  return 0
}

STOP_FILE=$WORK/stop
WORKER_PIDS=()
cleanup() {
  touch "$STOP_FILE"
  local p r
  for p in "${WORKER_PIDS[@]:-}"; do [[ -n $p ]] && wait "$p" 2>/dev/null || true; done
  for r in "${!PID[@]}"; do kill -9 "${PID[$r]}" 2>/dev/null || true; gone "${PID[$r]}"; done
  for r in "${!LFS_PID[@]}"; do
    fusermount3 -u "$WORK/mnt/$r" 2>/dev/null || umount -l "$WORK/mnt/$r" 2>/dev/null || true
    # LazyFS ends with SIGABRT after an unmount (an upstream thread is never joined); the unmount is clean
    wait "${LFS_PID[$r]}" 2>/dev/null || true
  done
  rm -rf "$LCONF"
}
trap cleanup EXIT
FAILED=0   # 1: a node did not come back, or LazyFS did not clear its cache
end_run() { # CYCLES: stops everything, then prints the summary and the RESULT line last; exits with finish's status
  trap - EXIT
  local r u
  CACHE_USE=
  for r in "${!LFS_PID[@]}"; do # a full cache would write through (lose nothing): report how full each got
    if lazyfs_cmd "$r" display-cache-usage 'cache usage (%pages)'; then
      u=$(grep -o 'cache usage (%pages) is [0-9.]*' "$WORK/lazyfs-$r.log" | tail -1 | grep -o '[0-9.]*$')
      CACHE_USE+="${CACHE_USE:+, }$r ${u:0:4}%"
    fi
  done
  cleanup 2>/dev/null
  if finish "$1" && [[ $FAILED == 0 ]]; then
    [[ $KEEP_DATA == 1 ]] || rm -rf "$WORK/backing" "$WORK/tmp"
    exit 0
  fi
  exit 1
}

# --- nodes and the client --------------------------------------------------------------------------
start_node() { # REGION
  local r=$1
  echo "=== start $(date -u +%H:%M:%S)" >>"$WORK/node-$r.log"
  java -Xmx"$HEAP" -XX:+ExitOnOutOfMemoryError -jar "$JAR" server --id "$r" --config "$WORK/cluster.conf" \
    --data "$WORK/mnt/$r/data" >>"$WORK/node-$r.log" 2>&1 &
  PID[$r]=$!
  disown "${PID[$r]}"   # no "Killed" job notices from the shell: the script waits for its death itself (gone)
}
gone() { # PID: waits until that process has ended
  while alive "$1"; do sleep 0.05; done
}
alive() { # PID: running (not exited, nor a zombie not waited for yet)
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]
}
ready() { # REGION: /readyz answers 200 with every peer up
  local body
  body=$(curl -s -f --max-time 2 "http://127.0.0.1:${HTTP[$1]}/readyz" 2>/dev/null) || return 1
  [[ $body == *"$((NODES - 1)) of $((NODES - 1)) peers up"* ]]
}
await_ready() { # REGION...: every one ready within READY_S, else 1 (with the log of the one that is not)
  local r t0=$SECONDS
  for r in "$@"; do
    until ready "$r"; do
      if ! alive "${PID[$r]}"; then
        echo "node $r exited; the end of its log:" >&2; tail -25 "$WORK/node-$r.log" >&2; return 1
      fi
      if ((SECONDS - t0 > READY_S)); then
        echo "node $r not ready within $READY_S s: $(curl -s --max-time 2 "http://127.0.0.1:${HTTP[$r]}/readyz")" >&2
        tail -25 "$WORK/node-$r.log" >&2; return 1
      fi
      sleep 0.3
    done
  done
}
CLIENT_JVM=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx128m)
client_archive() { # a class-data archive of the client's classes (made once, by a status call): it starts faster
  java "${CLIENT_JVM[@]}" -XX:ArchiveClassesAtExit="$WORK/client.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$JAR" \
    client --config "$WORK/cluster.conf" --at "${REGIONS[0]}" status >/dev/null 2>&1 || true
  [[ -s $WORK/client.jsa ]] && CLIENT_JVM+=(-XX:SharedArchiveFile="$WORK/client.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
}
client() { # REGION ARGS...
  local at=$1; shift
  java "${CLIENT_JVM[@]}" -jar "$JAR" client --config "$WORK/cluster.conf" --at "$at" "$@"
}
content() { # NAME SIZE FILE: SIZE bytes that depend only on SEED and NAME
  head -c "$2" /dev/zero | openssl enc -aes-128-ctr -nosalt -pbkdf2 -pass pass:"$SEED/$1" >"$3"
}

POLICIES=(local localclosest tworandom)
ACKS=(all all local)
worker() { # CYCLE ID: puts until STOP_FILE exists; appends "NAME SHA256 SIZE AT POLICY ACK" of each acknowledged put
  local c=$1 id=$2 i=0 at name size pol ack f
  RANDOM=$(((SEED * 7919 + c * 131 + id * 17) % 32768))
  f=$WORK/tmp/w$id
  while [[ ! -e $STOP_FILE ]]; do
    at=${REGIONS[RANDOM % NODES]}
    name=c$c-w$id-$i
    if ((RANDOM % 4 == 0)); then size=$((RANDOM % 4097)); else size=$(((RANDOM * 32768 + RANDOM) % MAX_SIZE + 1)); fi
    pol=${POLICIES[RANDOM % ${#POLICIES[@]}]}
    ((NODES == 1)) && pol=local
    ack=${ACKS[RANDOM % ${#ACKS[@]}]}
    content "$name" "$size" "$f"
    if client "$at" put "$f" --name "$name" --policy "$pol" --ack "$ack" --block-size "$BLOCK_SIZE" \
        >"$f.out" 2>&1; then
      echo "$name $(sha256sum <"$f" | cut -d' ' -f1) $size $at $pol $ack" >>"$WORK/acked-w$id.txt"
    else
      echo "$name at $at: $(tail -1 "$f.out")" >>"$WORK/refused.txt"
    fi
    i=$((i + 1))
  done
}

declare -A RESULT_OF   # NAME -> ok | lost | corrupt (the worst seen)
V=
verify() { # NAME SHA256: reads it back at a random node; sets V to ok, lost or corrupt (no subshell: RANDOM)
  local name=$1 sum=$2 try at got out=$WORK/tmp/get
  for try in 1 2 3; do
    at=${REGIONS[RANDOM % NODES]}
    rm -f "$out"
    if client "$at" get "$name" "$out" >"$out.log" 2>&1; then
      got=$(sha256sum <"$out" | cut -d' ' -f1)
      if [[ $got == "$sum" ]]; then V=ok; return; fi
      echo "CORRUPT $name at $at: sha256 $got, acknowledged $sum" >>"$WORK/problems.txt"
      V=corrupt; return
    fi
    sleep 1
  done
  echo "LOST $name at $at: $(tail -1 "$out.log")" >>"$WORK/problems.txt"
  V=lost
}
check() { # NAME SHA256: verify, and keep the worst result
  local v
  verify "$1" "$2"
  v=$V
  case "${RESULT_OF[$1]:-ok}:$v" in
    corrupt:*) ;;
    lost:ok) ;;
    *) RESULT_OF[$1]=$v ;;
  esac
  [[ $v == ok ]]
}
ACKED=()   # "NAME SHA256", in order
finish() { # prints the counts and the RESULT line, returns the exit status
  local cycles=$1 n lost=0 corrupt=0 verified=0
  for n in "${!RESULT_OF[@]}"; do
    case ${RESULT_OF[$n]} in ok) verified=$((verified + 1)) ;; lost) lost=$((lost + 1)) ;; corrupt) corrupt=$((corrupt + 1)) ;; esac
  done
  log "done in $(($(date +%s) - T0)) s; refused puts (not acknowledged): $(cat "$WORK/refused.txt" 2>/dev/null | wc -l); logs in $WORK"
  log "LazyFS cache in use at the end (of $LAZYFS_CACHE each; a full one writes through): ${CACHE_USE:-?}"
  log "the cuts dropped $DROPPED unsynced bytes; $HITS of $CUT_EVENTS cuts dropped data of other files than RocksDB's" \
    "info LOG: $(sed -E 's/.*\/data\///' "$WORK/dropped-files.txt" 2>/dev/null | awk -F/ '{ n = $NF; sub(/.*\./, "*.", n); print (NF > 1 ? $1 "/" : "") n }' \
    | sort | uniq -c | sort -rn | awk '{printf "%s%s (%s)", (NR > 1 ? ", " : ""), $2, $1} END { if (NR == 0) printf "none" }')"
  [[ -s $WORK/problems.txt ]] && { echo "problems:"; head -20 "$WORK/problems.txt"; }
  echo "RESULT cycles=$cycles acked=${#ACKED[@]} verified=$verified lost=$lost corrupt=$corrupt"
  ((lost == 0 && corrupt == 0 && verified == ${#ACKED[@]}))
}

# --- the run ---------------------------------------------------------------------------------------
mkdir -p "$WORK/tmp"
rm -f "$STOP_FILE" "$WORK"/acked-w*.txt "$WORK/problems.txt" "$WORK/refused.txt" "$WORK/dropped-files.txt"
log "work dir $WORK; $NODES nodes on LazyFS ($LAZYFS_CACHE cache each), $CYCLES cycles, seed $SEED"
for r in "${REGIONS[@]}"; do mount_node "$r"; done
for r in "${REGIONS[@]}"; do start_node "$r"; done
await_ready "${REGIONS[@]}" || { FAILED=1; end_run 0; }
log "$NODES nodes ready in $(($(date +%s) - T0)) s"
client_archive
RANDOM=$SEED
CUTS=0
for c in $(seq 1 "$CYCLES"); do
  rm -f "$STOP_FILE"
  WORKER_PIDS=()
  for w in $(seq 1 "$WORKERS"); do worker "$c" "$w" & WORKER_PIDS+=($!); done
  load_ms=$((LOAD_MIN_MS + (RANDOM * 32768 + RANDOM) % (LOAD_MAX_MS - LOAD_MIN_MS + 1)))
  k=$((1 + RANDOM % NODES))
  cut=()
  pool=("${REGIONS[@]}")
  for _ in $(seq "$k"); do j=$((RANDOM % ${#pool[@]})); cut+=("${pool[$j]}"); pool=("${pool[@]:0:$j}" "${pool[@]:$((j + 1))}"); done
  sleep "$(printf '%d.%03d' $((load_ms / 1000)) $((load_ms % 1000)))"
  # the power cut: freeze every node cut (nothing more reaches its disk). With HUNT > 0, while none of them
  # holds unsynced data other than RocksDB's info LOG, thaw them and freeze them again 20-150 ms later, up to
  # HUNT times. Then drop each mount's unsynced data, and kill.
  tries=0
  while :; do
    for r in "${cut[@]}"; do kill -STOP "${PID[$r]}"; done
    bytes=0 files=
    for r in "${cut[@]}"; do report "$r"; bytes=$((bytes + REPORT_BYTES)); files+=$REPORT_FILES; done
    [[ -n $files ]] && break
    ((tries >= HUNT)) && break
    for r in "${cut[@]}"; do kill -CONT "${PID[$r]}"; done
    tries=$((tries + 1))
    sleep "$(printf '0.%03d' $((20 + RANDOM % 131)))"
  done
  DROPPED=$((DROPPED + bytes))
  hit="no unsynced data but the info LOG after $((tries + 1)) freezes"
  if [[ -n $files ]]; then
    HITS=$((HITS + 1))
    echo -n "$files" >>"$WORK/dropped-files.txt"
    hit="$(echo -n "$files" | grep -c .) files with unsynced data at freeze $((tries + 1))"
  fi
  for r in "${cut[@]}"; do
    before=$(grep -c 'cache is cleared' "$WORK/lazyfs-$r.log" || true)
    echo "lazyfs::clear-cache" >"$LCONF/$r.fifo"
    for _ in $(seq 200); do
      (($(grep -c 'cache is cleared' "$WORK/lazyfs-$r.log" || true) > before)) && break
      sleep 0.05
    done
    (($(grep -c 'cache is cleared' "$WORK/lazyfs-$r.log" || true) > before)) \
      || { echo "error: LazyFS of $r did not report its cache cleared" >&2; FAILED=1; end_run "$((c - 1))"; }
    kill -KILL "${PID[$r]}"
  done
  for r in "${cut[@]}"; do gone "${PID[$r]}"; done
  CUTS=$((CUTS + ${#cut[@]}))
  CUT_EVENTS=$((CUT_EVENTS + 1))
  t_cut=$SECONDS
  for r in "${cut[@]}"; do start_node "$r"; done
  if ! await_ready "${REGIONS[@]}"; then
    touch "$STOP_FILE"; wait "${WORKER_PIDS[@]}" 2>/dev/null || true
    echo "error: cycle $c: the cluster did not come back after the cut of ${cut[*]}" >&2
    FAILED=1; end_run "$((c - 1))"
  fi
  ready_s=$((SECONDS - t_cut))
  touch "$STOP_FILE"
  wait "${WORKER_PIDS[@]}" 2>/dev/null || true
  # this cycle's acknowledged objects, in a stable order
  new=()
  for w in $(seq 1 "$WORKERS"); do
    [[ -f $WORK/acked-w$w.txt ]] && while read -r name sum _; do new+=("$name $sum"); done < <(grep "^c$c-" "$WORK/acked-w$w.txt")
  done
  before_n=${#ACKED[@]}
  bad=0
  for e in "${new[@]:+${new[@]}}"; do check ${e} || bad=$((bad + 1)); done
  for _ in $(seq "$SAMPLE"); do
    ((before_n > 0)) || break
    check ${ACKED[$(((RANDOM * 32768 + RANDOM) % before_n))]} || bad=$((bad + 1))
  done
  ACKED+=("${new[@]:+${new[@]}}")
  log "cycle $c/$CYCLES: cut ${cut[*]} after $load_ms ms of load ($hit); ready again in $ready_s s;" \
    "${#new[@]} acknowledged (${#ACKED[@]} in all); $((${#new[@]} + (before_n > 0 ? SAMPLE : 0))) read back, $bad failed"
done
log "reading back all ${#ACKED[@]} acknowledged objects ($CUTS node power cuts in $CYCLES cycles)"
for e in "${ACKED[@]:+${ACKED[@]}}"; do check ${e} || true; done
end_run "$CYCLES"
