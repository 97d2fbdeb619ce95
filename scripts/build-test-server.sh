#!/usr/bin/env bash
# Fetches Temporal's time-skipping test server (io.temporal:temporal-test-server, a Java program)
# with Maven into .tools/temporal-test-server/lib and writes .tools/bin/temporal-test-server, a
# wrapper that runs it on the port it is given. The workflow tests on the time-skipping
# environment (test/helpers/time-skipping.ts) start it. Skips when the jars match the pinned
# version. Needs Java >= 17 and Maven; the first fetch fills ~/.m2, later ones work offline.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/tools/temporal-test-server"
out="$root/.tools/temporal-test-server"
bin="$root/.tools/bin/temporal-test-server"
stamp="$out/stamp"
version=$(sed -n 's:.*<temporal.version>\(.*\)</temporal.version>.*:\1:p' "$src/pom.xml")
hash=$(sha256sum "$src/pom.xml" | cut -d' ' -f1)
want="temporal-test-server $version $hash"
if [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  echo "[test-server] Temporal test server $version already fetched"
  exit 0
fi
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "[test-server] $tool is not installed: the time-skipping test server needs Java 17+ and Maven (Debian: openjdk-17-jdk-headless maven)" >&2
    exit 1
  fi
done
start=$(date +%s)
echo "[test-server] fetching Temporal's time-skipping test server $version (a first fetch fills ~/.m2)"
copy() {
  (cd "$src" && mvn -q -B -Dstyle.color=never "$@" dependency:copy-dependencies \
    -DoutputDirectory="$out/lib.tmp" -DincludeScope=runtime) 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'
  return "${PIPESTATUS[0]}"
}
rm -rf "$out/lib.tmp"
mkdir -p "$out" "$root/.tools/bin"
if ! copy -o >/dev/null 2>&1; then
  rm -rf "$out/lib.tmp"
  copy
fi
rm -rf "$out/lib"
mv "$out/lib.tmp" "$out/lib"
cat > "$bin.tmp" <<WRAPPER
#!/usr/bin/env bash
# Temporal's time-skipping test server $version (scripts/build-test-server.sh): \$1 is the port.
exec java -Xss1m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$out/lib/*" io.temporal.testserver.TestServer "\$@"
WRAPPER
chmod +x "$bin.tmp"
mv "$bin.tmp" "$bin"
echo "$want" > "$stamp"
echo "[test-server] fetched into $out in $(( $(date +%s) - start ))s"
