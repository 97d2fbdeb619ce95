#!/usr/bin/env bash
# The local Temporal cluster: PostgreSQL (Debian's server binaries) and the Temporal server built
# from its Go module (scripts/build-temporal-server.sh), every Temporal service in one process on
# 127.0.0.1, configured from config/temporal/cluster.yaml. No container engine needed.
#
#   bash scripts/cluster.sh up               # start (initdb and schema the first time); prints the address
#   bash scripts/cluster.sh status           # what runs; exit 0 when PostgreSQL and Temporal both answer
#   bash scripts/cluster.sh restart-server   # stop and start the Temporal server only (PostgreSQL stays)
#   bash scripts/cluster.sh down [--purge]   # stop both; --purge also deletes the data folder
#
# Environment:
#   VIR_CLUSTER_DIR            data folder (default .data/cluster): postgres/ (data, socket), temporal/
#                              (the rendered config), logs/, run/ (pid files)
#   VIR_CLUSTER_PG_PORT        PostgreSQL's port on 127.0.0.1 (default 15432)
#   VIR_CLUSTER_TEMPORAL_PORT  the frontend's gRPC port (default 17233); the other ports follow from
#                              it as in cluster.yaml: history +1, matching +2, worker +6, frontend
#                              HTTP +10, membership ports -300, -299, -298, -294
#   VIR_CLUSTER_NAMESPACE      the namespace `up` creates (default default)
#   VIR_CLUSTER_START_TIMEOUT  seconds to wait for the frontend and the namespace (default 120)
#   VIR_CLUSTER_STOP_TIMEOUT   seconds between SIGTERM and SIGKILL of the server (default 30)
#   VIR_PG_BINDIR              PostgreSQL's server binaries (default the newest /usr/lib/postgresql/*/bin)
#   TEMPORAL_SERVER_PATH, TEMPORAL_SQL_TOOL_PATH, TEMPORAL_CLI_PATH   the binaries (default .tools/bin)
#
# As root, PostgreSQL runs as the `postgres` OS user (runuser); as any other user, as that user.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { echo "[cluster] $*"; }
die() {
  echo "[cluster] error: $*" >&2
  exit 1
}
now_ms() { date +%s%3N; }
# Seconds since a now_ms value, with one decimal: "3.2s".
took() {
  local ms=$(($(now_ms) - $1))
  printf '%d.%ds' $((ms / 1000)) $((ms % 1000 / 100))
}

usage() {
  sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
purge=false
for arg in "$@"; do
  case "$arg" in
    --purge) [[ "$cmd" == down ]] || die "--purge goes with down only"; purge=true ;;
    *) die "unknown argument: $arg (usage: cluster.sh up|down [--purge]|status|restart-server)" ;;
  esac
done

# ---- settings ------------------------------------------------------------------------------------

data=${VIR_CLUSTER_DIR:-$root/.data/cluster}
[[ -n "$data" ]] || die "VIR_CLUSTER_DIR is empty"
data=$(realpath -m -- "$data")
pg_port=${VIR_CLUSTER_PG_PORT:-15432}
fe_port=${VIR_CLUSTER_TEMPORAL_PORT:-17233}
namespace=${VIR_CLUSTER_NAMESPACE:-default}
start_timeout=${VIR_CLUSTER_START_TIMEOUT:-120}
stop_timeout=${VIR_CLUSTER_STOP_TIMEOUT:-30}
for v in pg_port fe_port start_timeout stop_timeout; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"
done
((pg_port >= 1 && pg_port <= 65535)) || die "VIR_CLUSTER_PG_PORT $pg_port is not a port"
((fe_port - 300 >= 1024 && fe_port + 10 <= 65535)) ||
  die "VIR_CLUSTER_TEMPORAL_PORT $fe_port leaves no room for the derived ports ($((fe_port - 300))..$((fe_port + 10)) must lie in 1024..65535)"
history_port=$((fe_port + 1))
matching_port=$((fe_port + 2))
worker_port=$((fe_port + 6))
http_port=$((fe_port + 10))
fe_member=$((fe_port - 300))
history_member=$((fe_port - 299))
matching_member=$((fe_port - 298))
worker_member=$((fe_port - 294))
temporal_ports=("$fe_port" "$history_port" "$matching_port" "$worker_port" "$http_port"
  "$fe_member" "$history_member" "$matching_member" "$worker_member")
for p in "${temporal_ports[@]}"; do
  [[ "$p" == "$pg_port" ]] && die "VIR_CLUSTER_PG_PORT $pg_port is one of the Temporal server's ports (${temporal_ports[*]})"
