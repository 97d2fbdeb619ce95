#!/usr/bin/env bash
# Installs everything a fresh machine needs to build, test and run the project:
#  - Node 24 LTS into .tools/node when the system Node is older than 22.12
#  - Debian packages used by tests and report checks (poppler-utils, fonts-dejavu-core, ...) and
#    PostgreSQL's server (the database of the local Temporal cluster, scripts/cluster.sh)
#  - the Temporal CLI, built from its Go module into .tools/bin (skipped when present)
#  - the Temporal server and its SQL schema tool, built from their Go module into .tools/bin, and
#    the server's PostgreSQL schema copied to .tools/temporal-schema (skipped when present; the
#    first build takes a few minutes)
#  - versitygw (S3-compatible server for the delivery tests), built the same way (skipped when present)
#  - the PDF/UA-1 checker (veraPDF's library in one jar, .tools/verapdf), built with Maven from
#    tools/verapdf; needs Java 17 and Maven (skipped when built from the same sources)
#  - Temporal's time-skipping test server (Java, from the Maven registry) for the workflow tests
#  - Python tools (schemathesis) in a virtualenv at .tools/venv (skipped when present)
#  - npm dependencies (npm ci)
# Safe to run again: each step skips what is already there.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/install-node.sh
bash scripts/install-debian.sh
bash scripts/build-temporal.sh
bash scripts/build-temporal-server.sh
bash scripts/build-versitygw.sh
bash scripts/build-verapdf.sh
bash scripts/build-test-server.sh
bash scripts/install-python-tools.sh

# shellcheck source=/dev/null
source scripts/env.sh
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "[setup] npm ci"
  npm ci --no-audit --no-fund
else
  echo "[setup] node_modules up to date"
fi
echo "[setup] done (node $(node --version))"
