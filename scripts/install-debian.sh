#!/usr/bin/env bash
# Debian packages the tests, report checks and the local cluster use, in groups; with no argument
# every group (what scripts/setup.sh installs for `npm test`, `npm run test:cluster` and CI), or
# only the groups named: `bash scripts/install-debian.sh fonts pdf`.
#   fonts       fonts-dejavu-core (DejaVu Sans as a system font), fonts-noto-core and fonts-noto-cjk
#               (the report fonts' fallbacks: Arabic, Hebrew, Devanagari, Thai; Chinese, Japanese,
#               Korean; see reports/font-chain.ts)
#   pdf         poppler-utils (pdftotext, pdftoppm, pdfinfo, pdffonts: the tests read the PDFs)
#   office      libreoffice-calc-nogui (soffice: the tests open workbooks and CSV files in a spreadsheet)
#   compose     docker-compose (CI validates docker-compose.yml)
#   python      python3-venv (the virtualenv of the Python test tools, scripts/install-python-tools.sh)
#   java        openjdk-17-jdk-headless and maven (the PDF/UA checker, scripts/build-verapdf.sh, and
#               Temporal's time-skipping test server, scripts/build-test-server.sh)
#   postgresql  postgresql (the server binaries in /usr/lib/postgresql/<version>/bin and psql: the
#               database of the local Temporal cluster, scripts/cluster.sh; Debian 12's is 15)
#   browser     chromium (/usr/bin/chromium: the portal's browser tests drive it with playwright-core)
# The demos need none of them (scripts/setup.sh --demo does not run this script): their PDFs and
# charts draw DejaVu Sans from npm's dejavu-fonts-ttf, and the Noto fallbacks only names in other
# scripts, which the demo data has none of.
set -euo pipefail
all_groups=(fonts pdf office compose python java postgresql browser)
groups=("$@")
((${#groups[@]})) || groups=("${all_groups[@]}")
need=()
for group in "${groups[@]}"; do
  case "$group" in
    fonts)
      [[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] || need+=(fonts-dejavu-core)
      [[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf ]] || need+=(fonts-noto-core)
      [[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]] || need+=(fonts-noto-cjk)
      ;;
    pdf) command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils) ;;
    office) command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc-nogui) ;;
    compose) command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose) ;;
    python) python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv) ;;
    java)
      command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
      command -v mvn >/dev/null 2>&1 || need+=(maven)
      ;;
    postgresql) compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql) ;;
    browser) command -v chromium >/dev/null 2>&1 || need+=(chromium) ;;
    *)
      echo "[debian] no group '$group' (groups: ${all_groups[*]})" >&2
      exit 2
      ;;
  esac
done
if ((${#need[@]} == 0)); then
  echo "[debian] packages present (${groups[*]})"
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
