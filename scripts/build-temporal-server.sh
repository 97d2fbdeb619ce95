#!/usr/bin/env bash
# Builds the Temporal server and its SQL schema tool from their Go module (go.temporal.io/server)
# into .tools/bin: temporal-server and temporal-sql-tool, for the cluster on PostgreSQL
# (scripts/cluster.sh). Copies the module's PostgreSQL schema (schema/postgresql/v12: temporal and
# visibility, versioned) to .tools/temporal-schema/postgresql/v12, so that the cluster script does
# not depend on Go's module cache. Skips what is already there at this version. Needs Go >= 1.25.
# The version is the server the Temporal CLI embeds (scripts/build-temporal.sh; `temporal
# --version` says "Server 1.29.1"): scripts/temporal-version.sh keeps the two as a pair, so that
# the cluster runs the server the dev server of the demo and the tests runs. It stays a Go build:
# only the test and cluster set-up (scripts/setup.sh without --demo) needs it, where its build
# time does not hold up the first demo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/temporal-version.sh
source "$root/scripts/temporal-version.sh"
version="v$TEMPORAL_SERVER_VERSION"
module=go.temporal.io/server
bindir="$root/.tools/bin"
stamp="$bindir/temporal-server.version"
schemadir="$root/.tools/temporal-schema"
schemastamp="$schemadir/version"
built=false
schema=false
if [[ -x "$bindir/temporal-server" && -x "$bindir/temporal-sql-tool" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  built=true
fi
if [[ -d "$schemadir/postgresql/v12/temporal/versioned" && -d "$schemadir/postgresql/v12/visibility/versioned" &&
  -f "$schemastamp" && "$(cat "$schemastamp")" == "$version" ]]; then
  schema=true
fi
if $built && $schema; then
  echo "[temporal-server] $version already built (schema in .tools/temporal-schema)"
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
if ! $built; then
  echo "[temporal-server] building $module/cmd/server and cmd/tools/sql@$version (first build takes a few minutes)"
  GOBIN="$tmp" GOFLAGS=-mod=mod go install "$module/cmd/server@$version" "$module/cmd/tools/sql@$version"
  mv "$tmp/server" "$bindir/temporal-server"
  mv "$tmp/sql" "$bindir/temporal-sql-tool"
  echo "$version" > "$stamp"
  echo "[temporal-server] built $version in $(( $(date +%s) - start ))s"
fi
if ! $schema; then
  # The module is in the cache after the build; `go mod download` finds it there (or fetches it).
  moddir=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$module@$version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  if [[ -z "$moddir" || ! -d "$moddir/schema/postgresql/v12" ]]; then
    echo "[temporal-server] the schema of $module@$version was not found in Go's module cache (${moddir:-no folder})" >&2
    exit 1
  fi
  rm -rf "$schemadir"
  mkdir -p "$schemadir/postgresql"
  cp -R "$moddir/schema/postgresql/v12" "$schemadir/postgresql/v12"
  # The module cache's files are read-only; the copy is ours to replace on the next version.
  chmod -R u+w "$schemadir"
  echo "$version" > "$schemastamp"
  echo "[temporal-server] schema $version copied to .tools/temporal-schema/postgresql/v12"
fi
