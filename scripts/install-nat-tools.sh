#!/usr/bin/env bash
# Installs what NatRealLinkIT (scripts/nat-node-real-link.sh) needs and the machine may lack: nft, from
# Debian's package nftables (apt-get; root, or sudo without a password). Idempotent: does nothing when
# nft is there.
set -euo pipefail
command -v nft >/dev/null && exit 0
as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif sudo -n true 2>/dev/null; then sudo "$@"; else
    echo "install-nat-tools: need root (or sudo) for: $*" >&2; return 1; fi
}
APT_OPTS=(-o DPkg::Lock::Timeout=300 -o Acquire::Retries=3)
as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" update -q
as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q nftables
command -v nft
