#!/usr/bin/env bash
# Builds the Temporal CLI (embedded dev server) from its Go module into .tools/bin.
# Skips when the binary is already there. Needs Go >= 1.25 (the module's go.mod asks for it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=v1.5.1
bin="$root/.tools/bin/temporal"
stamp="$root/.tools/bin/temporal.version"
# go install of a tagged module reports "0.0.0-DEV", so the built tag is kept in a stamp file.
if [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]] && "$bin" --version >/dev/null 2>&1; then
  echo "[temporal] CLI $version already built ($("$bin" --version))"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "[temporal] Go is not installed: the Temporal CLI is built from its Go module and needs Go 1.25 or newer" >&2
  exit 1
fi
gov=$(go env GOVERSION); gov=${gov#go}
gmaj=${gov%%.*}; gmin=${gov#*.}; gmin=${gmin%%.*}
if (( gmaj < 1 || (gmaj == 1 && gmin < 25) )); then
  echo "[temporal] Go $gov is too old: the Temporal CLI $version needs Go 1.25 or newer" >&2
  exit 1
fi
mkdir -p "$root/.tools/bin"
start=$(date +%s)
echo "[temporal] building github.com/temporalio/cli/cmd/temporal@$version (first build takes a few minutes)"
GOBIN="$root/.tools/bin" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$version"
echo "$version" > "$stamp"
echo "[temporal] built $("$bin" --version) in $(( $(date +%s) - start ))s"
