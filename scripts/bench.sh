#!/usr/bin/env bash
# make bench: run every benchmark and write BENCHMARKS.md (cmd/benchreport does the work).
# Installs jq from Debian when missing (the baseline of the audit figure), builds bin/fechado
# and bin/benchreport, then gives benchreport what is left of a 14-minute budget.
#
# Environment: GO (default go); BENCH_BUDGET seconds for the whole script (default 840);
# BENCH_HANDS the largest log in hands (default 1000000): the whole-process sizes are 10,000,
# 100,000, 300,000 and 1,000,000 up to it (and it, when it is none of them), and the hand reads
# are timed at 10,000 hands and at it; BENCH_ARGS more benchreport flags, which win, e.g.
# BENCH_ARGS='-sizes 10000 -bench Eval' for a quick run.
#
# Sizes the budget cannot hold are left out and the report says which and why. A run that
# measures 1,000,000 hands needs about 40 minutes of a quiet machine and 35 GB of disk under bin/:
#   BENCH_BUDGET=3000 make bench
# A check of the figures at 100,000 hands:
#   BENCH_HANDS=100000 BENCH_BUDGET=2400 make bench
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

hands=${BENCH_HANDS:-1000000}
case $hands in '' | *[!0-9]*) echo "BENCH_HANDS must be a number of hands, not '$hands'" >&2; exit 2 ;; esac
sizes=""
for n in 10000 100000 300000 1000000; do
	[ "$n" -lt "$hands" ] && sizes="$sizes$n,"
done
sizes="$sizes$hands"
read_hands=$hands
[ "$hands" -gt 10000 ] && read_hands="10000,$hands"

left=$((budget - SECONDS))
# shellcheck disable=SC2086 # BENCH_ARGS is a list of flags
exec bin/benchreport -go "$GO" -fechado bin/fechado -jq "$(command -v jq)" \
	-out BENCHMARKS.md -raw bench -work bin/bench-work -cache bin/bench-cache \
	-budget "${left}s" -sizes "$sizes" -read-hands "$read_hands" ${BENCH_ARGS:-}
