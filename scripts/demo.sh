#!/usr/bin/env bash
# `npm run demo`: everything from a fresh clone. Sets the machine up (Node 24, Debian
# packages, the Temporal CLI, node_modules; fast when done), then starts the embedded
# Temporal server, the sandbox and the workers, runs the weekly market report for three
# countries and prints where the reports are.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/setup.sh
# shellcheck source=/dev/null
source scripts/env.sh
exec tsx cli/main.ts demo "$@"
