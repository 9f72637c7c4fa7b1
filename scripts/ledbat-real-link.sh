#!/usr/bin/env bash
# A background flow vs TCP over a real (kernel) 20 Mbit/s bottleneck. Run as root; not part of `mvn verify`.
#
#   sender ns  --veth-- router ns (tbf 20mbit on its egress toward the receiver) --veth-- receiver ns
#   10.77.1.1           10.77.1.254 | 10.77.2.254                                         10.77.2.1
#
# The background flow (LEDBAT_IMPL: geoblocks = our LEDBAT, `node.jar ledbat client -> server`;
# libutp = bittorrent/libutp's ucat; cubic = a second kernel TCP cubic flow, the reference of a flow
# that does not yield; none = no background flow, TCP alone as the reference) runs for DURATION s; a kernel TCP cubic flow runs from TCP_START to TCP_STOP
# s of its time axis (scripts/reallink/flowtool.py source/sink: timed to the millisecond, counted at
# the receiver per 100 ms). ping -D every 100 ms measures the bottleneck's queuing delay (RTT minus
# the run's minimum) whatever the flows are. scripts/reallink/linkmetrics.py computes the figures
# (LEDBAT alone, its share while TCP runs and after, time to yield and to recover, queuing delay;
# definitions in that file) into OUT/summary.txt and OUT/summary.json; OUT also gets the flows'
# CSVs, series.csv and a PNG plot. Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/ledbat-real-link-<time>),
# LEDBAT_IMPL (geoblocks), UCAT (path of a built libutp ucat, for LEDBAT_IMPL=libutp),
# DURATION (30), TCP_START (14), TCP_STOP (24), RATE (20mbit), BUFFER_MS (400: the bottleneck buffer), PARALLEL (1),
# LEDBAT_ARGS (extra client/server options, e.g. "--target 10" or "--mode ledbat++"),
# JAVA_OPTS (extra JVM options of both ends, e.g. -Dgeoblocks.ledbat.slow-start=false),
# MTU (1500: of every veth end; e.g. 1420, an overlay's),
# RTT_MS (0), JITTER_MS (0), LOSS_PCT (0), JITTER_FIFO (0; 1 = jitter never reorders): with any of the first three set, the router forwards through
# scripts/delayline (TUN devices + policy routing; this kernel has no netem), RTT_MS/2 each way.
# NICE (-5): scheduling priority of every process the run starts (endpoints, meters), so that other
# work on the machine disturbs the run less; 0 = as the caller. DELAYLINE_RT (1): run the delay line
# under SCHED_FIFO priority 10 (chrt): on a loaded machine a normal-priority delay line stalls for
# tens of ms (measured: idle-link ping spikes of 30-150 ms at load average 10); 0 = nice like the rest.
#
# libutp is never part of this repository; build its ucat in /tmp and pass it as UCAT:
#   git clone https://github.com/bittorrent/libutp /tmp/libutp && make -C /tmp/libutp
#   gcc -o /tmp/libutp/ucat-static /tmp/libutp/ucat.o /tmp/libutp/libutp.a -lstdc++   # or LD_LIBRARY_PATH=/tmp/libutp
#   UCAT=/tmp/libutp/ucat-static LEDBAT_IMPL=libutp RTT_MS=122 scripts/ledbat-real-link.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/real-link-topology.sh
source scripts/lib/real-link-topology.sh   # root check; RATE, RTT_MS, JITTER_MS, LOSS_PCT, NICE, DELAYLINE_RT defaults
JAR=${JAR:-application/target/node.jar}
OUT=${OUT:-/tmp/ledbat-real-link-$(date +%Y%m%d-%H%M%S)}
LEDBAT_IMPL=${LEDBAT_IMPL:-geoblocks}
UCAT=${UCAT:-}
DURATION=${DURATION:-30}
TCP_START=${TCP_START:-14}
TCP_STOP=${TCP_STOP:-24}
PARALLEL=${PARALLEL:-1}
LEDBAT_ARGS=${LEDBAT_ARGS:-}
JAVA_OPTS=${JAVA_OPTS:-}
case $LEDBAT_IMPL in
  geoblocks)
    [[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q package -DskipTests" >&2; exit 2; }
    JAR=$(realpath "$JAR") ;;
  libutp)
    if [[ -z $UCAT || ! -x $UCAT ]]; then
      echo "error: LEDBAT_IMPL=libutp needs UCAT, the path of libutp's ucat binary (never committed here); build it in /tmp:" >&2
      echo "  git clone https://github.com/bittorrent/libutp /tmp/libutp && make -C /tmp/libutp && gcc -o /tmp/libutp/ucat-static /tmp/libutp/ucat.o /tmp/libutp/libutp.a -lstdc++ && export UCAT=/tmp/libutp/ucat-static" >&2
      exit 2
    fi
    UCAT=$(realpath "$UCAT")
    UCAT_HELP=$("$UCAT" -h 2>&1 || true)
    [[ $UCAT_HELP == *Usage* ]] || { echo "error: $UCAT does not run: ${UCAT_HELP%%$'\n'*}" >&2; exit 2; } ;;
  cubic|none) ;;
  *) echo "error: LEDBAT_IMPL must be geoblocks, libutp, cubic or none, was '$LEDBAT_IMPL'" >&2; exit 2 ;;
