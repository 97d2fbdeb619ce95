#!/usr/bin/env bash
# `npm test`: makes sure the machine is set up for the tests (scripts/setup.sh, everything: Node
# 24, Debian packages, the Temporal CLI and server, the checkers, node_modules; fast when
# everything is there), then runs the whole vitest suite.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/setup.sh
# shellcheck source=/dev/null
source scripts/env.sh
exec vitest run "$@"
