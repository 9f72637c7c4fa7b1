#!/usr/bin/env bash
# A background flow vs TCP over a real (kernel) 20 Mbit/s bottleneck. Run as root; not part of `mvn verify`.
#
#   sender ns  --veth-- router ns (tbf 20mbit on its egress toward the receiver) --veth-- receiver ns
#   10.77.1.1           10.77.1.254 | 10.77.2.254                                         10.77.2.1
#
# The background flow (LEDBAT_IMPL: geoblocks = our LEDBAT, `node.jar ledbat client -> server`;
# libutp = bittorrent/libutp's ucat; cubic = a second kernel TCP cubic flow, the reference of a flow
# that does not yield) runs for DURATION s; a kernel TCP cubic flow runs from TCP_START to TCP_STOP
# s of its time axis (scripts/reallink/flowtool.py source/sink: timed to the millisecond, counted at
# the receiver per 100 ms). ping -D every 100 ms measures the bottleneck's queuing delay (RTT minus
# the run's minimum) whatever the flows are. scripts/reallink/linkmetrics.py computes the figures
# (LEDBAT alone, its share while TCP runs and after, time to yield and to recover, queuing delay;
# definitions in that file) into OUT/summary.txt and OUT/summary.json; OUT also gets the flows'
# CSVs, series.csv and a PNG plot. Namespaces are removed on exit.
#
# Environment: JAR (default application/target/node.jar), OUT (default /tmp/ledbat-real-link-<time>),
# LEDBAT_IMPL (geoblocks), UCAT (path of a built libutp ucat, for LEDBAT_IMPL=libutp),
# DURATION (30), TCP_START (14), TCP_STOP (24), RATE (20mbit), PARALLEL (1),
# LEDBAT_ARGS (extra client/server options, e.g. "--target 10" or "--mode ledbat++"),
# JAVA_OPTS (extra JVM options of both ends, e.g. -Dgeoblocks.ledbat.slow-start=false),
# RTT_MS (0), JITTER_MS (0), LOSS_PCT (0): with any of them set, the router forwards through
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

if [[ $(id -u) -ne 0 ]]; then
  echo "error: run as root (needs ip netns and tc)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
JAR=${JAR:-application/target/node.jar}
OUT=${OUT:-/tmp/ledbat-real-link-$(date +%Y%m%d-%H%M%S)}
LEDBAT_IMPL=${LEDBAT_IMPL:-geoblocks}
UCAT=${UCAT:-}
DURATION=${DURATION:-30}
TCP_START=${TCP_START:-14}
TCP_STOP=${TCP_STOP:-24}
RATE=${RATE:-20mbit}
PARALLEL=${PARALLEL:-1}
LEDBAT_ARGS=${LEDBAT_ARGS:-}
JAVA_OPTS=${JAVA_OPTS:-}
RTT_MS=${RTT_MS:-0}
JITTER_MS=${JITTER_MS:-0}
LOSS_PCT=${LOSS_PCT:-0}
NICE=${NICE:--5}
DELAYLINE_RT=${DELAYLINE_RT:-1}
if [[ $DELAYLINE_RT == 1 ]] && command -v chrt >/dev/null; then
  DELAYLINE_SCHED="chrt -f 10"   # a router does not wait for other work; the kernel's RT throttling bounds it
else
  DELAYLINE_SCHED="nice -n $NICE"
fi
case $LEDBAT_IMPL in
  geoblocks)
    [[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q install -DskipTests" >&2; exit 2; }
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
  cubic) ;;
  *) echo "error: LEDBAT_IMPL must be geoblocks, libutp or cubic, was '$LEDBAT_IMPL'" >&2; exit 2 ;;
