#!/usr/bin/env bash
# Python tools the tests use, in a virtualenv at .tools/venv:
#  - schemathesis (pinned): fuzzes the sandbox from its own /openapi.json (test/sandbox/fuzz.test.ts)
#  - openpyxl and Pillow (pinned): open the workbooks as Python users do and count their charts
#    and images (openpyxl reads images only with Pillow installed) (test/reports/excel-readers.test.ts)
# Safe to run again: skipped when the pinned version is already installed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

SCHEMATHESIS_VERSION=4.32.5
OPENPYXL_VERSION=3.1.5
PILLOW_VERSION=12.0.0
venv=.tools/venv
PINNED="schemathesis==$SCHEMATHESIS_VERSION openpyxl==$OPENPYXL_VERSION pillow==$PILLOW_VERSION"

installed() {
  [[ -x "$venv/bin/python" ]] &&
    "$venv/bin/python" -c "
import importlib.metadata as m, sys
pins = dict(p.split('==') for p in '$PINNED'.split())
sys.exit(any(m.version(n) != v for n, v in pins.items()))" 2>/dev/null
}

if installed; then
  echo "[python] $PINNED present"
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
echo "[python] installing $PINNED"
# shellcheck disable=SC2086 # one argument a pinned package
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check $PINNED
installed || { echo "[python] $PINNED did not install" >&2; exit 1; }
echo "[python] $PINNED installed"
