#!/usr/bin/env bash
# Checks create-if-absent histories for linearizability with Porcupine
# (github.com/anishathalye/porcupine, fetched from the Go module proxy into a cache outside the
# repository; nothing third-party is committed).
#
#   scripts/porcupine/check.sh HISTORIES.jsonl
#
# HISTORIES.jsonl comes from `java -jar application/target/node.jar simulate consistency --seeds N
# --out DIR` (DIR/histories.jsonl). Needs Go 1.21 or newer. Exit 0: every history linearizable.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
in="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
export GOMODCACHE="${GOMODCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/geoblocks-porcupine/mod}"
export GOFLAGS="${GOFLAGS:--modcacherw}"
cd "$here"
go mod download
exec go run . "$in"
