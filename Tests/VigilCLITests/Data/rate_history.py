#!/usr/bin/env python3
"""Recordings of a week where volume and rate disagree, for the report's highlights.

Monday to Friday the person works an hour at 09:00 (UTC) and walks away twice for 12 minutes, then
works a quarter of an hour at 16:00 without a break. By minutes 09:00 is the most productive hour;
by how well the person focuses it is the worst and the most procrastinated, and 16:00 the best.
One night (Wednesday) they sit down at 02:00 for ten minutes and leave after three: too little
judged time to name 02:00 anything.

Usage: rate_history.py DIR   (writes one Vigil recording per session into DIR)
"""
import json
import os
import sys


def recording(path, start, minutes, away):
    """Typing in 5-second windows, except during the `away` stretches (minute from, minute to)."""
    lines = [json.dumps({"vigil": "recording", "version": 1, "start": start, "source": "rate_history.py",
                         "planned": minutes * 60})]
    last_input = 0
    for t in range(5, minutes * 60 + 1, 5):
        gone = any(a * 60 <= t < b * 60 for a, b in away)
        if gone:
            lines.append(json.dumps({"t": t, "kind": "input", "window": 5, "idle": t - last_input}))
        else:
            last_input = t
            lines.append(json.dumps({"t": t, "kind": "input", "window": 5, "keys": 12, "idle": 0.4}))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for day in range(1, 6):  # 2026-06-01 is a Monday
        date = f"2026-06-0{day}"
        recording(f"{out}/{date}-0900.jsonl", f"{date}T09:00:00Z", 60, [(10, 22), (35, 47)])
        recording(f"{out}/{date}-1600.jsonl", f"{date}T16:00:00Z", 15, [])
    recording(f"{out}/2026-06-03-0200.jsonl", "2026-06-03T02:00:00Z", 10, [(3, 10)])


main()
