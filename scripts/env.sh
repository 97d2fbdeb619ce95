# Sourced by every project script: puts the project's Node and tools first on PATH.
_vir_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -x "$_vir_root/.tools/node/bin/node" ]]; then
  export PATH="$_vir_root/.tools/node/bin:$PATH"
fi
export PATH="$_vir_root/.tools/bin:$_vir_root/node_modules/.bin:$PATH"
# V8's young generation capped at 16 MB a half: Node 24 sizes it from the machine's memory, and
# a worker streaming a 100,000-row list then holds several hundred MB of short-lived garbage
# (npm run bench:prospects measures it). Added once, before any NODE_OPTIONS of the caller.
case " ${NODE_OPTIONS:-} " in
  *" --max-semi-space-size="*) ;;
  *) export NODE_OPTIONS="--max-semi-space-size=16${NODE_OPTIONS:+ $NODE_OPTIONS}" ;;
esac
export TEMPORAL_CLI_PATH="${TEMPORAL_CLI_PATH:-$_vir_root/.tools/bin/temporal}"
unset _vir_root
