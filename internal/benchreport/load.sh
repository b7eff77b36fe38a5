#!/usr/bin/env bash
# make load: a room's load on one node. Builds bin/fechado, starts `fechado serve` on the embedded
# log (the default) in a new temporary folder on a free loopback port, plays `fechado sim --live`
# against it with TABLES tables (default 100) for DURATION (default 60s), one event every PACE
# (default 2s) per table on average, with READERS clients reading the API meanwhile (default 20),
# then prints sim's report (append, live-audit lag and read latencies: count, errors, p50, p99,
# max in ms) and serve's peak resident memory (VmHWM), stops serve and removes the folder.
#
# Environment: GO (default go); TABLES, PACE, DURATION, READERS as above; LOAD_KEEP=1 keeps the
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
duration=${DURATION:-60s}
readers=${READERS:-20}
case $tables in '' | *[!0-9]*) echo "TABLES must be a number of tables, not '$tables'" >&2; exit 2 ;; esac

echo "==> building bin/fechado"
mkdir -p bin
"$GO" build -o bin/fechado ./cmd/fechado

dir=$(mktemp -d)
keep=${LOAD_KEEP:-0}
prof=()
if [ "${LOAD_PROFILE:-0}" = 1 ]; then
	keep=1
	prof=(--cpuprofile "$dir/serve.cpu" --memprofile "$dir/serve.mem")
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
echo "==> fechado serve --data $dir/data on $url"
bin/fechado serve --data "$dir/data" --db "$dir/fechado.db" --http "127.0.0.1:$port" ${prof[@]+"${prof[@]}"} \
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

echo "==> fechado sim --live --tables $tables --pace $pace --duration $duration --readers $readers"
bin/fechado sim --live --target "$url" --tables "$tables" --pace "$pace" --duration "$duration" --readers "$readers"

hwm=$(awk '/^VmHWM/ { print $2 / 1024 " MB" }' "/proc/$serve_pid/status" 2>/dev/null || echo unknown)
rss=$(awk '/^VmRSS/ { print $2 / 1024 " MB" }' "/proc/$serve_pid/status" 2>/dev/null || echo unknown)
echo "==> serve: peak resident memory (VmHWM) $hwm, resident now $rss"
