#!/usr/bin/env bash
# `vigil report --last all` on years of events (issue 5). See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-report.sh [RUNS]       timed runs of each report, after 3 warm-ups (default 30)
# Environment:
#   TMPDIR   where the generated logs go (default /tmp); they are made once, then reused.
#
# Builds vigil in release, then fills three event logs with `vigil simulate` (the real state
# machine fed a simulated person's sensor samples, seed 1, Europe/Berlin, ending 2026-11-21):
#   person-5y   five years of the default profile: 3-7 sessions of 25-90 min on most weekdays;
#   stress-5y   five years of --stress: 24-32 Pomodoros back to back every day, distractions seven
#               times as often, a thinking pause every few minutes;
#   stress-2m   --stress for 4200 days (11.5 years), about two million events.
# and times `vigil report --last all` (text and JSON, to /dev/null) on each with hyperfine, then
# prints each log's rows and the report's peak resident memory (/usr/bin/time).
set -euo pipefail

runs=${1:-30}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift hyperfine sqlite3; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install hyperfine sqlite3)" >&2; exit 1; }
done

swift build -c release --product vigil
vigil=$PWD/.build/release/vigil
common=(--time-zone Europe/Berlin --until 2026-11-21 --seed 1)

make_log() {
    local name=$1; shift
    local dir=$tmp/vigil-bench-report-$name
    if [[ ! -s $dir/vigil.sqlite3 ]]; then
        rm -rf "$dir"
        "$vigil" simulate --data-dir "$dir" "${common[@]}" "$@" | tee "$dir.txt"
    fi
}
make_log person-5y --days 1826
make_log stress-5y --days 1826 --stress
make_log stress-2m --days 4200 --stress

for name in person-5y stress-5y stress-2m; do
    db=$tmp/vigil-bench-report-$name/vigil.sqlite3
    echo
    echo "== $name: $(cat "$tmp/vigil-bench-report-$name.txt")"
    echo "   rows: $(sqlite3 "$db" "SELECT (SELECT count(*) FROM sessions) || ' sessions, ' || (SELECT count(*) FROM state_changes) || ' state changes, ' || (SELECT count(*) FROM episodes) || ' episodes, ' || (SELECT count(*) FROM alarms) || ' alarms, ' || (SELECT count(*) FROM gaps) || ' gaps'"); $(du -h "$db" | cut -f1) on disk"
    args=(report --data-dir "$(dirname "$db")" --last all --now 2026-11-22T12:00:00Z --time-zone Europe/Berlin)
    hyperfine --warmup 3 --runs "$runs" -N --export-json "$tmp/vigil-bench-report-$name.json" \
        "$vigil ${args[*]} --format text" "$vigil ${args[*]} --format json" 2>/dev/null | grep -E "Time|Range|±|Benchmark" || true
    /usr/bin/time -f "peak memory (json): %M KB" "$vigil" "${args[@]}" --format json >/dev/null
done
