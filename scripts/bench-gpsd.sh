#!/usr/bin/env bash
# Peak memory of `vigil inspect` and `vigil replay` on a gpsd log of a million reports, this tree
# against an earlier revision, side by side in one run (issue 17: the log was read whole). See
# BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-gpsd.sh BASE_REV [RUNS]     RUNS measured runs of each command (default 3)
# Environment:
#   TMPDIR   where the base build, the log and the results go (default /tmp)
#
# Builds `vigil` in release at BASE_REV (in a git worktree under $TMPDIR, shared with
# bench-compare.sh) and in this tree, writes the log once (scripts/bench-gpsd-data.py: 1,000,000
# TPV reports at 10 Hz with a SKY report a second, deterministic), then runs each command with
# /usr/bin/time -v, base and this tree interleaved, and prints the peak resident memory ("Maximum
# resident set size") and the CPU time (user + system) of each: min / median / max.
set -euo pipefail

base=${1:?usage: $0 BASE_REV [RUNS]}
runs=${2:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 BASE_REV [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift python3 git /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install time)" >&2; exit 1; }
done

source scripts/bench-builds.sh
build_base_and_this "$base"

log=$tmp/vigil-bench-gpsd-1000000.json
[[ -s $log ]] || python3 scripts/bench-gpsd-data.py "$log"
echo "log: $log, $(du -h "$log" | cut -f1), $(grep -c '"class":"TPV"' "$log") TPV reports"

compare() { # compare NAME ARGS...: both builds, interleaved, peak RSS and CPU time of each process
    python3 - "$runs" "$old" "$new" "$@" <<'PY'
import re, statistics, subprocess, sys
runs, old, new, name, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
def measure(binary):
    r = subprocess.run(["/usr/bin/time", "-v", binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} failed: {r.stderr[-2000:]}")
    def field(label):
        return float(re.search(rf"{re.escape(label)}: ([0-9.]+)", r.stderr).group(1))
    return field("Maximum resident set size (kbytes)") / 1024, field("User time (seconds)") + field("System time (seconds)")
results = {"base": [], "this": []}
for i in range(runs):
    order = [("base", old), ("this", new)] if i % 2 == 0 else [("this", new), ("base", old)]
    for label, binary in order:
        results[label].append(measure(binary))
def row(values, unit, digits):
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / {max(values):.{digits}f} {unit}"
for label in ("base", "this"):
    rss = [r[0] for r in results[label]]
    cpu = [r[1] for r in results[label]]
    print(f"{name:8} {label}  peak RSS {row(rss, 'MB', 1):28}  CPU {row(cpu, 's', 2)}")
PY
}

echo "min / median / max of $runs runs each, base and this tree interleaved; base = $rev"
compare inspect inspect "$log"
compare replay replay "$log"