done
address="127.0.0.1:$fe_port"

pgdata="$data/postgres/data"
pgsock="$data/postgres/run"
pglog="$data/logs/postgres.log"
tdir="$data/temporal"
tlog="$data/logs/temporal.log"
tpid="$data/run/temporal.pid"
tportfile="$data/run/temporal.port"
pgpidfile="$data/run/postgres.pid"

server_bin=${TEMPORAL_SERVER_PATH:-$root/.tools/bin/temporal-server}
sql_tool=${TEMPORAL_SQL_TOOL_PATH:-$root/.tools/bin/temporal-sql-tool}
cli_bin=${TEMPORAL_CLI_PATH:-$root/.tools/bin/temporal}
# The server's dynamic configuration (history.maxInFlightUpdates, ...), read where it is.
dynconfig="$root/config/temporal/dynamicconfig/cluster.yaml"

if [[ $(id -u) -eq 0 ]]; then as_root=true; else as_root=false; fi

# ---- checks --------------------------------------------------------------------------------------

find_pg_bindir() {
  if [[ -n "${VIR_PG_BINDIR:-}" ]]; then
    [[ -x "$VIR_PG_BINDIR/initdb" && -x "$VIR_PG_BINDIR/pg_ctl" ]] ||
      die "VIR_PG_BINDIR=$VIR_PG_BINDIR has no initdb and pg_ctl"
    echo "$VIR_PG_BINDIR"
    return
  fi
  local dir
  dir=$(compgen -G '/usr/lib/postgresql/*/bin/initdb' | sort -V | tail -n 1 || true)
  [[ -n "$dir" ]] ||
    die "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb): run scripts/install-debian.sh, or set VIR_PG_BINDIR"
  dirname "$dir"
}
pgbin=$(find_pg_bindir)

need_temporal_bins() {
  [[ -x "$server_bin" ]] || die "the Temporal server is not built ($server_bin): run scripts/build-temporal-server.sh"
  [[ -x "$cli_bin" ]] || die "the Temporal CLI is not built ($cli_bin): run scripts/build-temporal.sh"
}

need_schema_tools() {
  [[ -x "$sql_tool" ]] || die "temporal-sql-tool is not built ($sql_tool): run scripts/build-temporal-server.sh"
  schema="$root/.tools/temporal-schema/postgresql/v12"
  if [[ ! -d "$schema/temporal/versioned" ]]; then
    # Older builds left the schema in Go's module cache only.
    local version="" modcache=""
    [[ -f "$root/.tools/bin/temporal-server.version" ]] && version=$(cat "$root/.tools/bin/temporal-server.version")
    command -v go >/dev/null 2>&1 && modcache=$(go env GOMODCACHE 2>/dev/null || true)
    if [[ -n "$version" && -n "$modcache" && -d "$modcache/go.temporal.io/server@$version/schema/postgresql/v12/temporal/versioned" ]]; then
      schema="$modcache/go.temporal.io/server@$version/schema/postgresql/v12"
    else
      die "the Temporal server's PostgreSQL schema is not in .tools/temporal-schema: run scripts/build-temporal-server.sh"
    fi
  fi
}

