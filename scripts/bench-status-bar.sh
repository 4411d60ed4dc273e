#!/usr/bin/env bash
# What `vigil status --format waybar|i3blocks|polybar` costs a status bar that runs it every
# second (issue 37), with a live session running: CPU and wall time of each run and peak memory,
# side by side in one run with the floor of any process (`true`), of any Swift program that uses
# Foundation (a one-line program, linked as Vigil is), and with the script a person would write
# instead (Python reading the same status file and printing waybar's JSON).
#
# Usage, from anywhere in the repository:
#   scripts/bench-status-bar.sh [RUNS]     RUNS timed runs of each (default 200)
# Prints min / median / max of CPU (user + system) and wall time in ms, the peak RSS in MB, and
# the median CPU of each against Python's.
set -euo pipefail
runs=${1:-200}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
bash scripts/build-release.sh --product vigil >/dev/null
vigil=$(bash scripts/build-release.sh --show-bin-path)/vigil

floor=$tmp/vigil-bench-floor
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0)\n' >"$floor.swift"
swiftc -O -static-stdlib "$floor.swift" -o "$floor" 2>/dev/null

data=$(mktemp -d "$tmp/vigil-bench-status.XXXXXX")
# A live session for the bars to show (its sensors may all be missing here: the status is the same).
"$vigil" start --task thesis --minutes 30 --plain --data-dir "$data" >/dev/null 2>&1 &
session=$!
trap 'kill $session 2>/dev/null; wait $session 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do [[ -f $data/running-session.json ]] && break; sleep 0.1; done
[[ -f $data/running-session.json ]] || { echo "the session did not start" >&2; exit 1; }

python3 - "$runs" "$vigil" "$floor" "$data" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, vigil, floor, data = int(sys.argv[1]), *sys.argv[2:]
script = ("import json,sys; s=json.load(open(sys.argv[1])); "
          "print(json.dumps({'text': f\"{s.get('task') or 'focus'} · {s['state']}\", 'class': s['state'].split()[0]}))")
commands = [
    ("true", ["/bin/true"]),
    ("floor", [floor]),
    ("python", ["/usr/bin/python3", "-S", "-c", script, data + "/running-session.json"]),
    ("waybar", [vigil, "status", "--format", "waybar", "--data-dir", data]),
    ("i3blocks", [vigil, "status", "--format", "i3blocks", "--data-dir", data]),
    ("polybar", [vigil, "status", "--format", "polybar", "--data-dir", data]),
]
quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
def run(argv):
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start
def peak(argv):
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "vigil-bench-status-rss")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return int(f.read().split()[-1]) / 1024
samples = {name: [] for name, _ in commands}
for name, argv in commands:
    run(argv)  # warm-up: the page cache
for i in range(runs):
    # Interleaved, each round in another order, so a busy moment falls on all alike.
    order = commands if i % 2 == 0 else list(reversed(commands))
    for name, argv in order:
        samples[name].append(run(argv))
python = statistics.median(s[0] for s in samples["python"])
print("command    CPU ms min / median / max   wall ms min / median / max   peak RSS   CPU vs python")
for name, argv in commands:
    cpu = [s[0] * 1000 for s in samples[name]]; wall = [s[1] * 1000 for s in samples[name]]
    print(f"{name:10} {min(cpu):6.1f} {statistics.median(cpu):6.1f} {max(cpu):6.1f}"
          f"   {min(wall):6.1f} {statistics.median(wall):6.1f} {max(wall):6.1f}   {peak(argv):5.1f} MB"
          f"   {statistics.median(cpu) / 1000 / max(python, 1e-9):5.2f}x")
PY
