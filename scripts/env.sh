# Sourced by every project script: puts the project's Node and tools first on PATH.
_vir_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -x "$_vir_root/.tools/node/bin/node" ]]; then
  export PATH="$_vir_root/.tools/node/bin:$PATH"
fi
export PATH="$_vir_root/.tools/bin:$_vir_root/node_modules/.bin:$PATH"
export TEMPORAL_CLI_PATH="${TEMPORAL_CLI_PATH:-$_vir_root/.tools/bin/temporal}"
unset _vir_root
