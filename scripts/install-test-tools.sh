#!/usr/bin/env bash
# Installs what DashboardIT needs and the machine may lack: Debian's headless Chromium and its
# ChromeDriver (packages chromium, chromium-driver) and Python's prometheus_client (its text parser
# checks /metrics, see scripts/check-metrics.py). Idempotent: does nothing when they are there.
#
# prometheus_client, in order, stopping at the first that works (a stock Debian 12 refuses plain
# `pip install` under PEP 668 and may have no pip at all):
#   1. already importable by $PYTHON (default python3);
#   2. `pip install --user` of scripts/requirements/metrics.txt (version and hash locked) when pip is there and the interpreter allows it;
#   3. a virtual environment at ${XDG_CACHE_HOME:-~/.cache}/geoblocks/metrics-venv, whose site-packages
#      scripts/check-metrics.py adds to its path when the plain import fails;
#   4. Debian's package python3-prometheus-client (apt-get; root, or sudo without a password).
# Chromium needs root (or sudo) for apt-get too.
set -euo pipefail
PYTHON=${PYTHON:-python3}
VENV=${XDG_CACHE_HOME:-$HOME/.cache}/geoblocks/metrics-venv
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# prometheus_client at the version and hash this lock names (pip's steps below)
LOCK="$HERE/requirements/metrics.txt"

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif sudo -n true 2>/dev/null; then sudo "$@"; else
    echo "install-test-tools: need root (or sudo) for: $*" >&2; return 1; fi
}

# waits up to 5 minutes for another apt/dpkg to release its lock, and retries a failed download 3 times
APT_OPTS=(-o DPkg::Lock::Timeout=300 -o Acquire::Retries=3)

apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q "$@"
}

# true when check-metrics.py can import the parser (plain import, or through the venv)
parser_ok() { echo | "$PYTHON" "$HERE/check-metrics.py" >/dev/null 2>&1; }

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  apt_install chromium chromium-driver
fi

if ! parser_ok; then
  if "$PYTHON" -m pip --version >/dev/null 2>&1; then
    echo "install-test-tools: installing $LOCK for this user with pip" >&2
    "$PYTHON" -m pip install --user --quiet --disable-pip-version-check --no-deps --require-hashes -r "$LOCK" >&2 || true
  fi
fi
if ! parser_ok; then
  echo "install-test-tools: trying a virtual environment at $VENV" >&2
  if [[ -x $VENV/bin/python ]] || "$PYTHON" -m venv "$VENV" >&2; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$LOCK" >&2 || true
  fi
fi
if ! parser_ok; then
  echo "install-test-tools: trying Debian's python3-prometheus-client" >&2
  apt_install python3-prometheus-client
fi
if ! parser_ok; then
  echo "install-test-tools: prometheus_client is still not importable by $PYTHON" >&2
  exit 1
fi

/usr/bin/chromium --version
echo | "$PYTHON" "$HERE/check-metrics.py" --version