esac
command -v python3 >/dev/null || { echo "error: needs python3" >&2; exit 2; }
if ! command -v ping >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iputils-ping >/dev/null
fi
FLOWTOOL=$(realpath scripts/reallink/flowtool.py)
mkdir -p "$OUT/log"
rm -f "$OUT"/log/stream-*.csv "$OUT/log/start_epoch_ms" "$OUT"/*.csv "$OUT"/summary.* "$OUT/ping.txt" "$OUT/qdisc.txt"
OUT=$(realpath "$OUT")

SUFFIX=$$
S=lb-snd-$SUFFIX; R=lb-rtr-$SUFFIX; C=lb-rcv-$SUFFIX
PIDS=()
# the processes this script started: its children, and everything inside its own namespaces
our_pids() { echo "${PIDS[@]:-}"; for ns in $S $R $C; do ip netns pids "$ns" 2>/dev/null || true; done; }
cleanup() {
  for p in $(our_pids); do kill "$p" 2>/dev/null || true; done
  sleep 1
  for p in $(our_pids); do kill -9 "$p" 2>/dev/null || true; done
  for ns in $S $R $C; do ip netns del "$ns" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

# --- topology -------------------------------------------------------------------------------
for ns in $S $R $C; do ip netns add "$ns"; ip -n "$ns" link set lo up; done
ip link add ls$SUFFIX type veth peer name lrs$SUFFIX
ip link add lc$SUFFIX type veth peer name lrc$SUFFIX
ip link set ls$SUFFIX netns $S;  ip link set lrs$SUFFIX netns $R
ip link set lc$SUFFIX netns $C;  ip link set lrc$SUFFIX netns $R
ip -n $S addr add 10.77.1.1/24 dev ls$SUFFIX;    ip -n $S link set ls$SUFFIX up
ip -n $R addr add 10.77.1.254/24 dev lrs$SUFFIX; ip -n $R link set lrs$SUFFIX up
ip -n $R addr add 10.77.2.254/24 dev lrc$SUFFIX; ip -n $R link set lrc$SUFFIX up
ip -n $C addr add 10.77.2.1/24 dev lc$SUFFIX;    ip -n $C link set lc$SUFFIX up
ip -n $S route add default via 10.77.1.254
ip -n $C route add default via 10.77.2.254
ip netns exec $R sysctl -qw net.ipv4.ip_forward=1
# the bottleneck: the router's egress toward the receiver (not the sender's own interface)
ip netns exec $R tc qdisc add dev lrc$SUFFIX root tbf rate "$RATE" burst 32kbit latency 400ms
# WAN delay (and jitter, loss) in the router: packets from the sender are routed into TUN dly-a,
# from the receiver into dly-b; the delay line holds each for RTT/2 and writes it back into the same
# device, from where the main table forwards it (before the tbf bottleneck toward the receiver)
if [[ $RTT_MS != 0 || $JITTER_MS != 0 || $LOSS_PCT != 0 ]]; then
  HALF=$(python3 -c "print($RTT_MS / 2)")
  for d in dly-a dly-b; do ip -n $R tuntap add dev $d mode tun; ip -n $R link set $d up; done
  for k in all default dly-a dly-b lrs$SUFFIX lrc$SUFFIX; do ip netns exec $R sysctl -qw net.ipv4.conf.$k.rp_filter=0; done
  ip -n $R route add default dev dly-a table 101
  ip -n $R route add default dev dly-b table 102
  ip -n $R rule add iif lrs$SUFFIX lookup 101 pref 1001
  ip -n $R rule add iif lrc$SUFFIX lookup 102 pref 1002
  $DELAYLINE_SCHED ip netns exec $R python3 scripts/delayline/delayline.py --tun dly-a:$HALF --tun dly-b:$HALF \
      --jitter-ms "$JITTER_MS" --loss-pct "$LOSS_PCT" > "$OUT/delayline.out" 2>&1 &
  PIDS+=($!)
  sleep 0.5
fi
# large UDP buffers (the application asks for 4 MiB; the kernel caps at rmem_max/wmem_max)
for k in net.core.rmem_max net.core.wmem_max; do sysctl -qw "$k=4194304" 2>/dev/null || true; done
for ns in $S $C; do ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic 2>/dev/null || true; done
BASE_PING=$(ip netns exec $S ping -c 5 -i 0.2 -q 10.77.2.1 | awk -F/ '/rtt/ {print $5}')
echo "topology up: sender 10.77.1.1 -> router (tbf $RATE, delay line RTT ${RTT_MS} ms, jitter ${JITTER_MS} ms, loss ${LOSS_PCT} %) -> receiver 10.77.2.1, idle ping $BASE_PING ms"
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
esac
sleep 2
# queuing delay probe for the whole run, and the bottleneck's byte counter every second
nice -n "$NICE" ip netns exec $S ping -D -i 0.1 10.77.2.1 > "$OUT/ping.txt" 2>&1 &
PING_PID=$!
PIDS+=($PING_PID)
( while :; do echo "$(now_ms) $(ip netns exec $R tc -s qdisc show dev lrc$SUFFIX | grep -o 'Sent [0-9]* bytes [0-9]* pkt' | head -1)"; sleep 1; done ) > "$OUT/qdisc.txt" 2>/dev/null &
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
cleanup   # stops the meters (they write their CSVs on SIGTERM) and removes the namespaces
trap - EXIT INT TERM

# --- analysis -------------------------------------------------------------------------------
cat > "$OUT/meta.json" <<JSON
{"impl": "$LEDBAT_IMPL", "rtt_ms": $RTT_MS, "jitter_ms": $JITTER_MS, "loss_pct": $LOSS_PCT, "rate": "$RATE",
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
