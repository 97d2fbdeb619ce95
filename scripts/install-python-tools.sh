#!/usr/bin/env bash
# Python tools the tests use, in a virtualenv at .tools/venv:
#  - schemathesis (pinned): fuzzes the sandbox from its own /openapi.json (test/sandbox/fuzz.test.ts)
# Safe to run again: skipped when the pinned version is already installed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

SCHEMATHESIS_VERSION=4.32.5
venv=.tools/venv

installed() {
  [[ -x "$venv/bin/python" ]] &&
    "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('schemathesis') != '$SCHEMATHESIS_VERSION')" 2>/dev/null
}

if installed; then
  echo "[python] schemathesis $SCHEMATHESIS_VERSION present"
  exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "[python] python3 not found; install python3 and python3-venv" >&2
  exit 1
fi
if [[ ! -x "$venv/bin/python" ]]; then
  echo "[python] creating $venv"
  mkdir -p .tools
  python3 -m venv "$venv"
fi
echo "[python] installing schemathesis $SCHEMATHESIS_VERSION"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
installed || { echo "[python] schemathesis $SCHEMATHESIS_VERSION did not install" >&2; exit 1; }
echo "[python] schemathesis $SCHEMATHESIS_VERSION installed"
