#!/usr/bin/env python3
"""Writes the 2,000,000-sample replay benchmark recording (scripts/bench-compare.sh).

A day-long mix as the live detectors would record it: microphone levels once a second, an input
window every 5 s (typing with pauses), a GPS fix every 2 s, in Vigil's JSON Lines format
(docs/recording-format.md). Deterministic: Python's Mersenne Twister with seed 42.

Usage: scripts/bench-data.py OUT [SAMPLES]
"""
import random
import sys


def number(v):
    return str(int(v)) if v == int(v) else repr(v)


def main():
    out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
    rng = random.Random(42)
    written, second, last_input = 0, 0, 0.0
    with open(out, "w") as f:
        f.write('{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z","source":"scripts/bench-data.py"}\n')
        while written < count:
            second += 1
            lufs = round(-50 + rng.uniform(0, 6), 1)
            f.write(f'{{"t":{second},"kind":"audio","rms":{number(round(lufs - 1.5, 1))},"peak":{number(round(lufs + 11, 1))},"lufs":{number(lufs)}}}\n')
            written += 1
            if second % 5 == 0 and written < count:
                typing = rng.random() < 0.85
                keys = rng.randint(1, 20) if typing else 0
                if keys:
                    last_input = second - round(rng.uniform(0.05, 1.5), 2)
                travel = round(rng.uniform(0, 600), 1) if typing else 0
                clicks = rng.randint(0, 2)
                line = f'{{"t":{second},"kind":"input","window":5'
                if keys:
                    line += f',"keys":{keys}'
                if travel:
                    line += f',"travel":{number(travel)}'
                if clicks:
                    line += f',"clicks":{clicks}'
                f.write(line + f',"idle":{number(round(second - last_input, 2))}}}\n')
                written += 1
            if second % 2 == 0 and written < count:
                lat = round(52.2053 + rng.uniform(-1e-4, 1e-4), 7)
                lon = round(0.1218 + rng.uniform(-1e-4, 1e-4), 7)
                acc = round(rng.uniform(8, 30), 1)
                f.write(f'{{"t":{second},"kind":"location","lat":{number(lat)},"lon":{number(lon)},"acc":{number(acc)},"speed":0.1,"mode":3}}\n')
                written += 1


if __name__ == "__main__":
    main()
