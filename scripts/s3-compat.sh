#!/usr/bin/env bash
# Runs Ceph's S3 compatibility suite (ceph/s3-tests, test_s3.py and test_headers.py) against a local
# 4-node geoblocks cluster (loopback, no emulated WAN), with three real access keys as the suite's
# main, alt and tenant users, and prints passed / failed / skipped and the failures grouped by feature.
#
# Usage: scripts/s3-compat.sh [options] [-- extra pytest arguments, e.g. -k acl]
#   --jar PATH        node.jar to run (default application/target/node.jar; build it first with
#                     mvn -pl application -am package -DskipTests)
#   --suite DIR       the s3-tests copy (default ../shared/s3-tests; never copied into this repository)
#   --workers N       pytest-xdist workers (default 6; 0: one process, steadier on a loaded machine)
#   --timeout S       seconds per test (default 20)
#   --port-base P     node ports P+1..P+4, HTTP ports P+11..P+14 (default 47700)
#   --demo-key        use the config's demo key as every user (for a node.jar without `client key`)
#   --keep            keep the work directory (cluster config and data, node logs, suite output)
#   --lifecycle-day S the nodes' lifecycle day in seconds (default 10: the suite's lc_debug_interval, as Ceph's
#                     rgw_lc_debug_interval; geoblocks.s3.lifecycle.day), rules applied every second
# Outputs: $S3COMPAT_OUT (a file): a copy of the results (one JSON line per test); $S3COMPAT_REASONS_MD (a
# file): the failing tests under their reasons (scripts/s3/s3compat_reasons.tsv) as Markdown, for docs/s3.md.
# Python: $S3TESTS_PYTHON, else a virtualenv at ${S3TESTS_VENV:-~/.cache/geoblocks/s3-tests-venv} made
# from PyPI with the suite's dependencies (GEOBLOCKS-README.md) when missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="$ROOT/application/target/node.jar"
SUITE="$ROOT/../shared/s3-tests"
WORKERS=6
TIMEOUT=20
BASE=47700
DEMO=0
KEEP=0
LCDAY=10
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) JAR="$2"; shift 2 ;;
    --suite) SUITE="$2"; shift 2 ;;
    --workers) WORKERS="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --port-base) BASE="$2"; shift 2 ;;
    --demo-key) DEMO=1; shift ;;
    --keep) KEEP=1; shift ;;
    --lifecycle-day) LCDAY="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done
[ -f "$JAR" ] || { echo "error: $JAR not found; build it: mvn -pl application -am package -DskipTests" >&2; exit 1; }
SUITE="$(cd "$SUITE" && pwd)" || { echo "error: no s3-tests copy at $SUITE" >&2; exit 1; }

if [ -n "${S3TESTS_PYTHON:-}" ]; then
  PY="$S3TESTS_PYTHON"
else
  VENV="${S3TESTS_VENV:-$HOME/.cache/geoblocks/s3-tests-venv}"
  if ! "$VENV/bin/python" -c 'import boto3, pytest, xdist, pytest_timeout, munch, gevent, isodate, lxml, httplib2, pytz, yaml' 2>/dev/null; then
    python3 -m venv "$VENV"
    # every package (the transitive ones too) at the version and hash the lock names
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
      -r "$(dirname "$0")/requirements/s3-tests.txt"
  fi
  PY="$VENV/bin/python"
fi

WORK="$(mktemp -d /tmp/geoblocks-s3compat-XXXXXX)"
REGIONS=(seoul dublin saopaulo mumbai)
# SSE-S3's cluster key, outside the data directories; the suite sends SSE-C keys over plain HTTP, as Ceph's
# test setup allows (rgw_crypt_require_ssl = false), so require-https is off for this cluster only
echo "s3c $(head -c 32 /dev/urandom | base64)" > "$WORK/sse.keys"
cat > "$WORK/cluster.conf" <<EOF
geoblocks.cluster {
  regions = [
    { id = seoul,    address = "127.0.0.1:$((BASE + 1))", http-port = $((BASE + 11)) }
    { id = dublin,   address = "127.0.0.1:$((BASE + 2))", http-port = $((BASE + 12)) }
    { id = saopaulo, address = "127.0.0.1:$((BASE + 3))", http-port = $((BASE + 13)) }
    { id = mumbai,   address = "127.0.0.1:$((BASE + 4))", http-port = $((BASE + 14)) }
  ]
  emulate-wan = false
}
geoblocks.s3.lifecycle { day = $LCDAY s, interval = 1 s }
geoblocks.s3.sse { key-file = "$WORK/sse.keys", require-https = false }
# the admin API's root token, which client key create sends
geoblocks.admin.token = "s3compat-$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
EOF
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$KEEP" = 1 ]; then echo "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
for r in "${REGIONS[@]}"; do
  java -Xmx512m -jar "$JAR" server --id "$r" --config "$WORK/cluster.conf" --data "$WORK/data/$r" > "$WORK/$r.log" 2>&1 &
  PIDS+=($!)
