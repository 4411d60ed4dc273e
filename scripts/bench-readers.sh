#!/usr/bin/env bash
# The native readers side by side with references, in one run (issue 18: gpsd JSON and `libinput
# record` read in bounded memory at the JSON Lines reader's speed per byte). See BENCHMARKS.md,
# "Native readers (issue 18)".
#
# Usage, from anywhere in the repository:
#   scripts/bench-readers.sh BASE_REV [RUNS]     RUNS measured runs of each command (default 5)
# Environment:
#   TMPDIR   where the base build, the inputs and the results go (default /tmp)
#
# Builds `vigil` in release at BASE_REV (in a git worktree under $TMPDIR, shared with the other
# bench-*.sh) and in this tree, writes the inputs once (deterministic generators):
#   gpsd      172,800 and 1,000,000 TPV reports (scripts/bench-gpsd-data.py: 10 Hz, every field gpsd
#             3.22 sends, a SKY report a second);
#   libinput  a day of typing on one keyboard, 170 MB (scripts/bench-libinput-data.py), with the
#             `# Current time is` comments of libinput 1.20+ and without them (as older versions
#             wrote it: the reader then reads the file's end for its start), and its first hour;
#   jsonl     Vigil's own JSON Lines, 2,000,000 samples (scripts/bench-data.py), the reader the
#             others are measured against per byte;
# then runs each command, interleaved (base and this tree, the references between), and prints for
# each the CPU time of the whole process (user + system, from wait4's rusage), min / median / max,
# the bytes per CPU second at the median, and the peak resident memory (/usr/bin/time's "%M") at the
# median.
# The references read the same file line by line: CPython's json module and orjson for the JSON
# files; for the libinput file a CPython loop that splits each event line into its five integers,
# and PyYAML (with libyaml) on the first hour only (the whole day would take minutes and gigabytes);
# `wc -l` for all, the floor of reading the file.
set -euo pipefail

base=${1:?usage: $0 BASE_REV [RUNS]}
runs=${2:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 BASE_REV [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}
for tool in swift python3 git wc /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (apt-get install time)" >&2; exit 1; }
done
python3 -c 'import orjson' 2>/dev/null || { echo "$0: needs orjson (pip install orjson)" >&2; exit 1; }

source scripts/bench-builds.sh
build_base_and_this "$base"

gpsd_small=$tmp/vigil-bench-gpsd-172800.json
gpsd_large=$tmp/vigil-bench-gpsd-1000000.json
day=$tmp/vigil-bench-libinput-24h.yml
day_old=$tmp/vigil-bench-libinput-24h-no-wall-clock.yml
hour=$tmp/vigil-bench-libinput-1h.yml
jsonl=$tmp/vigil-bench-replay-2000000.jsonl
[[ -s $gpsd_small ]] || python3 scripts/bench-gpsd-data.py "$gpsd_small" 172800
[[ -s $gpsd_large ]] || python3 scripts/bench-gpsd-data.py "$gpsd_large"
[[ -s $day ]] || python3 scripts/bench-libinput-data.py "$day" 24
[[ -s $day_old ]] || python3 scripts/bench-libinput-data.py "$day_old" 24 --no-wall-clock
[[ -s $hour ]] || python3 scripts/bench-libinput-data.py "$hour" 1
[[ -s $jsonl ]] || python3 scripts/bench-data.py "$jsonl"

python3 - "$runs" "$old" "$new" "$rev" "$gpsd_small" "$gpsd_large" "$day" "$day_old" "$hour" "$jsonl" <<'PY'
import os, re, statistics, subprocess, sys

runs, old, new, rev = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
gpsd_small, gpsd_large, day, day_old, hour, jsonl = sys.argv[5:11]

JSON_LINES = r'''
import sys, {module} as m
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            m.loads(line)
            n += 1
'''
EVENT_LINES = r'''
import sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        s = line.lstrip()
        if s.startswith(b"- ["):
            values = [int(v) for v in s[3:s.index(b"]")].split(b",")]
            n += len(values)
'''
PYYAML = r'''
import sys, yaml
with open(sys.argv[1]) as f:
    yaml.load(f, Loader=yaml.CSafeLoader)
'''


def measure(argv):
    """CPU seconds (user + system) and peak RSS in MB of one run of argv. The CPU time is wait4's
    of /usr/bin/time, which includes the command it waited for; the peak RSS is the command's own as
    /usr/bin/time reports it (a process forked from this Python would count Python's 14 MB)."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(["/usr/bin/time", "-f", "peak-rss-kb %M", *argv], stdout=null, stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({p.returncode}): {err[-2000:].decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, int(re.findall(rb"peak-rss-kb (\d+)", err)[-1]) / 1024


def compare(title, path, commands):
    size = os.path.getsize(path)
    print(f"\n{title}: {os.path.basename(path)}, {size / 1e6:.1f} MB")
    for _, argv in commands:  # warm-up: the page cache and the dynamic loader's
        measure(argv)
    results = {label: [] for label, _ in commands}
    for i in range(runs):
        order = commands if i % 2 == 0 else list(reversed(commands))
        for label, argv in order:
            results[label].append(measure(argv))
    print(f"  {'':28} {'CPU s min / median / max':>28} {'MB/s':>8} {'peak RSS MB':>12}")
    for label, _ in commands:
        cpu = [r[0] for r in results[label]]
        rss = statistics.median(r[1] for r in results[label])
        median = statistics.median(cpu)
        rate = size / 1e6 / median if median > 0 else float("inf")
        row = f"{min(cpu):.3f} / {median:.3f} / {max(cpu):.3f}"
        print(f"  {label:28} {row:>28} {rate:8.0f} {rss:12.1f}")


py = sys.executable
print(f"min / median / max of {runs} runs each, interleaved; base = {rev}, this = the working tree")


def vigil_rows(path, commands=("inspect", "replay")):
    rows = []
    for cmd in commands:
        rows.append((f"vigil {cmd} (base)", [old, cmd, path]))
        rows.append((f"vigil {cmd} (this)", [new, cmd, path]))
    return rows


json_refs = lambda path: [
    ("CPython json, line by line", [py, "-c", JSON_LINES.format(module="json"), path]),
    ("orjson, line by line", [py, "-c", JSON_LINES.format(module="orjson"), path]),
    ("wc -l", ["wc", "-l", path]),
]
compare("JSON Lines (Vigil's recordings)", jsonl, vigil_rows(jsonl) + json_refs(jsonl))
compare("gpsd JSON, 172,800 reports", gpsd_small, vigil_rows(gpsd_small) + json_refs(gpsd_small))
compare("gpsd JSON, 1,000,000 reports", gpsd_large, vigil_rows(gpsd_large) + json_refs(gpsd_large))
line_ref = lambda path: [
    ("CPython, event lines split", [py, "-c", EVENT_LINES, path]),
    ("wc -l", ["wc", "-l", path]),
]
compare("libinput record, 24 h with wall-clock comments", day, vigil_rows(day) + line_ref(day))
compare("libinput record, 24 h without them", day_old, vigil_rows(day_old, ("inspect",)) + line_ref(day_old))
compare("libinput record, its first hour", hour, vigil_rows(hour, ("inspect",)) + [("PyYAML (libyaml), whole", [py, "-c", PYYAML, hour])] + line_ref(hour))
PY
