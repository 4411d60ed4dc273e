#!/usr/bin/env bash
# `vigil report --last all` on years of events (issues 5 and 18). See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-report.sh [RUNS]                  this tree: timed runs of each report after 3
#                                                   warm-ups (hyperfine, default 30)
#   scripts/bench-report.sh --compare BASE [RUNS]   side by side, interleaved: BASE's release build,
#                                                   this tree's, and the raw SQL (default 20 runs)
# Environment:
#   TMPDIR   where the generated logs (and, with --compare, the base's worktree) go (default
#            /tmp); they are made once, then reused.
#
# Builds vigil in release, then fills event logs with `vigil simulate` (the real state machine fed
# a simulated person's sensor samples, seed 1, Europe/Berlin, ending 2026-11-21):
#   person-5y   five years of the default profile: 3-7 sessions of 25-90 min on most weekdays;
#   stress-5y   five years of --stress: 24-32 Pomodoros back to back every day, distractions seven
#               times as often, a thinking pause every few minutes;
#   stress-2m   --stress for 4200 days (11.5 years), about two million events (not with --compare).
# Without --compare: times `vigil report --last all` (text and JSON, to /dev/null) on each with
# hyperfine, then prints each log's rows and the report's peak resident memory (/usr/bin/time).
#
# With --compare: builds BASE in a git worktree under $TMPDIR (shared with bench-compare.sh), and
# on person-5y and stress-5y runs, round after round in a rotating order, whole processes of
#   base, this   `vigil report --last all --format text|json|html` (to /dev/null), as of
#                2026-11-21 20:00 UTC in Europe/Berlin;
#   sql rows     the sqlite3 CLI running the queries this tree's report runs, every row printed
#                (to /dev/null): reading what the report reads, as text;
#   sql sums     the same queries with each column summed instead of printed: what SQLite alone
#                spends finding and decoding those rows, the floor for any report read from them;
# and prints min / median / max of the CPU time (user + system, from getrusage: these machines
# are shared, and a neighbour's load stretches wall time far more than the CPU time a process
# uses) and of the wall time of each, and whether base and this tree wrote the same bytes.
set -euo pipefail

base=""
if [[ ${1:-} == --compare ]]; then
    base=${2:?usage: $0 --compare BASE_REV [RUNS]}
    shift 2
fi
runs=${1:-$([[ -n $base ]] && echo 20 || echo 30)}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--compare BASE_REV] [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift sqlite3 $([[ -n $base ]] && echo python3 git || echo hyperfine); do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install hyperfine sqlite3)" >&2; exit 1; }
done

if [[ -n $base ]]; then
    source scripts/bench-builds.sh
    build_base_and_this "$base"
    vigil=$new
else
    bash scripts/build-release.sh
    vigil=$(bash scripts/build-release.sh --show-bin-path)/vigil
fi
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

rows() { # rows DB: the log's rows by table
    sqlite3 "$1" "SELECT (SELECT count(*) FROM sessions) || ' sessions, ' || (SELECT count(*) FROM state_changes) || ' state changes, ' || (SELECT count(*) FROM episodes) || ' episodes, ' || (SELECT count(*) FROM alarms) || ' alarms, ' || (SELECT count(*) FROM gaps) || ' gaps'"
}

if [[ -n $base ]]; then
    # The report's queries as this tree runs them (StatisticsReader.swift), for sessions that
    # started before the end of 2026-11-21 in Europe/Berlin (2026-11-21T23:00:00Z).
    end=1795302000000
    sql_rows=$tmp/vigil-bench-report-rows.sql
    sql_sums=$tmp/vigil-bench-report-sums.sql
    cat >"$sql_rows" <<EOF
SELECT (SELECT max(id) FROM sessions) - (SELECT min(id) FROM sessions) + 1;
SELECT id, task, started_ms, coalesce(ended_ms, last_event_ms), outcome, last_event_ms, source FROM sessions NOT INDEXED WHERE started_ms < $end;
SELECT session_id, at_ms, from_state IN ('pause', 'break'), to_state IN ('pause', 'break') FROM state_changes INDEXED BY state_changes_pauses WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break') ORDER BY session_id, at_ms;
SELECT session_id, from_ms, to_ms FROM gaps;
SELECT (SELECT max(id) FROM episodes) - (SELECT min(id) FROM episodes) + 1;
SELECT session_id, number, started_ms, ended_ms, cause FROM episodes;
SELECT (SELECT max(id) FROM alarms) - (SELECT min(id) FROM alarms) + 1;
SELECT session_id, episode_number, at_ms, repeat, cleared_ms FROM alarms;
EOF
    cat >"$sql_sums" <<EOF
