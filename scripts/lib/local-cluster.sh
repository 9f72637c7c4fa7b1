# Helpers for scripts that run a cluster of node.jar processes on loopback (source it after
# `declare -A PORT HTTP PID` and setting REGIONS and LOAD_PID=).

# Picks a free node port and HTTP port on 127.0.0.1 for each region of REGIONS: PORT[r], HTTP[r].
pick_ports() {
  local free i=0 r
  read -r -a free <<<"$(python3 -c "
import socket
ss=[socket.socket() for _ in range(2 * ${#REGIONS[@]})]
for s in ss: s.bind(('127.0.0.1',0))
print(' '.join(str(s.getsockname()[1]) for s in ss))")"
  for r in "${REGIONS[@]}"; do PORT[$r]=${free[$i]}; HTTP[$r]=${free[$((i+1))]}; i=$((i+2)); done
}

# Prints the cluster config lines naming the regions given, at their PORT and HTTP.
regions_conf() {
  local r
  echo "geoblocks.cluster.regions = ["
  for r in "$@"; do echo "  { id = $r, address = \"127.0.0.1:${PORT[$r]}\", http-port = ${HTTP[$r]} }"; done
  echo "]"
}

# Stops the load client (LOAD_PID) and every node in PID; installed as the EXIT trap.
stop_all() {
  [ -n "${LOAD_PID:-}" ] && kill "$LOAD_PID" 2>/dev/null || true
  local r
  for r in "${!PID[@]}"; do kill "${PID[$r]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
}

log() { echo "[$(date -u +%H:%M:%S)] $*"; }
