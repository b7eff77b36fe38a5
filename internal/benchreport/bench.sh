#!/usr/bin/env bash
# make bench: run every benchmark and write BENCHMARKS.md (internal/benchreport does the work).
# Installs jq from Debian when missing (the baseline of the audit figure), builds bin/fechado
# and bin/benchreport, then gives benchreport what is left of a 14-minute budget.
#
# Environment: GO (default go); BENCH_BUDGET seconds for the whole script (default 840);
# LOAD_TABLES the numbers of live tables, comma-separated, ascending ("" for none);
# BENCH_HANDS the largest log in hands (default 1000000); BENCH_STEPS=1 to measure the sizes
# between too. The whole-process sizes are 10,000 and BENCH_HANDS (the growth from the one to
# the other is what the report compares), with BENCH_STEPS=1 also 100,000 and 300,000 below it.
# At each size: audit and jq on the files (jq only up to 300,000 hands: it is the baseline of
# audit, and at a million hands it alone would take minutes), record, 1,000 hands read back by
# id from the log, plain publish (the baseline of record), project, the same hands read back with
# its read models. BENCH_ARGS more benchreport flags, which win, e.g.
# BENCH_ARGS='-sizes 10000 -bench Eval' for a quick run.
#
# From 1,000,000 hands up the Go benchmarks are a short list (those the summary and the preset
# tables name) and BenchmarkReadHandLogSize reads from 10,000-hand logs only: the realistic reads
# at a million hands are the whole-process ones.
#
# Issue 43's figures come from the same run (each a Summary row, met or **not met**):
#  - the spread of the audit over the cores: a room (`fechado sim --room --players 300 --tables 50
#    --hands 20000 --seed 5`, simulated once into bin/bench-cache and reused), `audit --json
#    --workers N` (N = CPUs) against `--workers 1`, in turn, 7 rounds (-spread-rounds), the median
#    of the rounds' ratios against 1.8×, the first round's outputs compared byte for byte;
#  - the web API after `project` at 10,000 hands and at BENCH_HANDS: 20 clients for 60 s
#    (-api-seconds), every endpoint's p50/p99, serve's peak memory idle and under the clients,
#    with the log's server's peak while project ran (targets: p99 < 100 ms, both < 500 MB);
#  - the live tables: `benchreport -load` (what `make load` runs) at LOAD_TABLES tables in turn
#    (default 500,1000,2000,3000,4000,5000), 150 s each (-load-duration) at one event every 2 s a
#    table with 20 readers, stopping at the first number that misses append p99 < 50 ms, lag p99
#    < 1 s or read p99 < 100 ms; the largest that met all three, and what the next missed.
# The spread runs first, the live tables last; the sizes leave the first number of tables' time.
#
# Sizes the budget cannot hold are left out and the report says which and why: before a size the
# harness extrapolates its time from the previous one, times a margin (-margin, 1.3 unless
# told); a number of live tables from the last one's time (the first: its duration and 30 s). A
# run that measures 1,000,000 hands took about 32 minutes of a quiet two-core machine before
# issue 43's figures (record, its plain-publish baseline and project take most of it) and 30 GB
# of disk under bin/; they add, from the check runs at 10,000 hands: under a minute for the
# spread (its room simulated once, then cached), 1 minute of reads and serve's start at 10,000
# hands, 1 minute and serve's start (catching up the log, a few minutes at most) at the million,
# and about 3 minutes a number of live tables (2 or 3 of them on 2 cores). About 45 minutes in
# all, 60 with the margins; the million-hand size alone is estimated at about 30 minutes:
#   BENCH_BUDGET=3600 make bench
#   BENCH_BUDGET=3000 BENCH_ARGS='-margin 1.1' make bench
# A check of the figures at 100,000 hands:
#   BENCH_HANDS=100000 BENCH_BUDGET=1500 make bench
# A check of the harness at 10,000 hands, with small loads of 30 s:
#   BENCH_HANDS=10000 BENCH_BUDGET=900 LOAD_TABLES=50,100 BENCH_ARGS='-bench= -load-duration 30s -api-seconds 10' make bench
#
# BENCH_BASELINE a commit (default 3f492ce, the commit issue 21 was filed at; empty to leave it
# out) whose audit the report sets beside this one's: the rate issue 21 asks audit to keep is
# relative to that commit's, and only the two run on the same machine in the same run can be
# compared. Its fechado is built from a temporary git worktree (removed afterwards) into
# bin/fechado-<commit>, which later runs reuse, and benchreport runs the two audits in turn on
# the same files (-audit-baseline). Without git, in a clone that lacks the commit (a shallow
# one), or when it does not build, the comparison is left out with one line saying why, and the
# rest runs as before.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

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
"$GO" build -o bin/benchreport ./internal/benchreport