# Runs a PostgreSQL program as the user that owns the data: `postgres` when we are root.
as_pg() {
  if $as_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# Whether something accepts TCP connections on 127.0.0.1:$1.
port_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

psql_q() {
  # $1 database, $2 query: one value per line, no headers.
  "$pgbin/psql" -X -q -h 127.0.0.1 -p "$pg_port" -U temporal -d "$1" -Atc "$2"
}

# ---- PostgreSQL ----------------------------------------------------------------------------------

pg_running() { [[ -f "$pgdata/postmaster.pid" ]] && as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; }

pg_prepare_dirs() {
  mkdir -p "$data/postgres" "$pgdata" "$pgsock" "$data/logs" "$data/run"
  touch "$pglog"
  if $as_root; then
    id postgres >/dev/null 2>&1 || die "running as root, but there is no 'postgres' OS user to run PostgreSQL as (Debian's postgresql package creates it: run scripts/install-debian.sh)"
    chmod 755 "$data" "$data/postgres"
    chown postgres: "$data/postgres" "$pgsock" "$pglog"
    chown -R postgres: "$pgdata"
    chmod 700 "$pgdata"
    runuser -u postgres -- test -w "$pgdata" ||
      die "the postgres OS user cannot reach $pgdata (a folder above it is closed to other users): choose a VIR_CLUSTER_DIR it can reach"
  fi
  local sock="$pgsock/.s.PGSQL.$pg_port"
  ((${#sock} < 100)) || die "the socket path $sock is too long for a Unix socket: choose a shorter VIR_CLUSTER_DIR"
}

pg_init() {
  if [[ -f "$pgdata/PG_VERSION" ]]; then
    log "PostgreSQL data present ($pgdata, version $(cat "$pgdata/PG_VERSION"))"
    return
  fi
  local t
  t=$(now_ms)
  as_pg "$pgbin/initdb" -D "$pgdata" -U temporal --auth=trust -E UTF8 --locale=C.UTF-8 >>"$pglog" 2>&1 ||
    die "initdb failed; see $pglog"
  log "initdb $pgdata: $(took "$t")"
}

pg_start() {
  if pg_running; then
    local running_port
    running_port=$(sed -n 4p "$pgdata/postmaster.pid")
    [[ "$running_port" == "$pg_port" ]] ||
      die "PostgreSQL of $data already runs on port $running_port, not $pg_port: run cluster.sh down first (with the same VIR_CLUSTER_DIR)"
    log "PostgreSQL already running on 127.0.0.1:$pg_port (pid $(head -n 1 "$pgdata/postmaster.pid"))"
  else
    port_answers "$pg_port" && die "port $pg_port on 127.0.0.1 is in use by another process: set VIR_CLUSTER_PG_PORT"
    local t
    t=$(now_ms)
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -w -t 60 -l "$pglog" \
      -o "-p $pg_port -k $pgsock -c listen_addresses=127.0.0.1" start >/dev/null ||
      die "PostgreSQL did not start; see $pglog"
    log "PostgreSQL started on 127.0.0.1:$pg_port: $(took "$t")"
  fi
  head -n 1 "$pgdata/postmaster.pid" >"$pgpidfile"
}

pg_stop() {
  if pg_running; then
    local t
    t=$(now_ms)
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -w -t 60 -m fast stop >/dev/null || die "PostgreSQL did not stop; see $pglog"
    log "PostgreSQL stopped: $(took "$t")"
  else
    log "PostgreSQL not running"
  fi
  rm -f "$pgpidfile"
}

# Creates the two databases and their schema when missing, then updates both schemas to the
# newest version of the server's schema folder (a no-op when they are there already).
schema_setup() {
  need_schema_tools
  local t db dir
  t=$(now_ms)
  local tool=("$sql_tool" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u temporal --pw temporal)
  for db in temporal temporal_visibility; do
    if [[ "$db" == temporal ]]; then dir="$schema/temporal/versioned"; else dir="$schema/visibility/versioned"; fi
    if [[ -z "$(psql_q postgres "select 1 from pg_database where datname = '$db'")" ]]; then
      "${tool[@]}" --db "$db" create-database >>"$data/logs/schema.log" 2>&1 ||
        die "creating the database $db failed; see $data/logs/schema.log"
    fi
    if [[ -z "$(psql_q "$db" "select 1 from pg_tables where tablename = 'schema_version'")" ]]; then
      "${tool[@]}" --db "$db" setup-schema -v 0.0 >>"$data/logs/schema.log" 2>&1 ||
        die "setting up the schema of $db failed; see $data/logs/schema.log"
    fi
    "${tool[@]}" --db "$db" update-schema -d "$dir" >>"$data/logs/schema.log" 2>&1 ||
      die "updating the schema of $db failed; see $data/logs/schema.log"
  done
  log "schema: temporal $(psql_q temporal 'select curr_version from schema_version'), temporal_visibility $(psql_q temporal_visibility 'select curr_version from schema_version'): $(took "$t")"
}

# ---- Temporal server -----------------------------------------------------------------------------

# The pid of the running server started from this data folder, or nothing.
server_pid() {
  [[ -f "$tpid" ]] || return 0
  local pid
  pid=$(cat "$tpid")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  [[ -r "/proc/$pid/cmdline" ]] || return 0
  # The pid file may outlive the process and the pid be reused: check that it is our server.
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "temporal-server --root $tdir " && echo "$pid"
  return 0
}

render_config() {
  mkdir -p "$tdir/config"
  # Two passes (ports to placeholders, placeholders to ports), so that a chosen port equal to
  # another default port is not replaced twice.
  sed -E \
    -e 's/\b15432\b/@PG@/g' \
    -e 's/\b17233\b/@FE@/g; s/\b17234\b/@HI@/g; s/\b17235\b/@MA@/g; s/\b17239\b/@WO@/g; s/\b17243\b/@HTTP@/g' \
    -e 's/\b16933\b/@FEM@/g; s/\b16934\b/@HIM@/g; s/\b16935\b/@MAM@/g; s/\b16939\b/@WOM@/g' \
    "$root/config/temporal/cluster.yaml" |
    sed -e "s/@PG@/$pg_port/g; s/@FE@/$fe_port/g; s/@HI@/$history_port/g; s/@MA@/$matching_port/g" \
      -e "s/@WO@/$worker_port/g; s/@HTTP@/$http_port/g; s/@FEM@/$fe_member/g; s/@HIM@/$history_member/g" \
      -e "s/@MAM@/$matching_member/g; s/@WOM@/$worker_member/g" \
      -e "s|^\( *filepath: *\)config/temporal/dynamicconfig/cluster.yaml *\$|\1'$dynconfig'|" \
      >"$tdir/config/cluster.yaml.tmp"
  grep -Eq "connectAddr: [\"']127\.0\.0\.1:$pg_port[\"']" "$tdir/config/cluster.yaml.tmp" &&
    grep -q "grpcPort: $fe_port," "$tdir/config/cluster.yaml.tmp" ||
    die "config/temporal/cluster.yaml no longer has the default ports this script replaces (15432, 17233, ...)"
  # The server reads the dynamic config's path from its working directory: an absolute one.
  [[ -f "$dynconfig" ]] || die "the dynamic config $dynconfig is missing"
  grep -qF "filepath: '$dynconfig'" "$tdir/config/cluster.yaml.tmp" ||
    die "config/temporal/cluster.yaml no longer names config/temporal/dynamicconfig/cluster.yaml (dynamicConfigClient.filepath)"
  mv "$tdir/config/cluster.yaml.tmp" "$tdir/config/cluster.yaml"
}

server_start() {
  need_temporal_bins
  local pid
  pid=$(server_pid)
  if [[ -n "$pid" ]]; then
    local running_port
    running_port=$(cat "$tportfile" 2>/dev/null || echo "?")
    [[ "$running_port" == "$fe_port" ]] ||
      die "the Temporal server of $data already runs on port $running_port, not $fe_port: run cluster.sh down first (with the same VIR_CLUSTER_DIR)"
    log "Temporal server already running (pid $pid)"
    return
  fi
  local p
  for p in "${temporal_ports[@]}"; do
    port_answers "$p" &&
      die "port $p on 127.0.0.1 (one of the Temporal server's: ${temporal_ports[*]}) is in use by another process: set VIR_CLUSTER_TEMPORAL_PORT"
  done
  render_config
  mkdir -p "$data/logs" "$data/run"
  # A session of its own (setsid): a Ctrl-C in the terminal or the end of the caller's process
  # group does not reach it; `down` stops it by its pid file. All of its output goes to the log,
  # so a caller that reads this script's output (execFile) is not held by the server's pipes.
  echo "--- $(date -u +%FT%TZ) start" >>"$tlog"
  setsid "$server_bin" --root "$tdir" --config config --env cluster --allow-no-auth start \
    </dev/null >>"$tlog" 2>&1 &
  echo $! >"$tpid"
  echo "$fe_port" >"$tportfile"
}

server_stop() {
  local pid
  pid=$(server_pid)
  if [[ -z "$pid" ]]; then
    log "Temporal server not running"
    rm -f "$tpid" "$tportfile"
    return
  fi
  local t deadline
  t=$(now_ms)
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$(($(date +%s) + stop_timeout))
  while kill -0 "$pid" 2>/dev/null && (($(date +%s) < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    log "Temporal server (pid $pid) still running ${stop_timeout}s after SIGTERM: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$tpid" "$tportfile"
  log "Temporal server (pid $pid) stopped: $(took "$t")"
}

frontend_serving() {
  "$cli_bin" operator cluster health --address "$address" 2>/dev/null | grep -q SERVING
}

# Waits until the frontend answers; fails early (with the log's end) when the server exits.
server_wait() {
  local t deadline pid
  t=$(now_ms)
  deadline=$(($(date +%s) + start_timeout))
  pid=$(cat "$tpid")
  until frontend_serving; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$tlog" >&2
      die "the Temporal server exited before it answered; see $tlog"
    fi
    (($(date +%s) < deadline)) || die "the Temporal server did not answer at $address within ${start_timeout}s; see $tlog"
    sleep 0.3
  done
  log "Temporal server answers at $address (pid $pid): $(took "$t")"
}

# Creates the namespace when missing and waits until the frontend serves it.
namespace_ensure() {
  local t deadline created=false
  t=$(now_ms)
  if ! "$cli_bin" operator namespace describe --address "$address" -n "$namespace" >/dev/null 2>&1; then
    "$cli_bin" operator namespace create --address "$address" -n "$namespace" >>"$tlog" 2>&1 ||
      "$cli_bin" operator namespace describe --address "$address" -n "$namespace" >/dev/null 2>&1 ||
      die "creating the namespace $namespace failed; see $tlog"
    created=true
  fi
  # A new namespace reaches the frontend's namespace cache a few seconds after it is created.
  deadline=$(($(date +%s) + start_timeout))
  until "$cli_bin" workflow count --address "$address" -n "$namespace" >/dev/null 2>&1; do
    (($(date +%s) < deadline)) || die "the namespace $namespace is not served at $address within ${start_timeout}s; see $tlog"
    sleep 0.5
  done
  if $created; then log "namespace $namespace created: $(took "$t")"; else log "namespace $namespace present: $(took "$t")"; fi
}

# Before anything is created or started: what runs from this folder runs on the ports asked for,
# and no other process holds the ports of what is to be started.
preflight() {
  if pg_running; then
    local running_port
    running_port=$(sed -n 4p "$pgdata/postmaster.pid")
    [[ "$running_port" == "$pg_port" ]] ||
      die "PostgreSQL of $data already runs on port $running_port, not $pg_port: run cluster.sh down first (with the same VIR_CLUSTER_DIR)"
  else
    port_answers "$pg_port" && die "port $pg_port on 127.0.0.1 is in use by another process: set VIR_CLUSTER_PG_PORT"
  fi
  if [[ -n "$(server_pid)" ]]; then
    local running_port
    running_port=$(cat "$tportfile" 2>/dev/null || echo "?")
    [[ "$running_port" == "$fe_port" ]] ||
      die "the Temporal server of $data already runs on port $running_port, not $fe_port: run cluster.sh down first (with the same VIR_CLUSTER_DIR)"
  else
    local p
    for p in "${temporal_ports[@]}"; do
      port_answers "$p" &&
        die "port $p on 127.0.0.1 (one of the Temporal server's: ${temporal_ports[*]}) is in use by another process: set VIR_CLUSTER_TEMPORAL_PORT"
    done
  fi
  return 0
}

# ---- commands ------------------------------------------------------------------------------------

case "$cmd" in
  up)
    t0=$(now_ms)
    need_temporal_bins
    need_schema_tools
    preflight
    pg_prepare_dirs
    pg_init
    pg_start
    schema_setup
    server_start
    server_wait
    namespace_ensure
    log "up in $(took "$t0"): Temporal at $address (namespace $namespace), PostgreSQL at 127.0.0.1:$pg_port, data in $data"
    echo "TEMPORAL_ADDRESS=$address"
    ;;
  restart-server)
    t0=$(now_ms)
    pg_running || die "PostgreSQL of $data is not running: run cluster.sh up"
    server_stop
    server_start
    server_wait
    namespace_ensure
    log "server restarted in $(took "$t0"): Temporal at $address"
    echo "TEMPORAL_ADDRESS=$address"
    ;;
  down)
    server_stop
    if [[ -f "$pgdata/postmaster.pid" ]]; then pg_stop; else log "PostgreSQL not running"; fi
    rm -f "$pgpidfile"
    if $purge; then
      case "$data" in
        / | "$root" | "$HOME") die "refusing to delete $data" ;;
      esac
      rm -rf "$data"
      log "data deleted ($data)"
    else
      log "data kept in $data (down --purge deletes it)"
    fi
    ;;
  status)
    ok=true
    if pg_running; then
      log "PostgreSQL: running on 127.0.0.1:$(sed -n 4p "$pgdata/postmaster.pid") (pid $(head -n 1 "$pgdata/postmaster.pid"))"
    else
      log "PostgreSQL: stopped"
      ok=false
    fi
    pid=$(server_pid)
    if [[ -n "$pid" ]]; then
      if frontend_serving; then
        log "Temporal server: running (pid $pid), serving at $address"
      else
        log "Temporal server: running (pid $pid), not answering at $address"
        ok=false
      fi
    else
      log "Temporal server: stopped"
      ok=false
    fi
    log "data: $data"
    $ok
    ;;
  -h | --help | help)
    usage
    ;;
  *)
    usage >&2
    exit 2
    ;;
esac
