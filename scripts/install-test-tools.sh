#!/usr/bin/env bash
# Installs what DashboardIT needs and the machine may lack: Debian's headless Chromium and its
# ChromeDriver (packages chromium, chromium-driver) and Python's prometheus_client (its text parser
# checks /metrics). Idempotent: does nothing when they are there. Needs root for apt-get.
set -euo pipefail
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q chromium chromium-driver
fi
if ! python3 -c 'import prometheus_client' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check prometheus_client
fi
/usr/bin/chromium --version
python3 -c 'import prometheus_client, importlib.metadata as m; print("prometheus_client", m.version("prometheus_client"))'
