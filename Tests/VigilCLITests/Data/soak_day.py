#!/usr/bin/env python3
"""Writes a recording of a long working day with faults, for the soak test (ReliabilityTests).

Eight hours, 09:00 to 17:00, one session: typing, a coffee break nobody declared, the keyboard
unplugged and plugged back in, a conversation next to the desk, the PulseAudio server dying and
coming back, an app-switching storm, a declared pause, a walk out of the building, gpsd dying and
coming back, the laptop suspended (no samples at all), a lunch break, a snoozed alarm, and an
absence that is still going on when the session ends. The people, rooms and receivers are the
generators of scripts/make-samples.py (imported, not copied); the faults are written here the way
the detectors report them (status lines, and no samples while a sensor is gone).

Deterministic for a seed. Usage: soak_day.py OUTPUT [SEED]
"""
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("make_samples", os.path.join(HERE, "..", "..", "..", "scripts", "make-samples.py"))
ms = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ms)

M = 60.0
MINUTES = 480


def between(t, a, b):
    return a * M < t <= b * M


def main(out, seed):
    rng = random.Random(seed)
    person = ms.Person(rng)
    lines = []

    # What the person does, minute by minute.
    def mode(t):
        if between(t, 60, 75): return "away"          # coffee, not declared
        if between(t, 180, 210): return "away"        # a declared pause
        if between(t, 213, 236): return "away"        # walks out of the building
        if between(t, 300, 345): return "away"        # lunch, a declared break
        if between(t, 380, 396): return "away"        # away again; the alarm is snoozed once
        if between(t, 455, 480): return "away"        # gone before the end of the session
        if between(t, 395, 397): return "bump"
        return "typing"

    unplugged = (90, 100)       # no input devices: no input samples
    audio_dead = (140, 150)     # PulseAudio killed and restarted: no levels
    gps_dead = (240, 250)       # gpsd gone: no fixes
    suspended = (250, 280)      # the lid closed: nothing at all

    def silent(t, span):
        return between(t, *span)

    for i in range(1, int(MINUTES * M / ms.WINDOW) + 1):
        end = i * ms.WINDOW
        rec, idle = person.window(end, mode(end))
        rec["idle"] = idle
        if 160 * M < end <= 170 * M:  # a storm of app switches
            for _ in range(rng.choice([1, 1, 2, 3])):
                k = rng.choice(["alt_tab", "alt_tab", "super", "ctrl_tab", "swipes", "workspace"])
                rec[k] = rec.get(k, 0) + 1
        if not silent(end, unplugged) and not silent(end, suspended):
            lines.append(rec)

    for s in range(1, MINUTES * 60 + 1):
        t = float(s)
        if silent(t, audio_dead) or silent(t, suspended):
            continue
        level = -52.0
        if between(t, 120, 138):  # a conversation next to the desk
            level = -41.0 if (t % 20) > 17 else -23.0
        lines.append(ms.audio(rng, t, level))

    for s in range(5, MINUTES * 60 + 1, 5):
        t = float(s)
        if silent(t, gps_dead) or silent(t, suspended):
            continue
        north = 0.0
        if between(t, 214, 235):  # out of the building and back: 1.3 m/s out to 600 m, then back
            d = min((t - 214 * M) * 1.3, 600.0, (235 * M - t) * 1.3)
            north = max(0.0, d)
        lines.append(ms.fix(rng, t, north, 0.0, rng.uniform(6, 20), 1.3 if 0 < north < 600 else 0.0))

    def status(minute, sensor, state, detail):
        lines.append({"t": minute * M, "kind": "status", "sensor": sensor, "state": state, "detail": detail})

    status(unplugged[0], "input", "unavailable", "no input devices: the keyboard was unplugged")
    status(unplugged[1], "input", "available", "2 input devices")
    status(audio_dead[0], "audio", "lost", "the PulseAudio server went away; reconnecting")
    status(audio_dead[1], "audio", "available", "recording from the default source")
    status(gps_dead[0], "location", "lost", "gpsd at localhost:2947 went away; reconnecting")
    status(gps_dead[1] + 0.5, "location", "available", "fix from gpsd at localhost:2947")

    def control(minute, action):
        lines.append({"t": minute * M, "kind": "control", "action": action})

    control(180, "pause")
    control(210, "resume")
    control(300, "break")
    control(345, "resume")
    control(388, "snooze")

    order = ["input", "audio", "location", "status", "control"]
    lines.sort(key=lambda r: (r["t"], order.index(r["kind"])))
    header = {"vigil": "recording", "version": 1, "start": "2026-03-16T09:00:00Z",
              "source": "Tests/VigilCLITests/Data/soak_day.py (synthetic, seeded %d)" % seed,
              "note": "a working day with faults", "task": "soak"}
    with open(out, "w") as f:
        f.write(ms.line(header) + "\n")
        for r in lines:
            f.write(ms.line(r) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