baseline=()
base=${BENCH_BASELINE-3f492ce}
if [ -n "$base" ]; then
	if ! command -v git >/dev/null 2>&1; then
		echo "==> audit against $base left out: git is not installed"
	elif ! git rev-parse --git-dir >/dev/null 2>&1; then
		echo "==> audit against $base left out: this is not a git checkout"
	elif ! git cat-file -e "$base^{commit}" 2>/dev/null; then
		echo "==> audit against $base left out: the repository has no commit $base (a shallow clone? git fetch --unshallow)"
	else
		full=$(git rev-parse --verify "$base^{commit}")
		short=$(git rev-parse --short "$full")
		bin=bin/fechado-$short
		# Only a finished build of that commit is given that name (the build writes $bin.tmp, then
		# renames it), so a file of that name is the commit's build. go version -m cannot tell:
		# GOFLAGS may hold -buildvcs=false, which leaves the commit out of the binary.
		if [ -x "$bin" ]; then
			echo "==> reusing $bin, the build of $short"
		else
			echo "==> building $bin from a temporary worktree of $short (the baseline of audit)"
			tree=$(mktemp -d)
			# Removed on every way out, failures and Ctrl-C included: a worktree left behind would
			# keep the commit checked out in git's list of worktrees.
			trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT
			git worktree add --quiet --detach "$tree" "$full"
			root=$PWD
			if (cd "$tree" && "$GO" build -o "$root/$bin.tmp" ./cmd/fechado); then
				mv "$bin.tmp" "$bin"
			else
				rm -f "$bin.tmp" "$bin"
				echo "==> audit against $short left out: its fechado did not build (above)"
			fi
			git worktree remove --force "$tree"
			trap - EXIT
		fi
		if [ -x "$bin" ]; then baseline=(-audit-baseline "$bin" -audit-baseline-commit "$short"); fi
	fi
fi

hands=${BENCH_HANDS:-1000000}
case $hands in '' | *[!0-9]*) echo "BENCH_HANDS must be a number of hands, not '$hands'" >&2; exit 2 ;; esac
sizes=""
steps=10000
[ "${BENCH_STEPS:-0}" = 1 ] && steps="10000 100000 300000"
for n in $steps; do
	[ "$n" -lt "$hands" ] && sizes="$sizes$n,"
done
sizes="$sizes$hands"
read_hands=$hands
[ "$hands" -gt 10000 ] && read_hands="10000,$hands"
bench=.
if [ "$hands" -ge 1000000 ]; then
	bench='^Benchmark(Append|RecordFile|Project|AuditOneCore|AuditFile|EvalPreset|Simulate)$'
	read_hands=10000
fi

load_tables=${LOAD_TABLES-500,1000,2000,3000,4000,5000}
case $load_tables in *[!0-9,]*) echo "LOAD_TABLES must be numbers of tables, comma-separated, not '$load_tables'" >&2; exit 2 ;; esac

left=$((budget - SECONDS))
# shellcheck disable=SC2086 # BENCH_ARGS is a list of flags
exec bin/benchreport -go "$GO" -fechado bin/fechado -jq "$(command -v jq)" \
	-out BENCHMARKS.md -raw internal/benchreport/testdata/raw -work bin/bench-work -cache bin/bench-cache \
	-budget "${left}s" -sizes "$sizes" -read-hands "$read_hands" -bench "$bench" -load-tables "$load_tables" \
	${baseline[@]+"${baseline[@]}"} ${BENCH_ARGS:-}
