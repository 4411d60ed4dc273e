#!/usr/bin/env bash
# What a short command costs to start (issue 18): CPU time, wall time and peak memory of commands
# that open no sensor, for this tree's release build and a base revision's, interleaved in one run,
# next to the floor of any Swift program that uses Foundation (a one-line program, linked the way
# Vigil is) and of any process at all (`true`).
#
# Usage, from anywhere in the repository:
#   scripts/bench-startup.sh BASE_REV [RUNS]     RUNS timed runs of each command (default 30)
# Environment:
#   TMPDIR   where the base build and the floor program go (default /tmp)
#
# The base is built as it was at BASE_REV: by its own scripts/build-release.sh when it has one,
# else `swift build -c release` (the Swift runtime and Foundation as shared libraries); this tree as
# scripts/build-release.sh builds it. Prints, for
# each command and binary, min / median / max of the CPU time (user + system, getrusage) and of
# the wall time in ms, the peak RSS in MB, and the shared libraries the binary loads.
set -euo pipefail

base=${1:?usage: $0 BASE_REV [RUNS]}
runs=${2:-30}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 BASE_REV [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}

rev=$(git rev-parse --short "$base")
worktree=$tmp/vigil-bench-base-$rev
[[ -d $worktree ]] || git worktree add --detach "$worktree" "$rev" >/dev/null
if [[ -f $worktree/scripts/build-release.sh ]]; then
    # A base that links as this tree does (issue 18 on): built by its own script, so that what is
    # compared is the code, not the linking.
    bash "$worktree/scripts/build-release.sh" >/dev/null
    old=$(bash "$worktree/scripts/build-release.sh" --show-bin-path)/vigil
else
    # Its own build directory: bench-builds.sh builds the same worktree linked as this tree is.
    swift build -c release --product vigil --package-path "$worktree" --scratch-path "$worktree/.build-shared" >/dev/null
    old=$worktree/.build-shared/release/vigil
fi
new=$(bash scripts/build-release.sh --show-bin-path)/vigil
bash scripts/build-release.sh >/dev/null

# The floor: a Swift program that prints a date through Foundation, linked as Vigil is.
floor=$tmp/vigil-bench-floor
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0)\n' >"$floor.swift"
swiftc -O -static-stdlib "$floor.swift" -o "$floor" 2>/dev/null

data=$(mktemp -d "$tmp/vigil-bench-startup.XXXXXX")
trap 'rm -rf "$data"' EXIT
# A log for each build, made by it: an older build refuses a log a newer one has migrated.
"$old" task add "Write the report" --data-dir "$data/base" >/dev/null
"$new" task add "Write the report" --data-dir "$data/this" >/dev/null

for b in "$old" "$new"; do
    echo "$b: $(ldd "$b" | wc -l) shared libraries, $(du -m "$b" | cut -f1) MB"
done
python3 - "$runs" "$old" "$new" "$floor" "$data" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs, old, new, floor, data = int(sys.argv[1]), *sys.argv[2:]
commands = [
    ("--help", lambda d: ["--help"]),
    ("status", lambda d: ["status", "--data-dir", d]),
    ("task list", lambda d: ["task", "list", "--data-dir", d]),
    ("report", lambda d: ["report", "--data-dir", d, "--last", "7d"]),
]
quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
def run(argv):
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall, peak(argv)
peaks = {}
def peak(argv):
    # The peak RSS through /usr/bin/time, once per command: a child of this (large) Python process
    # would report Python's own resident size when it is larger than the command's.
    key = tuple(argv)
    if key not in peaks:
        out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "vigil-bench-startup-rss")
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            peaks[key] = int(f.read().split()[-1]) / 1024
    return peaks[key]
def line(name, label, samples):
    cpu = [s[0] * 1000 for s in samples]; wall = [s[1] * 1000 for s in samples]
    rss = max(s[2] for s in samples)
    print(f"{name:10} {label:5} cpu {min(cpu):6.1f} {statistics.median(cpu):6.1f} {max(cpu):6.1f}"
          f"   wall {min(wall):6.1f} {statistics.median(wall):6.1f} {max(wall):6.1f}   peak {rss:5.1f} MB")
print("command    build  CPU ms min / median / max   wall ms min / median / max   peak RSS")
for label, argv in [("true", ["/bin/true"]), ("floor", [floor])]:
    run(argv)
    line(label, "", [run(argv) for _ in range(runs)])
for name, args in commands:
    samples = {"base": [], "this": []}
    argv = {"base": [old, *args(data + "/base")], "this": [new, *args(data + "/this")]}
    for label in argv:
        run(argv[label])  # warm-up: the page cache
    for i in range(runs):
        for label in (("base", "this") if i % 2 == 0 else ("this", "base")):
            samples[label].append(run(argv[label]))
    for label in ("base", "this"):
        line(name, label, samples[label])
PY
