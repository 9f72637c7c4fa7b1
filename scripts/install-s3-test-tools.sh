#!/usr/bin/env bash
# Installs what S3GatewayIT needs: a Python virtualenv with boto3 and the aws CLI (awscli) from PyPI.
# Idempotent: reuses the virtualenv when both import. Prints the virtualenv's directory on the last line.
# The location is $GEOBLOCKS_S3_VENV, else ~/.cache/geoblocks/s3-venv.
set -euo pipefail
VENV="${GEOBLOCKS_S3_VENV:-$HOME/.cache/geoblocks/s3-venv}"
if ! "$VENV/bin/python" -c 'import boto3, awscli' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check boto3 awscli
fi
"$VENV/bin/python" -c 'import boto3, botocore, awscli; print("boto3", boto3.__version__, "botocore", botocore.__version__, "awscli", awscli.__version__)'
echo "$VENV"
