# Sourced by scripts/build-temporal.sh and scripts/build-temporal-server.sh: the Temporal versions
# the project runs, in one place, because they go in pairs. The dev server of `vir dev`, the demo
# and the tests is the Temporal CLI's `server start-dev`, which embeds a Temporal server (`temporal
# --version` says which: "temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)"); the local cluster
# (scripts/cluster.sh) runs the Temporal server built from its Go module. Both must be the same
# server version, so that what the tests prove on one holds on the other: change the two together
# (the CLI's go.mod names the server it embeds: go.temporal.io/server v1.29.1 for CLI v1.5.1), and
# the temporalio/auto-setup image of docker-compose.yml with them.
# shellcheck shell=bash disable=SC2034 # the variables are read by the scripts that source this
TEMPORAL_CLI_VERSION=1.5.1
TEMPORAL_SERVER_VERSION=1.29.1
