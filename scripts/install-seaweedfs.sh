#!/usr/bin/env bash
# Installs SeaweedFS's `weed` (Apache-2.0), the real S3 server the S3-backed block storage is tested
# against (s3storage's S3BlockStorageTest, `bench storage --target s3`). Built from the Go module
# proxy at a pinned commit: SeaweedFS's release tags (e.g. 4.01) are not semantic versions, so the
# proxy serves its commits as pseudo-versions; this one reports itself as version 4.53.
# `go install …/weed@VERSION` refuses the module (its go.mod has replace directives), so the module
# is downloaded and built in place. Needs Go (1.25+). Takes long: about 25 minutes of a busy 2-core
# machine, once per machine; the binary is kept at $GEOBLOCKS_WEED_DIR (default
# ~/.cache/geoblocks/weed-<version>) and reused. Prints the binary's path on the last line.
set -euo pipefail
VERSION=v0.0.0-20261109003541-7506e5f91cd6
DIR="${GEOBLOCKS_WEED_DIR:-$HOME/.cache/geoblocks/weed-$VERSION}"
BIN="$DIR/weed"
if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then
  echo "$BIN"
  exit 0
fi
command -v go >/dev/null || { echo "error: Go is needed to build SeaweedFS's weed (https://go.dev/dl)" >&2; exit 1; }
SRC=$(go mod download -json "github.com/seaweedfs/seaweedfs@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n "$SRC" && -d "$SRC/weed" ]] || { echo "error: could not download github.com/seaweedfs/seaweedfs@$VERSION" >&2; exit 1; }
mkdir -p "$DIR"
echo "install-seaweedfs: building weed $VERSION (takes many minutes, once)" >&2
(cd "$SRC/weed" && go build -o "$BIN.tmp" .) || { echo "error: building weed from $SRC failed" >&2; exit 1; }
mv "$BIN.tmp" "$BIN"
"$BIN" version >&2
echo "$BIN"
