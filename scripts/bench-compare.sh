#!/usr/bin/env bash
# Side-by-side comparison of this tree against an earlier revision, in one run (issue 14: a
# refactoring must not make Vigil slower). See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-compare.sh BASE_REV [RUNS]     RUNS timed runs of each command (default 15)
# Environment:
#   TMPDIR   where the base build, the generated inputs and the results go (default /tmp)
#
# Builds `vigil` in release at BASE_REV (in a git worktree under $TMPDIR) and in this tree, then
# measures the CPU time (user + system, from getrusage) of whole processes, base and this tree
# interleaved, for each workload. CPU time rather than wall time: these machines are shared, and
# a neighbour's load stretches wall time far more than the CPU time the process itself uses.
#   replay    `vigil replay` of 2,000,000 samples in Vigil's JSON Lines format (audio every second,
#             input every 5 s, a fix every 2 s; scripts/bench-data.py, deterministic);
#   report    `vigil report --last all --format json` on five years of the default simulated person
#             (`vigil simulate --days 1826 --seed 1`, written once by the base build);
#   loudness  `vigil inspect` of a 10-minute 48 kHz stereo WAV (sox, repeatable pink noise):
#             K-weighting, momentary/short-term/integrated loudness.
# Prints min / median / max of each and the ratios (this tree / base) of the medians and minima.
set -euo pipefail

base=${1:?usage: $0 BASE_REV [RUNS]}
runs=${2:-15}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 BASE_REV [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift sox python3 git; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install sox)" >&2; exit 1; }
done

source scripts/bench-builds.sh
build_base_and_this "$base"

recording=$tmp/vigil-bench-replay-2000000.jsonl
[[ -s $recording ]] || python3 scripts/bench-data.py "$recording"
history=$tmp/vigil-bench-person-5y
[[ -s $history/vigil.sqlite3 ]] || "$old" simulate --data-dir "$history" --days 1826 --seed 1 --until 2026-11-21 --time-zone Europe/Berlin >/dev/null
# Each build reads its own copy: a build with a newer log schema migrates the log it opens (once,
# here, untimed), and the base could then no longer read it.
rm -rf "$history-this" && cp -r "$history" "$history-this"
"$new" report --data-dir "$history-this" --last 1d --time-zone Europe/Berlin >/dev/null
wav=$tmp/vigil-bench-10min.wav
[[ -s $wav ]] || sox -R -n -r 48000 -c 2 -b 16 "$wav" synth 600 pinknoise vol 0.3

compare() { # compare NAME ARGS...: both builds, interleaved, CPU time of each whole process
    HISTORY_BASE=$history HISTORY_THIS=$history-this python3 - "$runs" "$old" "$new" "$@" <<'PY'
import os, resource, statistics, subprocess, sys
runs, old, new, name, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
def cpu(binary):
    # @HISTORY@: the build's own copy of the simulated history.
    history = os.environ["HISTORY_THIS" if binary == new else "HISTORY_BASE"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, *[a.replace("@HISTORY@", history) for a in args]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
times = {"base": [], "this": []}
for b in (old, new):  # warm-up: the page cache and the dynamic loader's
    cpu(b)
for i in range(runs):
    order = [("base", old), ("this", new)] if i % 2 == 0 else [("this", new), ("base", old)]
    for label, binary in order:
        times[label].append(cpu(binary))
def row(t):
    return f"{min(t)*1000:8.1f} {statistics.median(t)*1000:8.1f} {max(t)*1000:8.1f}"
ratio = statistics.median(times["this"]) / statistics.median(times["base"])
best = min(times["this"]) / min(times["base"])
print(f"{name:9} base {row(times['base'])}  this {row(times['this'])}  this/base median {ratio:5.3f}, min {best:5.3f}")
PY
}

echo "CPU time (user + system) of the whole process, min / median / max in ms, $runs runs each,"
echo "base and this tree interleaved; base = $rev"
compare replay replay "$recording"
compare report report --data-dir @HISTORY@ --last all --now 2026-11-22T12:00:00Z --time-zone Europe/Berlin --format json
compare loudness inspect "$wav"
