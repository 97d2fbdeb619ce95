#!/usr/bin/env bash
# The `vir` command: puts the project's Node and tools on PATH, then runs cli/main.ts with tsx.
set -euo pipefail
src=${BASH_SOURCE[0]}
while [[ -L "$src" ]]; do
  dir=$(cd -P "$(dirname "$src")" && pwd)
  src=$(readlink "$src")
  [[ $src != /* ]] && src="$dir/$src"
done
root=$(cd -P "$(dirname "$src")/.." && pwd)
# shellcheck source=/dev/null
source "$root/scripts/env.sh"
exec tsx "$root/cli/main.ts" "$@"
