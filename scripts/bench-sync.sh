#!/usr/bin/env bash
# Sync's figures (issue 19), against a private PostgreSQL server on loopback started here:
#   1. the first sync of five years of one device's history (a new database each run);
#   2. an incremental sync of one day: the same log, synced, then given one more day;
#   3. `report --last all` over 10 devices × 1 year, from the log that pulled them all, next to
#      one device's 10 years (as many sessions, no overlap across devices) and one device's year.
# Sync's figures are wall time of the whole `vigil-sync` (connection, TLS off on loopback, both
# directions), and its CPU; the server's CPU is not counted.
#
# Usage: scripts/bench-sync.sh [RUNS]     (default 3; each figure is min / median / max)
# Needs PostgreSQL (scripts/setup.sh --tests installs it) and the release build (made here).
set -euo pipefail
runs=${1:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
bash scripts/build-release.sh >/dev/null
bin=$(bash scripts/build-release.sh --show-bin-path)
vigil=$bin/vigil
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

work=$(mktemp -d "${TMPDIR:-/tmp}/vigil-bench-sync.XXXXXX")
port=$((20000 + RANDOM % 20000))
as=()
if [[ $(id -u) -eq 0 ]]; then as=(runuser -u nobody --); chown nobody "$work"; fi
echo "bench" > "$work/pw"; chmod 644 "$work/pw"
"${as[@]}" "$pgbin/initdb" -D "$work/data" -U vigil --auth=scram-sha-256 --pwfile="$work/pw" -E UTF8 >/dev/null
"${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -o "-p $port -k $work -c listen_addresses=127.0.0.1" start >/dev/null
trap '"${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1; rm -rf "$work"' EXIT
export PGPASSWORD=bench TZ=UTC
psql() { "$pgbin/psql" -h 127.0.0.1 -p "$port" -U vigil -X -q -t -A "$@"; }
url() { echo "postgres://vigil@127.0.0.1:$port/$1?sslmode=disable"; }
# One sync of the log in DIR with the database DB: CPU and wall seconds (getrusage of the child).
timed_sync() {
    python3 - "$bin/vigil-sync" "$1/vigil.sqlite3" "$(url "$2")" <<'PY'
import os, resource, sys, time
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[1], [sys.argv[1], "--log", sys.argv[2]], {**os.environ, "VIGIL_SYNC_URL": sys.argv[3]},
                     file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0, "vigil-sync failed"
print(f"{usage.ru_utime + usage.ru_stime:.3f} {time.perf_counter() - start:.3f} {usage.ru_maxrss / 1024:.1f}")
PY
}
summary() {
    python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
for i, name in enumerate(["CPU s", "wall s", "peak MB"]):
    v = [r[i] for r in rows]
    print(f"  {name:8} {min(v):8.3f} {statistics.median(v):8.3f} {max(v):8.3f}")'
}

today=$(date -u +%F)
echo "bench-sync: simulating five years (and the same history one day shorter)"
# The same seed and first day make the shorter history the longer one's prefix, id for id; the
# last day is the latest one the simulated person worked.
for back in $(seq 0 14); do
    last=$(date -u -d "$back days ago" +%F)
    before=$(date -u -d "$((back + 1)) days ago" +%F)
    rm -rf "$work/full" "$work/prefix"
    "$vigil" simulate --days 1826 --seed 1 --until "$last" --data-dir "$work/full" >/dev/null
    "$vigil" simulate --days 1825 --seed 1 --until "$before" --data-dir "$work/prefix" >/dev/null
    [[ $(sqlite3 "$work/full/vigil.sqlite3" "SELECT count(*) FROM sessions") != $(sqlite3 "$work/prefix/vigil.sqlite3" "SELECT count(*) FROM sessions") ]] && break
done
sessions=$(sqlite3 "$work/prefix/vigil.sqlite3" "SELECT count(*) FROM sessions")
events=$(sqlite3 "$work/prefix/vigil.sqlite3" "SELECT (SELECT count(*) FROM state_changes) + (SELECT count(*) FROM episodes) + (SELECT count(*) FROM alarms) + (SELECT count(*) FROM gaps)")

echo "1. first sync of 5 years ($sessions sessions, $events events), $runs runs, min / median / max"
for r in $(seq "$runs"); do
    rm -rf "$work/first"; mkdir "$work/first"; cp "$work/prefix/vigil.sqlite3" "$work/first/"
    psql -d postgres -c "DROP DATABASE IF EXISTS first" -c "CREATE DATABASE first"
    timed_sync "$work/first" first
done | summary

echo "2. incremental sync of one day, $runs runs"
for r in $(seq "$runs"); do
    rm -rf "$work/inc"; mkdir "$work/inc"; cp "$work/prefix/vigil.sqlite3" "$work/inc/"
    psql -d postgres -c "DROP DATABASE IF EXISTS inc" -c "CREATE DATABASE inc"
    timed_sync "$work/inc" inc >/dev/null
    # The last day, as this device would have logged it: the rows the five-year log has beyond
    # the shorter one (the same seed and first day make the shorter one its prefix, id for id).
    last=$(sqlite3 "$work/inc/vigil.sqlite3" "SELECT max(id) FROM sessions")
    sqlite3 "$work/inc/vigil.sqlite3" "
        ATTACH '$work/full/vigil.sqlite3' AS f;
        INSERT INTO sessions (id, task, source, recording, started_ms, planned_s, ended_ms, outcome, active_s, focused_s, distracted_s,
            paused_s, gap_s, episodes, alarms, last_event_ms, task_id)
        SELECT id, task, source, recording, started_ms, planned_s, ended_ms, outcome, active_s, focused_s, distracted_s, paused_s, gap_s,
            episodes, alarms, last_event_ms, task_id FROM f.sessions WHERE id > $last;
        INSERT INTO state_changes SELECT * FROM f.state_changes WHERE session_id > $last;
        INSERT INTO episodes SELECT * FROM f.episodes WHERE session_id > $last;
        INSERT INTO alarms SELECT * FROM f.alarms WHERE session_id > $last;
        INSERT INTO gaps SELECT * FROM f.gaps WHERE session_id > $last;"
    timed_sync "$work/inc" inc
done | summary
echo "  (the day: $(sqlite3 "$work/inc/vigil.sqlite3" "SELECT count(*) FROM sessions") - $sessions sessions)"

echo "3. report --last all over 10 devices x 1 year, from the merged log"
psql -d postgres -c "DROP DATABASE IF EXISTS ten" -c "CREATE DATABASE ten"
for d in $(seq 10); do
    "$vigil" simulate --days 365 --seed "$((100 + d))" --until "$today" --data-dir "$work/d$d" >/dev/null
    "$vigil" device --name "device-$d" --data-dir "$work/d$d" >/dev/null
    timed_sync "$work/d$d" ten >/dev/null
done
timed_sync "$work/d1" ten >/dev/null
"$vigil" simulate --days 3650 --seed 7 --until "$today" --data-dir "$work/one10" >/dev/null
"$vigil" simulate --days 365 --seed 7 --until "$today" --data-dir "$work/one1" >/dev/null
echo "  sessions: merged $(sqlite3 "$work/d1/vigil.sqlite3" "SELECT count(*) FROM sessions"), one device 10 years $(sqlite3 "$work/one10/vigil.sqlite3" "SELECT count(*) FROM sessions"), one device 1 year $(sqlite3 "$work/one1/vigil.sqlite3" "SELECT count(*) FROM sessions")"
python3 - "$vigil" "$work" "$runs" <<'PY'
import os, statistics, sys, time
vigil, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]) * 3
quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
logs = [("10 devices x 1 year (merged)", f"{work}/d1"), ("1 device x 10 years", f"{work}/one10"), ("1 device x 1 year", f"{work}/one1")]
samples = {name: [] for name, _ in logs}
for _ in range(runs):  # interleaved
    for name, d in logs:
        argv = [vigil, "report", "--last", "all", "--format", "json", "--data-dir", d]
        pid = os.posix_spawn(vigil, argv, os.environ, file_actions=quiet)
        _, status, usage = os.wait4(pid, 0)
        samples[name].append((usage.ru_utime + usage.ru_stime) * 1000)
for name, v in samples.items():
    print(f"  {name:30} CPU ms {min(v):7.1f} {statistics.median(v):7.1f} {max(v):7.1f}")
a, b, c = (statistics.median(samples[n]) for n, _ in logs)
print(f"  ratio merged / one device's 10 years: {a / b:.2f}; merged / one device's year: {a / c:.2f} (medians)")
PY
