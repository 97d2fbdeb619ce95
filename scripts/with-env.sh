#!/usr/bin/env bash
# Runs a command with the project's Node 24 and tools first on PATH (npm scripts run under
# sh with whatever Node started npm; this makes them use the project's).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=/dev/null
source "$root/scripts/env.sh"
exec "$@"