done
echo "starting 4 nodes (work directory $WORK); waiting until every one is ready"
for i in $(seq 1 180); do
  ready=0
  for n in 11 12 13 14; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((BASE + n))/readyz" || true)" = 200 ] && ready=$((ready + 1))
  done
  [ "$ready" = 4 ] && break
  [ "$i" = 180 ] && { echo "error: the nodes did not get ready; logs in $WORK" >&2; KEEP=1; exit 1; }
  sleep 1
done

CLIENT=(java -jar "$JAR" client --config "$WORK/cluster.conf" --at seoul)
declare -A ID SECRET
for u in main alt tenant; do
  if [ "$DEMO" = 1 ]; then
    ID[$u]=geoblocks-demo; SECRET[$u]=geoblocks-local-demo-secret
  else
    line="$("${CLIENT[@]}" key create "s3tests-$u" --json | tail -1)"
    ID[$u]="$(printf '%s' "$line" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
    SECRET[$u]="$(printf '%s' "$line" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["secret"])')"
  fi
done
echo "users: main ${ID[main]}, alt ${ID[alt]}, tenant ${ID[tenant]}"
# a key's owner id (ACLs, ListBuckets) is its key id; its display name is its name
name() { [ "$DEMO" = 1 ] && echo geoblocks-demo || echo "s3tests-$1"; }
cat > "$WORK/s3tests.conf" <<EOF
[DEFAULT]
host = 127.0.0.1
port = $((BASE + 11))
is_secure = False
ssl_verify = False
lc_debug_interval = $LCDAY
[fixtures]
bucket prefix = s3c-{random}-
iam name prefix = s3-tests-
iam path prefix = /s3-tests/
[s3 main]
display_name = $(name main)
user_id = ${ID[main]}
email = main@example.com
# the LocationConstraint test_bucket_get_location creates with (RGW's zonegroup; here a region)
api_name = seoul
access_key = ${ID[main]}
secret_key = ${SECRET[main]}
[s3 alt]
display_name = $(name alt)
user_id = ${ID[alt]}
email = alt@example.com
access_key = ${ID[alt]}
secret_key = ${SECRET[alt]}
[s3 tenant]
display_name = $(name tenant)
user_id = ${ID[tenant]}
email = tenant@example.com
access_key = ${ID[tenant]}
secret_key = ${SECRET[tenant]}
tenant = testx
[iam]
email = s3@example.com
user_id = ${ID[main]}
access_key = ${ID[main]}
secret_key = ${SECRET[main]}
display_name = $(name main)
[iam root]
access_key = ${ID[main]}
secret_key = ${SECRET[main]}
user_id = RGW11111111111111111
email = account1@ceph.com
[iam alt root]
access_key = ${ID[alt]}
secret_key = ${SECRET[alt]}
user_id = RGW22222222222222222
email = account2@ceph.com
EOF

echo "running the suite from $SUITE: $WORKERS workers, $TIMEOUT s per test"
# with workers, a test past its timeout ends its worker (pytest-xdist starts another; a signal in gevent-using
# tests tripped an xdist internal error that ended the run); --workers 0 runs in one process (signal timeouts)
if [ "$WORKERS" = 0 ]; then
  PARALLEL=(-p no:xdist --timeout-method=signal)
else
  PARALLEL=(-n "$WORKERS" --timeout-method=thread --max-worker-restart=10000)
fi
RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
set +e
(cd "$SUITE" && S3TEST_CONF="$WORK/s3tests.conf" S3COMPAT_RESULTS="$RESULTS" PYTHONPATH="$ROOT/scripts/s3${PYTHONPATH:+:$PYTHONPATH}" \
  "$PY" -m pytest s3tests/functional/test_s3.py s3tests/functional/test_headers.py -p s3compat_plugin -p no:cacheprovider \
  "${PARALLEL[@]}" --timeout "$TIMEOUT" -q -rN "$@" > "$WORK/pytest.log" 2>&1)
code=$?
set -e
echo "pytest exit code $code; its summary: $(grep -E '(passed|failed).* in [0-9.]+s' "$WORK/pytest.log" | tail -1)"
"$PY" "$ROOT/scripts/s3/s3compat_summary.py" "$RESULTS" ${S3COMPAT_VERBOSE:+-v}
cp "$RESULTS" "${S3COMPAT_OUT:-/dev/null}" 2>/dev/null || true
if [ -n "${S3COMPAT_REASONS_MD:-}" ]; then
  "$PY" "$ROOT/scripts/s3/s3compat_summary.py" "$RESULTS" --reasons "$ROOT/scripts/s3/s3compat_reasons.tsv" \
    --markdown --log "$WORK/pytest.log" > "$S3COMPAT_REASONS_MD"
  echo "failing tests by reason: $S3COMPAT_REASONS_MD ($(grep -c '^#### ' "$S3COMPAT_REASONS_MD") groups;" \
    "$(grep -o '^#### Unclassified ([0-9]*)' "$S3COMPAT_REASONS_MD" || echo 'none unclassified'))"
fi
