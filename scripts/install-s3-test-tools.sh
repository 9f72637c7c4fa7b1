#!/usr/bin/env bash
# Installs what S3GatewayIT needs: a Python virtualenv with boto3 and the aws CLI (awscli) from PyPI,
# every package at the version and hash that scripts/requirements/s3-tools.txt locks (the transitive
# ones too: botocore and urllib3 floating had given a new machine other versions than the last run's).
# Idempotent: reuses the virtualenv when it was made from this very lock file (its SHA-256 is kept in
# the virtualenv), else installs the lock into it. Prints the virtualenv's directory on the last line.
# The location is $GEOBLOCKS_S3_VENV, else ~/.cache/geoblocks/s3-venv.
# To move a version: edit scripts/requirements/s3-tools.in, then
#   pip-compile --generate-hashes --strip-extras --allow-unsafe --no-header s3-tools.in -o s3-tools.txt
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOCK="$HERE/requirements/s3-tools.txt"
VENV="${GEOBLOCKS_S3_VENV:-$HOME/.cache/geoblocks/s3-venv}"
WANT=$(sha256sum "$LOCK" | cut -d' ' -f1)
if [[ "$(cat "$VENV/.geoblocks-lock" 2>/dev/null)" != "$WANT" ]] || ! "$VENV/bin/python" -c 'import boto3, awscli' 2>/dev/null; then
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$LOCK" \
    || { echo "error: could not install $LOCK from PyPI into $VENV" >&2; exit 1; }
  echo "$WANT" > "$VENV/.geoblocks-lock"
fi
"$VENV/bin/python" -c 'import boto3, botocore, urllib3, awscli; print("boto3", boto3.__version__, "botocore", botocore.__version__, "urllib3", urllib3.__version__, "awscli", awscli.__version__)'
echo "$VENV"
