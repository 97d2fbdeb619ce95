#!/usr/bin/env bash
# `npm run demo`: everything from a fresh clone. Installs what the demo needs and no more (Node 24,
# the Temporal CLI, node_modules: scripts/setup.sh --demo; fast when done), then starts the
# embedded Temporal server, the sandbox and the workers, runs the weekly market report for three
# countries and prints where the reports are. The tests' tools come with `npm test`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/setup.sh --demo
# shellcheck source=/dev/null
source scripts/env.sh
exec tsx cli/main.ts demo "$@"
