#!/usr/bin/env bash
# Runs the same S3 compatibility suite as scripts/s3-compat.sh (Ceph's s3-tests, the same plugin, options and
# summary) against a fresh 4-node Garage on loopback, for a side-by-side count. Garage itself is never part of
# this repository: build it in /tmp as ../shared/anchors/garage/README.md says; this starts it with that
# anchor's up.sh (region us-east-1, replication factor 2) and makes three keys (main, alt, tenant) allowed to
# create buckets.
#
# Usage: scripts/s3-compat-garage.sh [-- extra pytest arguments]
# Environment: GARAGE (the binary, default /tmp/garage/bin/garage), DIR (Garage's data, default /tmp/garage-run;
# emptied first), WORKERS (6), TIMEOUT (20 s per test), S3COMPAT_OUT (a copy of the results), S3TESTS_PYTHON or
# the virtualenv scripts/s3-compat.sh makes.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE="$(cd "$ROOT/../shared/s3-tests" && pwd)" || { echo "error: no s3-tests copy at ../shared/s3-tests" >&2; exit 1; }
ANCHOR="$ROOT/../shared/anchors/garage"
export GARAGE="${GARAGE:-/tmp/garage/bin/garage}"
export DIR="${DIR:-/tmp/garage-run}"
WORKERS="${WORKERS:-6}"
TIMEOUT="${TIMEOUT:-20}"
PY="${S3TESTS_PYTHON:-${S3TESTS_VENV:-$HOME/.cache/geoblocks/s3-tests-venv}/bin/python}"
[ -x "$GARAGE" ] || { echo "error: no Garage at $GARAGE; build it: cargo install garage --version 2.5.0 --root /tmp/garage" >&2; exit 1; }
[ -x "$PY" ] || { echo "error: no suite Python at $PY; run scripts/s3-compat.sh once (it makes the virtualenv)" >&2; exit 1; }
[ "${1:-}" = "--" ] && shift
stop() { for p in "$DIR"/n*/pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done; }
stop; sleep 1; rm -rf "$DIR"
trap stop EXIT
bash "$ANCHOR/up.sh" > /dev/null || { echo "error: Garage did not start (logs in $DIR/n*/log)" >&2; exit 1; }
WORK="$(mktemp -d /tmp/garage-s3c-XXXXXX)"
declare -A ID SECRET
for u in main alt tenant; do
  "$GARAGE" -c "$DIR/n0/garage.toml" key create "s3tests-$u" > "$WORK/key-$u.txt"
  ID[$u]=$(awk '/Key ID/ {print $3}' "$WORK/key-$u.txt"); SECRET[$u]=$(awk '/Secret key/ {print $3}' "$WORK/key-$u.txt")
  "$GARAGE" -c "$DIR/n0/garage.toml" key allow --create-bucket "${ID[$u]}" > /dev/null
done
conf() { # the s3tests.conf of scripts/s3-compat.sh, for Garage's port and region
  printf '[DEFAULT]\nhost = 127.0.0.1\nport = 39020\nis_secure = False\nssl_verify = False\nlc_debug_interval = 10\n'
  printf '[fixtures]\nbucket prefix = s3c-{random}-\niam name prefix = s3-tests-\niam path prefix = /s3-tests/\n'
  for u in main alt tenant; do
    printf '[s3 %s]\ndisplay_name = s3tests-%s\nuser_id = %s\nemail = %s@example.com\naccess_key = %s\nsecret_key = %s\n' \
      "$u" "$u" "${ID[$u]}" "$u" "${ID[$u]}" "${SECRET[$u]}"
    [ "$u" = main ] && printf 'api_name = us-east-1\n'
    [ "$u" = tenant ] && printf 'tenant = testx\n'
  done
  printf '[iam]\nemail = s3@example.com\nuser_id = %s\naccess_key = %s\nsecret_key = %s\ndisplay_name = s3tests-main\n' \
    "${ID[main]}" "${ID[main]}" "${SECRET[main]}"
  printf '[iam root]\naccess_key = %s\nsecret_key = %s\nuser_id = RGW11111111111111111\nemail = account1@ceph.com\n' \
    "${ID[main]}" "${SECRET[main]}"
  printf '[iam alt root]\naccess_key = %s\nsecret_key = %s\nuser_id = RGW22222222222222222\nemail = account2@ceph.com\n' \
    "${ID[alt]}" "${SECRET[alt]}"
}
conf > "$WORK/s3tests.conf"
RESULTS="$WORK/results.jsonl"; : > "$RESULTS"
echo "running the suite against Garage (work $WORK): $WORKERS workers, $TIMEOUT s per test"
(cd "$SUITE" && AWS_DEFAULT_REGION=us-east-1 S3TEST_CONF="$WORK/s3tests.conf" S3COMPAT_RESULTS="$RESULTS" \
  PYTHONPATH="$ROOT/scripts/s3" "$PY" -m pytest s3tests/functional/test_s3.py s3tests/functional/test_headers.py \
  -p s3compat_plugin -p no:cacheprovider -n "$WORKERS" --timeout-method=thread --max-worker-restart=10000 \
  --timeout "$TIMEOUT" -q -rN "$@" > "$WORK/pytest.log" 2>&1)
echo "garage: pytest's summary: $(grep -E '(passed|failed).* in [0-9.]+s' "$WORK/pytest.log" | tail -1)"
"$PY" "$ROOT/scripts/s3/s3compat_summary.py" "$RESULTS" > "$WORK/summary.txt"
head -3 "$WORK/summary.txt"
echo "failures by group: $WORK/summary.txt"
cp "$RESULTS" "${S3COMPAT_OUT:-/dev/null}" 2>/dev/null || true
