# Sourced by the real-link scripts (bash, run as root): the 3-namespace bottleneck topology.
#
#   sender ns  --veth-- router ns (tbf RATE on its egress toward the receiver) --veth-- receiver ns
#   10.77.1.1           10.77.1.254 | 10.77.2.254                                        10.77.2.1
#
# topology_up PREFIX creates it with namespaces $S, $R, $C (PREFIX-snd/rtr/rcv-<pid>), a tbf
# bottleneck of RATE with a BUFFER_MS (400) ms buffer, and, when RTT_MS, JITTER_MS or LOSS_PCT is set, the
# userspace delay line (scripts/delayline: TUN devices + policy routing; this kernel has no netem)
# holding packets RTT_MS/2 each way. Sets PING (idle ping sender -> receiver) and registers a trap
# that kills every pid in PIDS and removes the namespaces on exit. Needs OUT (for delayline.out).
# MTU (1500): the MTU of the four veth ends (1420: WireGuard's; the path MTU LEDBAT searches).
# Sourcing it checks that the script runs as root and sets the link's defaults: RATE (20mbit), BUFFER_MS (400),
# RTT_MS, JITTER_MS and LOSS_PCT (0), JITTER_FIFO (0: jitter may reorder; 1: it never does), NICE (-5: the priority callers give the processes they start)
# and DELAYLINE_RT (1: the delay line runs under SCHED_FIFO priority 10 via chrt, since on a loaded
# machine a normal-priority delay line stalls for tens of ms -- measured: idle-link ping spikes of
# 30-150 ms at load average 10; 0 = at NICE like the rest). topology_up also sets BOTTLENECK_DEV
# (the tbf device in $R) and BASE_PING (the idle ping's mean RTT in ms, empty without ping).

if [[ $(id -u) -ne 0 ]]; then
  echo "error: run as root (needs ip netns and tc)" >&2
  exit 2
fi
RATE=${RATE:-20mbit}
MTU=${MTU:-1500}
BUFFER_MS=${BUFFER_MS:-400}   # tbf latency: the bottleneck's buffer in ms of RATE
RTT_MS=${RTT_MS:-0}
JITTER_MS=${JITTER_MS:-0}
LOSS_PCT=${LOSS_PCT:-0}
JITTER_FIFO=${JITTER_FIFO:-0}   # 1: jitter varies the delay but never reorders a direction's packets
if [[ $JITTER_FIFO == 1 ]]; then JITTER_FIFO_FLAG=--jitter-fifo; else JITTER_FIFO_FLAG=; fi
NICE=${NICE:--5}
DELAYLINE_RT=${DELAYLINE_RT:-1}
if [[ $DELAYLINE_RT == 1 ]] && command -v chrt >/dev/null; then
  DELAYLINE_SCHED="chrt -f 10"   # a router does not wait for other work; the kernel's RT throttling bounds it
else
  DELAYLINE_SCHED="nice -n $NICE"
fi
PIDS=()

# the processes the caller started: its children, and everything inside the topology's namespaces
topology_pids() {
  echo "${PIDS[@]:-}"
  for ns in ${S:-} ${R:-} ${C:-}; do ip netns pids "$ns" 2>/dev/null || true; done
}

topology_cleanup() {
  for p in $(topology_pids); do kill "$p" 2>/dev/null || true; done
  sleep 0.5
  for p in $(topology_pids); do kill -9 "$p" 2>/dev/null || true; done
  for ns in ${S:-} ${R:-} ${C:-}; do ip netns del "$ns" 2>/dev/null || true; done
}

topology_up() {
  local prefix=$1 suffix=$$
  S=$prefix-snd-$suffix; R=$prefix-rtr-$suffix; C=$prefix-rcv-$suffix
  BOTTLENECK_DEV=lrc$suffix
  trap topology_cleanup EXIT INT TERM
  for ns in $S $R $C; do ip netns add "$ns"; ip -n "$ns" link set lo up; done
  ip link add ls$suffix type veth peer name lrs$suffix
  ip link add lc$suffix type veth peer name lrc$suffix
  ip link set ls$suffix netns $S;  ip link set lrs$suffix netns $R
  ip link set lc$suffix netns $C;  ip link set lrc$suffix netns $R
  if [[ $MTU != 1500 ]]; then
    ip -n $S link set ls$suffix mtu "$MTU"; ip -n $R link set lrs$suffix mtu "$MTU"
    ip -n $C link set lc$suffix mtu "$MTU"; ip -n $R link set lrc$suffix mtu "$MTU"
  fi
  ip -n $S addr add 10.77.1.1/24 dev ls$suffix;    ip -n $S link set ls$suffix up
  ip -n $R addr add 10.77.1.254/24 dev lrs$suffix; ip -n $R link set lrs$suffix up
  ip -n $R addr add 10.77.2.254/24 dev lrc$suffix; ip -n $R link set lrc$suffix up
  ip -n $C addr add 10.77.2.1/24 dev lc$suffix;    ip -n $C link set lc$suffix up
  ip -n $S route add default via 10.77.1.254
  ip -n $C route add default via 10.77.2.254
  ip netns exec $R sysctl -qw net.ipv4.ip_forward=1
  # the bottleneck: the router's egress toward the receiver (not the sender's own interface)
  ip netns exec $R tc qdisc add dev lrc$suffix root tbf rate "$RATE" burst 32kbit latency "${BUFFER_MS}ms"
  # WAN delay (and jitter, loss) in the router: packets from the sender are routed into TUN dly-a,
  # from the receiver into dly-b; the delay line holds each for RTT/2 and writes it back into the same
  # device, from where the main table forwards it (before the tbf bottleneck toward the receiver)
  if [[ $RTT_MS != 0 || $JITTER_MS != 0 || $LOSS_PCT != 0 ]]; then
    command -v python3 >/dev/null || { echo "error: the delay line needs python3" >&2; exit 2; }
    local half
    half=$(python3 -c "print($RTT_MS / 2)")
    for d in dly-a dly-b; do ip -n $R tuntap add dev $d mode tun; ip -n $R link set $d up; done
    for k in all default dly-a dly-b lrs$suffix lrc$suffix; do ip netns exec $R sysctl -qw net.ipv4.conf.$k.rp_filter=0; done
    ip -n $R route add default dev dly-a table 101
    ip -n $R route add default dev dly-b table 102
    ip -n $R rule add iif lrs$suffix lookup 101 pref 1001
    ip -n $R rule add iif lrc$suffix lookup 102 pref 1002
    $DELAYLINE_SCHED ip netns exec $R python3 scripts/delayline/delayline.py --tun dly-a:$half --tun dly-b:$half \
        --jitter-ms "$JITTER_MS" --loss-pct "$LOSS_PCT" ${JITTER_FIFO_FLAG} > "$OUT/delayline.out" 2>&1 &
    PIDS+=($!)
    sleep 0.5
  fi
  # large UDP buffers (the application asks for 4 MiB; the kernel caps at rmem_max/wmem_max)
  for k in net.core.rmem_max net.core.wmem_max; do sysctl -qw "$k=4194304" 2>/dev/null || true; done
  for ns in $S $C; do ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic 2>/dev/null || true; done
  if command -v ping >/dev/null; then
    BASE_PING=$(ip netns exec $S ping -c 5 -i 0.2 -q 10.77.2.1 | awk -F/ '/rtt/ {print $5}')
    PING="idle ping $BASE_PING ms"
  else
    BASE_PING=""
    PING="(no ping installed)"
  fi
}
