# Sourced by the namespace scripts (mtu-real-link.sh, mtu-node-real-link.sh, nat-node-real-link.sh):
#   netns_require TOOL...    exits 2 with why unless run as root with ip and each TOOL
#   netns_jar                 checks JAR (default application/target/node.jar) and makes it absolute
#   netns_up NS...            makes the namespaces (loopback up) and, on exit, kills every process in them and in
#                             PIDS, then removes them
netns_require() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "error: run as root (needs ip netns)" >&2
    exit 2
  fi
  local t
  for t in ip "$@"; do
    command -v "$t" >/dev/null || { echo "error: needs $t" >&2; exit 2; }
  done
}

netns_jar() {
  JAR=${JAR:-application/target/node.jar}
  [[ -f $JAR ]] || { echo "error: $JAR not found; build it: mvn -B -q install -DskipTests" >&2; exit 2; }
  JAR=$(realpath "$JAR")
}

PIDS=()
NETNS_LIST=()
netns_cleanup() {
  local p ns
  for p in "${PIDS[@]:-}"; do [[ -n $p ]] && kill "$p" 2>/dev/null || true; done
  for ns in "${NETNS_LIST[@]:-}"; do for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null || true; done; done
  sleep 0.3
  for ns in "${NETNS_LIST[@]:-}"; do for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done; done
  for ns in "${NETNS_LIST[@]:-}"; do [[ -n $ns ]] && ip netns del "$ns" 2>/dev/null || true; done
}

netns_up() {
  NETNS_LIST=("$@")
  trap netns_cleanup EXIT INT TERM
  local ns
  for ns in "$@"; do ip netns add "$ns"; ip -n "$ns" link set lo up; done
}
