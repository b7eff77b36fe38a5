#!/usr/bin/env bash
# make load: a room's load on one node. Builds bin/fechado, starts `fechado serve` on the embedded
# log (the default) in a new temporary folder on a free loopback port, plays `fechado sim --live`
# against it with TABLES tables (default 100) for DURATION (default 150s), one event every PACE
# (default 2s) per table on average, with READERS clients reading the API meanwhile (default 20),
# then prints sim's report (append, live-audit lag and read latencies: count, errors, p50, p99,
# max in ms), serve's peak resident memory (VmHWM), the CPU seconds serve and sim spent while
# sim ran (per 1,000 events appended: what a change to the write path is judged by on a shared
# machine) and one line per goal, PASS or FAIL; then stops serve and removes the folder.
#
# The pace: a live table deals about one event every 2 s (a hand of five-card draw at a table
# with a dealer takes one and a half to two minutes; sim's hands of 4 to 6 players are 41 to 63
# events: every card dealt and drawn, every ante, action and payout is one), so 2s is a room's
# load and the default; PACE=1s offers twice as much per table. A hand then lasts 80 to 130 s, so
# the default DURATION ends about one hand a table (the lag's sample) and leaves the next open.
#
# Environment: GO (default go); TABLES, PACE, DURATION, READERS as above; SERVE_ARGS, more flags
# of serve (split at spaces, e.g. SERVE_ARGS='--group-commit 0'); LOAD_KEEP=1 keeps the
# folder (its path is printed); LOAD_PROFILE=1 runs serve with --cpuprofile and --memprofile in
# the folder (implies LOAD_KEEP) for `go tool pprof bin/fechado FOLDER/serve.cpu`.
#
# The figures a room needs (issue 43): append p99 < 50 ms, lag p99 < 1 s, read p99 < 100 ms; the
# largest TABLES that meets all three is what one node holds (BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

GO=${GO:-go}
tables=${TABLES:-100}
pace=${PACE:-2s}
duration=${DURATION:-150s}
readers=${READERS:-20}
case $tables in '' | *[!0-9]*) echo "TABLES must be a number of tables, not '$tables'" >&2; exit 2 ;; esac

echo "==> building bin/fechado"
mkdir -p bin
"$GO" build -o bin/fechado ./cmd/fechado

dir=$(mktemp -d)
keep=${LOAD_KEEP:-0}
prof=()
simprof=()
if [ "${LOAD_PROFILE:-0}" = 1 ]; then
	keep=1
	prof=(--cpuprofile "$dir/serve.cpu" --memprofile "$dir/serve.mem")
	simprof=(--cpuprofile "$dir/sim.cpu")
fi
serve_pid=""
cleanup() {
	if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
		kill -TERM "$serve_pid" 2>/dev/null || true
		wait "$serve_pid" 2>/dev/null || true
	fi
	if [ "$keep" = 1 ]; then echo "==> kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

# A free loopback port: the kernel's choice for a socket bound to port 0, released at once.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
	echo $((20000 + RANDOM % 20000)))
url="http://127.0.0.1:$port/"
# Writes go through the door a table system uses: serve --auth, and sim logs in as an `app` user
# (docs/security.md §3) whose password the file holds as a bcrypt hash, as a room would keep it;
# serve checks it on every POST (bcrypt once, then roles.Authenticator's cache of the
# accepted password's SHA-256). LOAD_AUTH=0 runs serve without --auth (writes open).
auth=()
simauth=()
if [ "${LOAD_AUTH:-1}" = 1 ]; then
	pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
	hash=$(printf '%s\n' "$pw" | bin/fechado passwd)
	printf '{"users": [{"name": "loadgen", "password": "%s", "role": "app"}]}\n' "$hash" >"$dir/auth.json"
	auth=(--auth "$dir/auth.json")
	simauth=(--user loadgen --password "$pw")
