#!/usr/bin/env bash
# make load: a room's load on one node. Builds bin/fechado and bin/benchreport, then runs
# `benchreport -load`, the same code make bench runs at a rising number of tables: it starts
# `fechado serve` on the embedded log (the default) in a new temporary folder on a free loopback
# port, plays `fechado sim --live` against it with TABLES tables (default 100) for DURATION
# (default 150s), one event every PACE (default 2s) per table on average, with READERS clients
# reading the API meanwhile (default 20), then prints sim's report (append, live-audit lag and
# read latencies: count, errors, p50, p99, max in ms), serve's peak resident memory (VmHWM), the
# CPU seconds serve and sim spent while sim ran (per 1,000 events appended: what a change to the
# write path is judged by on a shared machine) and one line per goal, PASS or FAIL; then stops
# serve and removes the folder.
#
# The pace: a live table deals about one event every 2 s (a hand of five-card draw at a table
# with a dealer takes one and a half to two minutes; sim's hands of 4 to 6 players are 41 to 63
# events: every card dealt and drawn, every ante, action and payout is one), so 2s is a room's
# load and the default; PACE=1s offers twice as much per table. A hand then lasts 80 to 130 s, so
# the default DURATION ends about one hand a table (the lag's sample) and leaves the next open.
#
# Writes go through the door a table system uses: serve --auth, and sim logs in as an `app` user
# (docs/security.md §3) whose password the file holds as a bcrypt hash, as a room would keep it.
#
# Environment: GO (default go); TABLES, PACE, DURATION, READERS as above; SERVE_ARGS, more flags
# of serve (split at spaces, e.g. SERVE_ARGS='--group-commit 0'); LOAD_AUTH=0 runs serve without
# --auth (writes open); LOAD_KEEP=1 keeps the folder (its path is printed); LOAD_PROFILE=1 runs
# serve with --cpuprofile and --memprofile in the folder, and sim with --cpuprofile (implies
# LOAD_KEEP) for `go tool pprof bin/fechado FOLDER/serve.cpu`.
#
# The figures a room needs (issue 43): append p99 < 50 ms, lag p99 < 1 s, read p99 < 100 ms; the
# largest TABLES that meets all three is what one node holds (make bench finds it, BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

GO=${GO:-go}
tables=${TABLES:-100}
case $tables in '' | *[!0-9]*) echo "TABLES must be a number of tables, not '$tables'" >&2; exit 2 ;; esac

echo "==> building bin/fechado and bin/benchreport"
mkdir -p bin
"$GO" build -o bin/fechado ./cmd/fechado
"$GO" build -o bin/benchreport ./internal/benchreport

auth=true
[ "${LOAD_AUTH:-1}" = 1 ] || auth=false
keep=false
[ "${LOAD_KEEP:-0}" = 1 ] && keep=true
profile=false
[ "${LOAD_PROFILE:-0}" = 1 ] && profile=true
exec bin/benchreport -load -fechado bin/fechado -tables "$tables" -pace "${PACE:-2s}" \
	-duration "${DURATION:-150s}" -readers "${READERS:-20}" -auth="$auth" -keep="$keep" \
	-profile="$profile" -serve-args "${SERVE_ARGS:-}"
