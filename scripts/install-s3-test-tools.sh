#!/usr/bin/env bash
# Installs what S3GatewayIT needs: a Python virtualenv with boto3 and the aws CLI (awscli) from PyPI,
# at pinned versions.
# Idempotent: reuses the virtualenv when both import. Prints the virtualenv's directory on the last line.
# The location is $GEOBLOCKS_S3_VENV, else ~/.cache/geoblocks/s3-venv.
set -euo pipefail
VENV="${GEOBLOCKS_S3_VENV:-$HOME/.cache/geoblocks/s3-venv}"
# pinned: the versions S3GatewayIT was last run with (awscli 1.46.3 requires botocore 1.44.5, as boto3 1.44.5 does)
BOTO3_VERSION=1.44.5
AWSCLI_VERSION=1.46.3
if ! "$VENV/bin/python" -c 'import boto3, awscli' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "boto3==$BOTO3_VERSION" "awscli==$AWSCLI_VERSION" \
    || { echo "error: could not install boto3 $BOTO3_VERSION and awscli $AWSCLI_VERSION from PyPI into $VENV" >&2; exit 1; }
fi
"$VENV/bin/python" -c 'import boto3, botocore, awscli; print("boto3", boto3.__version__, "botocore", botocore.__version__, "awscli", awscli.__version__)'
echo "$VENV"