fi
echo "==> fechado serve --data $dir/data on $url${auth:+ (--auth: sim writes as an app user)}"
# SERVE_ARGS: more flags of serve, split at spaces (e.g. SERVE_ARGS='--group-commit 0').
read -r -a serve_args <<<"${SERVE_ARGS:-}"
bin/fechado serve --data "$dir/data" --db "$dir/fechado.db" --http "127.0.0.1:$port" ${auth[@]+"${auth[@]}"} ${prof[@]+"${prof[@]}"} ${serve_args[@]+"${serve_args[@]}"} \
	>"$dir/serve.out" 2>"$dir/serve.err" &
serve_pid=$!
for _ in $(seq 1 300); do
	if curl -fsS -o /dev/null "${url}api/tables" 2>/dev/null; then break; fi
	if ! kill -0 "$serve_pid" 2>/dev/null; then
		echo "serve exited:" >&2
		tail -20 "$dir/serve.err" >&2
		exit 1
	fi
	sleep 0.2
done

# CPU seconds (user + system) of a process so far: fields 14 and 15 of /proc/PID/stat, in clock
# ticks; the command name (field 2) may hold spaces, hence what follows its closing parenthesis.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"; }
serve_cpu0=$(cpu "$serve_pid")
echo "==> load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "==> fechado sim --live --tables $tables --pace $pace --duration $duration --readers $readers"
/usr/bin/time -f '%U %S' -o "$dir/sim.time" \
	bin/fechado sim --live --target "$url" --tables "$tables" --pace "$pace" --duration "$duration" --readers "$readers" ${simauth[@]+"${simauth[@]}"} ${simprof[@]+"${simprof[@]}"} |
	tee "$dir/sim.json"
serve_cpu=$(awk -v a="$serve_cpu0" -v b="$(cpu "$serve_pid")" 'BEGIN { printf "%.2f", b - a }')
sim_cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/sim.time")
echo "==> load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

hwm=$(awk '/^VmHWM/ { print $2 / 1024 " MB" }' "/proc/$serve_pid/status" 2>/dev/null || echo unknown)
rss=$(awk '/^VmRSS/ { print $2 / 1024 " MB" }' "/proc/$serve_pid/status" 2>/dev/null || echo unknown)
echo "==> serve: peak resident memory (VmHWM) $hwm, resident now $rss"

# The figures a room needs, one line each: CPU per 1,000 appended events (what a change to the
# write path is judged by on a shared machine), then the three goals of issue 43, each PASS or FAIL.
jq -r --arg serve "$serve_cpu" --arg sim "$sim_cpu" '
	def ms: (. * 10 | round / 10 | tostring) + " ms";
	def verdict($ok): if $ok then "PASS" else "FAIL" end;
	(.append.count) as $n |
	"==> CPU: serve \($serve) s, sim \($sim) s for \($n) events appended (\(($n / .seconds * 10 | round) / 10)/s of \(.tables * 1000 / .pace_ms) offered): serve \(if $n > 0 then ($serve | tonumber) * 1000 / $n * 1000 | round / 1000 else "-" end) s, sim \(if $n > 0 then ($sim | tonumber) * 1000 / $n * 1000 | round / 1000 else "-" end) s per 1,000 events",
	"==> goal append p99 < 50 ms: \(.append.p99_ms | ms), \(.append.errors) errors: \(verdict(.append.p99_ms < 50 and .append.errors == 0 and $n > 0))",
	"==> goal live-audit lag p99 < 1 s: \(.lag.p99_ms | ms) over \(.lag.count) hands, \(.lag_unseen) unseen, \(.lag.errors) errors: \(verdict(.lag.p99_ms < 1000 and .lag.errors == 0 and .lag_unseen == 0 and .lag.count > 0))",
	"==> goal read p99 < 100 ms: \(.read.p99_ms | ms) over \(.read.count) reads, \(.read.errors) errors: \(verdict(.read.p99_ms < 100 and .read.errors == 0 and .read.count > 0))",
	"==> \(.tables) tables: \(if .append.p99_ms < 50 and .append.errors == 0 and $n > 0 and .lag.p99_ms < 1000 and .lag.errors == 0 and .lag_unseen == 0 and .lag.count > 0 and .read.p99_ms < 100 and .read.errors == 0 and .read.count > 0 then "every goal met" else "NOT every goal met" end)"
' "$dir/sim.json"
