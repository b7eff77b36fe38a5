#!/usr/bin/env bash
# make bench: run every benchmark and write BENCHMARKS.md (cmd/benchreport does the work).
# Installs jq from Debian when missing (the baseline of the audit figure), builds bin/fechado
# and bin/benchreport, then gives benchreport what is left of a 14-minute budget.
#
# Environment: GO (default go); BENCH_BUDGET seconds for the whole script (default 840);
# BENCH_ARGS more benchreport flags, e.g. BENCH_ARGS='-sizes 10000 -bench Eval' for a quick run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO=${GO:-go}
budget=${BENCH_BUDGET:-840}

if ! command -v jq >/dev/null 2>&1; then
	echo "==> installing jq (apt-get)"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get -qq -o=Dpkg::Use-Pty=0 update
	$sudo apt-get -qq -o=Dpkg::Use-Pty=0 install -y jq >/dev/null
fi

echo "==> building bin/fechado and bin/benchreport"
mkdir -p bin
"$GO" build -o bin/fechado ./cmd/fechado
"$GO" build -o bin/benchreport ./cmd/benchreport

left=$((budget - SECONDS))
# shellcheck disable=SC2086 # BENCH_ARGS is a list of flags
exec bin/benchreport -go "$GO" -fechado bin/fechado -jq "$(command -v jq)" \
	-out BENCHMARKS.md -raw bench -work bin/bench-work -cache bin/bench-cache \
	-budget "${left}s" ${BENCH_ARGS:-}
