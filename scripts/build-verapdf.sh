#!/usr/bin/env bash
# Builds the PDF/UA-1 checker (tools/verapdf: veraPDF's validation library + a small main class)
# with Maven into .tools/verapdf/vir-verapdf.jar, one jar with its dependencies. Skips when the jar
# is there and its stamp matches a hash of tools/verapdf's sources and the veraPDF version. Needs
# Java >= 17 and Maven; the first build downloads the dependencies into ~/.m2, later builds work
# offline from that cache. test/helpers/verapdf.ts runs the jar.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/tools/verapdf"
out="$root/.tools/verapdf"
jar="$out/vir-verapdf.jar"
stamp="$out/vir-verapdf.stamp"
version=$(sed -n 's:.*<verapdf.version>\(.*\)</verapdf.version>.*:\1:p' "$src/pom.xml")
hash=$(cd "$src" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
want="verapdf $version $hash"
if [[ -f "$jar" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  echo "[verapdf] vir-verapdf.jar (veraPDF $version) already built"
  exit 0
fi
if ! command -v java >/dev/null 2>&1; then
  echo "[verapdf] Java is not installed: the PDF/UA checker needs Java 17 or newer (Debian: apt-get install openjdk-17-jdk-headless)" >&2
  exit 1
fi
jv=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [[ -z "$jv" || "${jv%%.*}" -lt 17 ]]; then
  echo "[verapdf] Java ${jv:-of unknown version} is too old: the PDF/UA checker needs Java 17 or newer" >&2
  exit 1
fi
if ! command -v mvn >/dev/null 2>&1; then
  echo "[verapdf] Maven is not installed: the PDF/UA checker is built with mvn (Debian: apt-get install maven)" >&2
  exit 1
fi
start=$(date +%s)
echo "[verapdf] building vir-verapdf.jar with veraPDF $version (a first build downloads it into ~/.m2)"
# -o when the cache already holds everything, so a warm machine needs no network.
# Maven 3.8 prints bare colour resets even in batch mode; only errors are left once they are gone.
mvn_package() { (cd "$src" && mvn -q -B -Dstyle.color=never "$@" package) 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'; }
offline=()
if [[ -f "$HOME/.m2/repository/org/verapdf/validation-model/$version/validation-model-$version.jar" ]]; then
  offline=(-o)
fi
if ! mvn_package "${offline[@]}"; then
  if (( ${#offline[@]} )); then
    echo "[verapdf] offline build failed; trying again online"
    mvn_package
  else
    exit 1
  fi
fi
mkdir -p "$out"
cp "$src/target/vir-verapdf.jar" "$jar.tmp"
mv "$jar.tmp" "$jar"
echo "$want" > "$stamp"
echo "[verapdf] built $jar in $(( $(date +%s) - start ))s"
