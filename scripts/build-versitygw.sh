#!/usr/bin/env bash
# Builds versitygw (an S3-compatible gateway; the object store the delivery tests write to) from
# its Go module into .tools/bin. Skips when the binary is already there. Needs Go >= 1.25 (the
# module's go.mod asks for it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=v1.8.0
module=github.com/versity/versitygw/cmd/versitygw
bin="$root/.tools/bin/versitygw"
stamp="$root/.tools/bin/versitygw.version"
# go install of a tagged module does not stamp its version, so the built tag is kept in a stamp file.
if [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]] && "$bin" --version >/dev/null 2>&1; then
  echo "[versitygw] $version already built"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "[versitygw] Go is not installed: versitygw is built from its Go module and needs Go 1.25 or newer" >&2
  exit 1
fi
gov=$(go env GOVERSION); gov=${gov#go}
gmaj=${gov%%.*}; gmin=${gov#*.}; gmin=${gmin%%.*}
if (( gmaj < 1 || (gmaj == 1 && gmin < 25) )); then
  echo "[versitygw] Go $gov is too old: versitygw $version needs Go 1.25 or newer" >&2
  exit 1
fi
mkdir -p "$root/.tools/bin"
start=$(date +%s)
echo "[versitygw] building $module@$version (first build takes a few minutes)"
GOBIN="$root/.tools/bin" GOFLAGS=-mod=mod go install "$module@$version"
echo "$version" > "$stamp"
echo "[versitygw] built $version in $(( $(date +%s) - start ))s"
