#!/usr/bin/env bash
# `vigil replay` and `vigil inspect` (the reading alone) of a 92 MB ActivityWatch export (450,000 window, 45,000 afk and
# 53,252 browser tab events, as aw-server's own export writes them: scripts/bench-activitywatch-data.py) beside
# `python3 -c 'import json; json.load(open(F))'` on the same file, interleaved in one run: wall
# time, CPU time and peak resident memory of each process, min / median / max, and the ratios of
# the medians and of the minimums (issue 33: within 100 MB and within 2x Python's parse). See
# BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-activitywatch.sh [RUNS]     RUNS measured runs of each (default 5)
# Environment:
#   TMPDIR   where the export and a scratch home go (default /tmp)
#   VIGIL    the binary to measure (default .build/release/vigil, built if missing)
#   VIGIL_BASE  another build to measure beside it, interleaved (e.g. from before a change)
set -euo pipefail

runs=${1:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install time)" >&2; exit 1; }
done
vigil=${VIGIL:-.build/release/vigil}
[[ -x $vigil ]] || swift build -c release --product vigil

export_file=$tmp/vigil-bench-activitywatch-tabs.json
[[ -s $export_file ]] || python3 scripts/bench-activitywatch-data.py "$export_file"
echo "export: $export_file, $(stat -c %s "$export_file") bytes"
home=$(mktemp -d "$tmp/vigil-bench-aw.XXXXXX")
trap 'rm -rf "$home"' EXIT

python3 - "$runs" "$vigil" "$export_file" "$home" "${VIGIL_BASE:-}" <<'PY'
import os, re, statistics, subprocess, sys, time
runs, vigil, export, home, base = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data", XDG_STATE_HOME=home + "/state")
commands = {
    "python3 json.load": ["python3", "-c", "import json, sys; json.load(open(sys.argv[1]))", export],
    "vigil inspect": [vigil, "inspect", export],
    "vigil replay": [vigil, "replay", export],
}
if base:
    commands["base inspect"] = [base, "inspect", export]
    commands["base replay"] = [base, "replay", export]
def measure(args):
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {r.stderr[-2000:]}")
    def field(label):
        return float(re.search(rf"{re.escape(label)}: ([0-9.]+)", r.stderr).group(1))
    return wall, field("User time (seconds)") + field("System time (seconds)"), field("Maximum resident set size (kbytes)") / 1024
results = {name: [] for name in commands}
for i in range(runs):
    order = list(commands.items()) if i % 2 == 0 else list(reversed(commands.items()))
    for name, args in order:
        results[name].append(measure(args))
def row(values, unit, digits):
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / {max(values):.{digits}f} {unit}"
print(f"min / median / max of {runs} runs each, interleaved")
for name, rs in results.items():
    print(f"{name:18}  wall {row([r[0] for r in rs], 's', 3):26}  CPU {row([r[1] for r in rs], 's', 3):26}  peak RSS {row([r[2] for r in rs], 'MB', 1)}")
p = results["python3 json.load"]
for name in [n for n in commands if n != "python3 json.load"]:
    v = results[name]
    for label, k in (("wall", 0), ("CPU", 1)):
        print(f"{name} / python, {label}: {statistics.median([r[k] for r in v]) / statistics.median([r[k] for r in p]):.2f}x of the medians, "
              f"{min(r[k] for r in v) / min(r[k] for r in p):.2f}x of the minimums")
PY