SELECT count(*), sum(id), sum(length(task)), sum(started_ms), sum(coalesce(ended_ms, last_event_ms)), sum(length(outcome)), sum(last_event_ms), sum(length(source)) FROM sessions NOT INDEXED WHERE started_ms < $end;
SELECT count(*), sum(session_id), sum(at_ms), sum(from_state IN ('pause', 'break')), sum(to_state IN ('pause', 'break')) FROM state_changes INDEXED BY state_changes_pauses WHERE to_state IN ('pause', 'break') OR from_state IN ('pause', 'break');
SELECT count(*), sum(session_id), sum(from_ms), sum(to_ms) FROM gaps;
SELECT count(*), sum(session_id), sum(number), sum(started_ms), sum(ended_ms), sum(length(cause)) FROM episodes;
SELECT count(*), sum(session_id), sum(episode_number), sum(at_ms), sum(repeat), sum(cleared_ms) FROM alarms;
EOF
    echo "Whole processes, $runs runs of each, interleaved; CPU = user + system; min / median / max in ms."
    echo "base = $rev, this = $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources || echo '+changes'), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
    for name in person-5y stress-5y; do
        dir=$tmp/vigil-bench-report-$name
        echo
        echo "== $name: $(rows "$dir/vigil.sqlite3"); $(du -h "$dir/vigil.sqlite3" | cut -f1) on disk"
        python3 - "$runs" "$old" "$new" "$dir" "$sql_rows" "$sql_sums" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, old, new, data, sql_rows, sql_sums = int(sys.argv[1]), *sys.argv[2:]
db = os.path.join(data, "vigil.sqlite3")
report = ["report", "--data-dir", data, "--last", "all", "--now", "2026-11-21T20:00:00Z", "--time-zone", "Europe/Berlin", "--format"]
commands = {}
for f in ("text", "json", "html"):
    commands[f"base {f}"] = [old, *report, f]
    commands[f"this {f}"] = [new, *report, f]
commands["sql rows"] = ["sqlite3", "-readonly", db, f".read {sql_rows}"]
commands["sql sums"] = ["sqlite3", "-readonly", db, f".read {sql_sums}"]

def run(argv, out=subprocess.DEVNULL):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall

same = {}
for f in ("text", "json", "html"):
    outputs = [subprocess.run(commands[f"{who} {f}"], capture_output=True, check=True).stdout for who in ("base", "this")]
    same[f] = outputs[0] == outputs[1]
names = list(commands)
cpu = {n: [] for n in names}
wall = {n: [] for n in names}
for n in names:  # warm-up: the page cache and the dynamic loader's
    run(commands[n])
for i in range(runs):
    k = i % len(names)
    for n in names[k:] + names[:k]:
        c, w = run(commands[n])
        cpu[n].append(c * 1000)
        wall[n].append(w * 1000)
def mmm(t):
    return f"{min(t):6.1f} {statistics.median(t):6.1f} {max(t):6.1f}"
print(f"{'':10} {'CPU: min median    max':>22}   {'wall: min median    max':>23}")
for n in names:
    note = ""
    if n.startswith("this "):
        f = n.split()[1]
        ratio = statistics.median(cpu[n]) / statistics.median(cpu["base " + f])
        note = f"  this/base CPU median {ratio:.2f}; output {'the same' if same[f] else 'DIFFERS'}"
    print(f"{n:10} {mmm(cpu[n])}   {mmm(wall[n])}{note}")
PY
    done
    exit 0
fi

make_log stress-2m --days 4200 --stress
for name in person-5y stress-5y stress-2m; do
    db=$tmp/vigil-bench-report-$name/vigil.sqlite3
    echo
    echo "== $name: $(cat "$tmp/vigil-bench-report-$name.txt")"
    echo "   rows: $(rows "$db"); $(du -h "$db" | cut -f1) on disk"
    args=(report --data-dir "$(dirname "$db")" --last all --now 2026-11-22T12:00:00Z --time-zone Europe/Berlin)
    hyperfine --warmup 3 --runs "$runs" -N --export-json "$tmp/vigil-bench-report-$name.json" \
        "$vigil ${args[*]} --format text" "$vigil ${args[*]} --format json" 2>/dev/null | grep -E "Time|Range|±|Benchmark" || true
    /usr/bin/time -f "peak memory (json): %M KB" "$vigil" "${args[@]}" --format json >/dev/null
done
