#!/usr/bin/env bash
# Builds the Temporal server and its SQL schema tool from their Go module (go.temporal.io/server,
# the same server version as the CLI's embedded one) into .tools/bin: temporal-server and
# temporal-sql-tool, for the cluster on PostgreSQL (scripts/cluster.sh). Skips what is already
# built at this version. Needs Go >= 1.25.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=v1.29.1
module=go.temporal.io/server
bindir="$root/.tools/bin"
stamp="$bindir/temporal-server.version"
if [[ -x "$bindir/temporal-server" && -x "$bindir/temporal-sql-tool" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  echo "[temporal-server] $version already built"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "[temporal-server] Go is not installed: the Temporal server is built from its Go module and needs Go 1.25 or newer" >&2
  exit 1
fi
gov=$(go env GOVERSION); gov=${gov#go}
gmaj=${gov%%.*}; gmin=${gov#*.}; gmin=${gmin%%.*}
if (( gmaj < 1 || (gmaj == 1 && gmin < 25) )); then
  echo "[temporal-server] Go $gov is too old: the Temporal server $version needs Go 1.25 or newer" >&2
  exit 1
fi
mkdir -p "$bindir"
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "[temporal-server] building $module/cmd/server and cmd/tools/sql@$version (first build takes a few minutes)"
GOBIN="$tmp" GOFLAGS=-mod=mod go install "$module/cmd/server@$version" "$module/cmd/tools/sql@$version"
mv "$tmp/server" "$bindir/temporal-server"
mv "$tmp/sql" "$bindir/temporal-sql-tool"
echo "$version" > "$stamp"
echo "[temporal-server] built $version in $(( $(date +%s) - start ))s"