esac
command -v python3 >/dev/null || { echo "error: needs python3" >&2; exit 2; }
if ! command -v ping >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iputils-ping >/dev/null
fi
FLOWTOOL=$(realpath scripts/reallink/flowtool.py)
mkdir -p "$OUT/log"
rm -f "$OUT"/log/stream-*.csv "$OUT/log/start_epoch_ms" "$OUT"/*.csv "$OUT"/summary.* "$OUT/ping.txt" "$OUT/qdisc.txt"
OUT=$(realpath "$OUT")

topology_up lb
echo "topology up: sender 10.77.1.1 -> router (tbf $RATE, delay line RTT ${RTT_MS} ms, jitter ${JITTER_MS} ms, loss ${LOSS_PCT} %, MTU $MTU) -> receiver 10.77.2.1, $PING"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

now_ms() { date +%s%3N; }
JAVA=(java $JAVA_OPTS -Dcom.barchart.udt.library.extract.location="$OUT/udt" -jar "$JAR")
# --- receivers ------------------------------------------------------------------------------
nice -n "$NICE" ip netns exec $C python3 "$FLOWTOOL" sink --bind 10.77.2.1 --port 5201 --out "$OUT/tcp.csv" > "$OUT/tcp-sink.out" 2>&1 &
PIDS+=($!)
case $LEDBAT_IMPL in
  geoblocks)
    nice -n "$NICE" ip netns exec $C "${JAVA[@]}" ledbat server --bind 10.77.2.1 --port 7400 --verbose $LEDBAT_ARGS > "$OUT/server.out" 2>&1 &
    PIDS+=($!) ;;
  libutp)
    # ucat's stdin must stay open without data (EOF would make it close the connection): sleep
    nice -n "$NICE" ip netns exec $C bash -c "sleep $((DURATION + 60)) | '$UCAT' -l -p 7500 | python3 '$FLOWTOOL' meter --out '$OUT/bg.csv'" > "$OUT/server.out" 2>&1 &
    PIDS+=($!) ;;
  cubic)
    nice -n "$NICE" ip netns exec $C python3 "$FLOWTOOL" sink --bind 10.77.2.1 --port 5202 --out "$OUT/bg.csv" > "$OUT/server.out" 2>&1 &
    PIDS+=($!) ;;
  none) ;;
esac
sleep 2
# queuing delay probe for the whole run, and the bottleneck's byte counter every second
nice -n "$NICE" ip netns exec $S ping -D -i 0.1 10.77.2.1 > "$OUT/ping.txt" 2>&1 &
PING_PID=$!
PIDS+=($PING_PID)
( while :; do echo "$(now_ms) $(ip netns exec $R tc -s qdisc show dev $BOTTLENECK_DEV | grep -o 'Sent [0-9]* bytes [0-9]* pkt' | head -1)"; sleep 1; done ) > "$OUT/qdisc.txt" 2>/dev/null &
PIDS+=($!)

# --- the background flow for DURATION s, TCP from TCP_START to TCP_STOP -----------------------
case $LEDBAT_IMPL in
  geoblocks)
    nice -n "$NICE" ip netns exec $S "${JAVA[@]}" ledbat client --remote 10.77.2.1:7400 --time "$DURATION" --parallel "$PARALLEL" \
        --log "$OUT/log" --verbose $LEDBAT_ARGS > "$OUT/client.out" 2>&1 &
    CLIENT=$!
    for _ in $(seq 100); do [[ -s $OUT/log/start_epoch_ms ]] && break; sleep 0.1; done
    START_MS=$(cat "$OUT/log/start_epoch_ms") ;;
  libutp)
    START_MS=$(now_ms)
    nice -n "$NICE" ip netns exec $S "$UCAT" 10.77.2.1 7500 < /dev/zero > "$OUT/client.out" 2>&1 &
    CLIENT=$! ;;
  cubic)
    START_MS=$(now_ms)
    nice -n "$NICE" ip netns exec $S python3 "$FLOWTOOL" source --connect 10.77.2.1:5202 --start-epoch-ms "$START_MS" \
        --stop-epoch-ms $((START_MS + DURATION * 1000)) > "$OUT/client.out" 2>&1 &
    CLIENT=$! ;;
  none)
    START_MS=$(now_ms)
    sleep "$DURATION" &
    CLIENT=$! ;;
esac
PIDS+=($CLIENT)
TCP_ON=$((START_MS + TCP_START * 1000))
TCP_OFF=$((START_MS + TCP_STOP * 1000))
nice -n "$NICE" ip netns exec $S python3 "$FLOWTOOL" source --connect 10.77.2.1:5201 --start-epoch-ms $TCP_ON --stop-epoch-ms $TCP_OFF \
    > "$OUT/tcp-source.out" 2>&1 &
PIDS+=($!)
CLIENT_RC=0
if [[ $LEDBAT_IMPL == geoblocks ]]; then
  set +e
  wait $CLIENT
  CLIENT_RC=$?
  set -e
  cat "$OUT/client.out"
else
  sleep "$(python3 -c "print(max(0, ($START_MS + $DURATION * 1000 - $(now_ms)) / 1000))")"
  kill $CLIENT 2>/dev/null || true
fi
sleep 1
kill $PING_PID 2>/dev/null || true
topology_cleanup   # stops the meters (they write their CSVs on SIGTERM) and removes the namespaces
trap - EXIT INT TERM

# --- analysis -------------------------------------------------------------------------------
cat > "$OUT/meta.json" <<JSON
{"impl": "$LEDBAT_IMPL", "mtu": $MTU, "rtt_ms": $RTT_MS, "jitter_ms": $JITTER_MS, "loss_pct": $LOSS_PCT, "rate": "$RATE",
 "duration_s": $DURATION, "start_epoch_ms": $START_MS, "tcp_start_epoch_ms": $TCP_ON, "tcp_stop_epoch_ms": $TCP_OFF,
 "idle_ping_ms": "$BASE_PING", "load": "$LOAD", "ledbat_args": "$LEDBAT_ARGS", "java_opts": "$JAVA_OPTS"}
JSON
python3 scripts/reallink/linkmetrics.py real "$OUT"
echo "load average before the run: $LOAD, after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
if [[ $LEDBAT_IMPL == geoblocks ]]; then
  java -jar "$JAR" ledbat plot --log "$OUT/log" --tcp "$OUT/tcp-series.csv" --out "$OUT/ledbat-real-link.png" \
      --title "LEDBAT vs TCP cubic, $RATE tbf bottleneck, RTT $RTT_MS ms ${LEDBAT_ARGS:+($LEDBAT_ARGS)}" || true
fi
echo "results in $OUT (client exit code $CLIENT_RC)"
exit $CLIENT_RC
