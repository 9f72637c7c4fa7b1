#!/usr/bin/env bash
# Installs what the power-cut test (scripts/power-loss.sh, PowerLossIT) needs: LazyFS, a FUSE file system
# that keeps written data in its own cache until the application syncs it, and drops every unsynced byte
# when `lazyfs::clear-cache` is written to its fifo (a power cut).
#   1. Debian's packages cmake g++ libfuse3-dev fuse3 libtoml11-dev libspdlog-dev (apt-get; root, or sudo
#      without a password), when a tool or header is missing;
#   2. LazyFS, built offline from LAZYFS_SRC (default ../shared/lazyfs/src, next to this repository) with
#      that directory's build-offline.sh into LAZYFS_DIR (default /tmp/geoblocks-lazyfs), never inside the
#      repository. The binary finds its libpcache.so by an absolute path into the build tree, so it is built
#      where it runs. Before the build, scripts/lib/lazyfs-statfs.patch is applied to a copy of the source:
#      upstream LazyFS has no statfs, so its mounts report 0 bytes free and a node refuses every block
#      ("disk full"); the patch answers statfs with the backing directory's file system.
# Idempotent: does nothing when LAZYFS_DIR already holds a patched binary whose libraries resolve. Prints
# the binary's path as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
LAZYFS_SRC=${LAZYFS_SRC:-../shared/lazyfs/src}
LAZYFS_DIR=${LAZYFS_DIR:-/tmp/geoblocks-lazyfs}
BIN=$LAZYFS_DIR/lazyfs/build/lazyfs

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif sudo -n true 2>/dev/null; then sudo "$@"; else
    echo "install-lazyfs: need root (or sudo) for: $*" >&2; return 1; fi
}
have_packages() {
  command -v cmake >/dev/null && command -v g++ >/dev/null && command -v fusermount3 >/dev/null \
    && [[ -f /usr/include/fuse3/fuse.h ]] && [[ -d /usr/include/toml11 || -f /usr/include/toml.hpp ]] \
    && [[ -f /usr/include/spdlog/spdlog.h ]]
}
PATCH=$PWD/scripts/lib/lazyfs-statfs.patch
MARK=$LAZYFS_DIR/.geoblocks-statfs-patched
built() { [[ -x $BIN && -f $MARK ]] && ! ldd "$BIN" 2>/dev/null | grep -q "not found"; }

if ! have_packages; then
  APT_OPTS=(-o DPkg::Lock::Timeout=300 -o Acquire::Retries=3)
  as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q \
    cmake g++ libfuse3-dev fuse3 libtoml11-dev libspdlog-dev
fi
if ! built; then
  [[ -d $LAZYFS_SRC ]] || { echo "install-lazyfs: no LazyFS source at $LAZYFS_SRC (set LAZYFS_SRC)" >&2; exit 2; }
  BUILDER=${LAZYFS_BUILDER:-$(dirname "$LAZYFS_SRC")/build-offline.sh}
  [[ -x $BUILDER || -f $BUILDER ]] || { echo "install-lazyfs: no build-offline.sh at $BUILDER (set LAZYFS_BUILDER)" >&2; exit 2; }
  rm -rf "$LAZYFS_DIR"   # an unpatched or half-made build: build-offline.sh wants an empty directory
  STAGE=$(mktemp -d /tmp/geoblocks-lazyfs-src.XXXXXX)
  trap 'rm -rf "$STAGE"' EXIT
  cp -a "$LAZYFS_SRC"/. "$STAGE"/
  patch -d "$STAGE" -p1 --forward --quiet <"$PATCH" || { echo "install-lazyfs: $PATCH does not apply to $LAZYFS_SRC" >&2; exit 1; }
  LOG=${LAZYFS_DIR%/}.build.log
  bash "$BUILDER" "$STAGE" "$LAZYFS_DIR" >"$LOG" 2>&1 \
    || { tail -30 "$LOG" >&2; echo "install-lazyfs: the build failed; log: $LOG" >&2; exit 1; }
  touch "$MARK"
  built || { ldd "$BIN" >&2 || true; echo "install-lazyfs: $BIN was not built or its libraries do not resolve" >&2; exit 1; }
fi
echo "$BIN"
