#!/usr/bin/env bash
# `vigil replay` of a 2,000,000-sample JSON Lines recording, this tree against an earlier revision,
# side by side in one run with the references `wc -l` and orjson reading the same file line by line
# (issue 18: replay at 10 M samples/s). See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-replay.sh BASE_REV [RUNS]     RUNS timed runs of each command (default 11)
# Environment:
#   TMPDIR       where the base build and the recording go (default /tmp)
#   BASE_BINARY  a release `vigil` already built at BASE_REV, used instead of building one
#
# Builds `vigil` in release at BASE_REV (in a git worktree under $TMPDIR, shared with
# bench-compare.sh) and in this tree, writes the recording once (scripts/bench-data.py,
# deterministic), checks that both builds print the same timeline (`replay --json`), then measures
# the CPU time (user + system, from getrusage) of each whole process, the four commands
# interleaved, and prints min / median / max, and samples/s and MB/s at the median and minimum.
set -euo pipefail

base=${1:?usage: $0 BASE_REV [RUNS]}
runs=${2:-11}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 BASE_REV [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift python3 git wc; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done
python3 -c 'import orjson' 2>/dev/null || { echo "$0: needs orjson (apt-get install python3-orjson)" >&2; exit 1; }

if [[ -n ${BASE_BINARY:-} ]]; then
    rev=$(git rev-parse --short "$base")
    old=$BASE_BINARY
    bash scripts/build-release.sh >/dev/null
    new=$(bash scripts/build-release.sh --show-bin-path)/vigil
else
    source scripts/bench-builds.sh
    build_base_and_this "$base"
fi

recording=$tmp/vigil-bench-replay-2000000.jsonl
[[ -s $recording ]] || python3 scripts/bench-data.py "$recording"
if ! cmp -s <("$old" replay --json "$recording") <("$new" replay --json "$recording"); then
    echo "$0: the two builds print different timelines for $recording" >&2
    exit 1
fi

python3 - "$runs" "$old" "$new" "$recording" "$rev" <<'PY'
import os, resource, statistics, subprocess, sys
runs, old, new, recording, rev = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
samples = sum(1 for _ in open(recording, "rb")) - 1  # all but the header
megabytes = os.path.getsize(recording) / 1e6
orjson = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'): orjson.loads(line)\n"
commands = {
    f"vigil replay, base {rev}": [old, "replay", recording],
    "vigil replay, this tree": [new, "replay", recording],
    "wc -l": ["wc", "-l", recording],
    "orjson, line by line": [sys.executable, "-c", orjson, recording],
}
def cpu(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
times = {name: [] for name in commands}
for command in commands.values():  # warm-up: the page cache and the dynamic loader's
    cpu(command)
names = list(commands)
for i in range(runs):
    for name in names[i % len(names):] + names[:i % len(names)]:  # a different order every run
        times[name].append(cpu(commands[name]))
print(f"{recording}: {samples:,} samples, {megabytes:.1f} MB; CPU time (user + system) of the whole process,")
print(f"min / median / max of {runs} runs each, interleaved")
print(f"{'':28} {'min':>8} {'median':>8} {'max':>8}   {'M samples/s':>18}   {'MB/s':>14}")
for name, t in times.items():
    lo, mid, hi = min(t), statistics.median(t), max(t)
    print(f"{name:28} {lo*1000:6.0f}ms {mid*1000:6.0f}ms {hi*1000:6.0f}ms   "
          f"{samples/mid/1e6:7.2f} ({samples/lo/1e6:5.2f} best)   {megabytes/mid:6.0f} ({megabytes/lo:5.0f} best)")
base, this = statistics.median(times[names[0]]), statistics.median(times[names[1]])
print(f"this tree / base: {this/base:.3f} at the median, {min(times[names[1]])/min(times[names[0]]):.3f} at the minimum")
PY
