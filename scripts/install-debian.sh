#!/usr/bin/env bash
# Debian packages the tests and report checks use: poppler-utils (pdftotext, pdftoppm,
# pdfinfo, pdffonts), fonts-dejavu-core (report font), fonts-noto-core and fonts-noto-cjk (the
# report fonts' fallbacks: Arabic, Hebrew, Devanagari, Thai; Chinese, Japanese, Korean; see
# reports/font-chain.ts), docker-compose (config validation),
# libreoffice-calc-nogui (soffice: the tests open workbooks and CSV files in a spreadsheet),
# python3-venv (the virtualenv of the Python test tools, scripts/install-python-tools.sh),
# openjdk-17-jdk-headless and maven (the PDF/UA checker, scripts/build-verapdf.sh),
# postgresql (the server binaries in /usr/lib/postgresql/<version>/bin and psql: the database of
# the local Temporal cluster, scripts/cluster.sh; Debian 12's is PostgreSQL 15).
set -euo pipefail
need=()
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
[[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] || need+=(fonts-dejavu-core)
[[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf ]] || need+=(fonts-noto-core)
[[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]] || need+=(fonts-noto-cjk)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc-nogui)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
if ((${#need[@]} == 0)); then
  echo "[debian] packages present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[debian] apt-get not found; install ${need[*]} by hand" >&2
  exit 1
fi
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
echo "[debian] installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
