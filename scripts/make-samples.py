#!/usr/bin/env python3
"""Generates the scenario recordings in Samples/ and their ground truth (expect.json).

Each scenario is written from a script of what the person does minute by minute (typing,
thinking, away, talking, walking out). The generator knows that script, so it writes the ground
truth independently of Vigil's engine: which distraction episodes a careful observer would note,
when they started and ended. Tests compare the engine's timeline with this ground truth (with
tolerances), and separately with the golden timelines that the engine produced and a person
reviewed.

Deterministic: a fixed seed per scenario, Python's Mersenne Twister (stable across versions for
random() and the functions built on it). Run:  python3 scripts/make-samples.py
"""
import json
import math
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Samples")
WINDOW = 5.0  # input windows, seconds (what the live libinput detector aggregates over)

# A workplace: an office building (coordinates of a public square, not of a person).
HOME_LAT, HOME_LON = 52.20530, 0.12180


def num(v):
    """JSON number as Vigil's writer prints it: integers bare, others shortest round-trip."""
    if isinstance(v, int):
        return str(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(round(v, 6))


def line(obj):
    return "{" + ",".join('"%s":%s' % (k, num(v) if isinstance(v, (int, float)) else json.dumps(v)) for k, v in obj.items()) + "}"


class Person:
    """Input activity generator: who is typing, reading, thinking, away."""

    def __init__(self, rng):
        self.rng = rng
        self.last_event = 0.0

    def window(self, end, mode):
        r = self.rng
        keys = clicks = scroll = 0
        travel = 0.0
        sw = {}
        if mode == "typing":
            if r.random() < 0.85:
                keys = max(0, int(r.gauss(10, 4)))
            if r.random() < 0.35:
                travel = round(r.uniform(40, 900), 1)
            if r.random() < 0.2:
                clicks = r.randint(1, 2)
            if r.random() < 0.1:
                scroll = r.randint(1, 6)
        elif mode == "reading":
            pass  # scrolls are placed by the scenario
        elif mode in ("away", "thinking"):
            pass
        elif mode == "bump":
            travel = 32.0  # one nudge of the mouse: a single event
        elif mode == "scroll":
            scroll = r.randint(1, 3)
            if r.random() < 0.3:
                travel = round(r.uniform(30, 200), 1)
        events = keys + clicks + scroll + (1 if travel >= 20 else 0)
        if events > 0:
            self.last_event = end - round(r.uniform(0.05, 1.5), 2)
        idle = round(end - self.last_event, 2)
        rec = {"t": end, "kind": "input", "window": WINDOW}
        if keys: rec["keys"] = keys
        if travel: rec["travel"] = travel
        if clicks: rec["clicks"] = clicks
        if scroll: rec["scroll"] = scroll
        return rec, idle


def audio(rng, t, level):
    lufs = round(level + rng.gauss(0, 1.2), 1)
    rms = round(lufs - 1.5 + rng.gauss(0, 0.5), 1)
    peak = round(rms + 10 + rng.uniform(0, 6), 1)
    return {"t": t, "kind": "audio", "rms": rms, "peak": peak, "lufs": lufs}


def offset(lat, lon, north_m, east_m):
    dlat = north_m / 111_320.0
    dlon = east_m / (111_320.0 * math.cos(math.radians(lat)))
    return lat + dlat, lon + dlon


def fix(rng, t, north, east, acc, speed=0.0, mode=3):
    lat, lon = offset(HOME_LAT, HOME_LON, north + rng.gauss(0, acc / 3), east + rng.gauss(0, acc / 3))
    return {"t": t, "kind": "location", "lat": round(lat, 7), "lon": round(lon, 7), "acc": round(acc, 1),
            "speed": round(max(0.0, speed + rng.gauss(0, 0.15)), 2), "mode": mode}


def write(name, start, minutes, note, lines, expect, task):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    header = {"vigil": "recording", "version": 1, "start": start,
              "source": "scripts/make-samples.py (synthetic, seeded)", "note": note, "task": task}
    lines.sort(key=lambda r: (r["t"], ["input", "audio", "location", "status", "control"].index(r["kind"])))
    with open(os.path.join(d, "session.jsonl"), "w") as f:
        f.write(line(header) + "\n")
        for r in lines:
            f.write(line(r) + "\n")
    expect = dict(expect)
    expect["scenario"] = name
    expect["minutes"] = minutes
    with open(os.path.join(d, "expect.json"), "w") as f:
        json.dump(expect, f, indent=2)
        f.write("\n")


def standard_audio(rng, lines, minutes, loud=None):
    """Quiet office at about -52 LUFS, once a second; `loud` is (start, end) of a conversation."""
    for s in range(1, int(minutes * 60) + 1):
        t = float(s)
        level = -52.0
        if loud and loud[0] <= t < loud[1]:
            # Speech: loud, with a 2 s pause between sentences every 20 s.
            phase = (t - loud[0]) % 20
            level = -41.0 if phase > 17 else -23.0
        lines.append(audio(rng, t, level))


def standard_location(rng, lines, minutes, every=2):
    """An indoor receiver: jittery, inaccurate, with drop-outs that must not count as leaving."""
    for s in range(every, int(minutes * 60) + 1, every):
        t = float(s)
        if 300 <= t % 600 < 340:  # 40 s without a fix every 10 minutes
            continue
        lines.append(fix(rng, t, 3, -4, rng.uniform(12, 35)))


def input_lines(person, lines, minutes, mode_at):
    n = int(minutes * 60 / WINDOW)
    for i in range(1, n + 1):
        end = i * WINDOW
        rec, idle = person.window(end, mode_at(end))
        rec["idle"] = idle
        lines.append(rec)


def steady_focus():
    rng = random.Random(1)
    person, lines, minutes = Person(rng), [], 25
    thinking = [(300, 360), (720, 805), (1140, 1200)]  # pauses of 60-85 s: thinking, not procrastinating
    input_lines(person, lines, minutes, lambda t: "thinking" if any(a < t <= b for a, b in thinking) else "typing")
    standard_audio(rng, lines, minutes)
    standard_location(rng, lines, minutes)
    write("steady-focus", "2026-03-02T09:00:00Z", minutes,
          "25 minutes of writing with three thinking pauses of 60-85 s, a quiet office, an indoor GPS with drop-outs",
          lines, {"episodes": [], "never": ["distracted", "alarm"]}, "report draft")


def coffee_break():
    rng = random.Random(2)
    person, lines, minutes = Person(rng), [], 25

    def mode(t):
        if t <= 480: return "typing"
        if 720 < t <= 725: return "bump"  # someone brushes the desk: not a return
        if t <= 990: return "away"
        return "typing"
    input_lines(person, lines, minutes, mode)
    standard_audio(rng, lines, minutes)
    standard_location(rng, lines, minutes)
    write("coffee-break", "2026-03-03T14:00:00Z", minutes,
          "typing until 8:00, away for a coffee until 16:30 (one nudge of the mouse at 12:00 does not count), then typing again",
          lines, {"episodes": [{"cause": "away", "start": 479, "end": 992, "start_tolerance": 3, "end_tolerance": 20}]},
          "slides")


def leaving_building():
    rng = random.Random(3)
    person, lines, minutes = Person(rng), [], 20
    # Works until 6:00, packs up and walks out (1.3 m/s heading north-east), sits 429 m away
    # from 11:30 (a cafe), walks back from 15:00, at the desk typing again from 19:00.
    def pos(t):
        if t <= 360: return (0.0, 0.0, 0.0)
        if t <= 690:
            d = (t - 360) * 1.3
            return (d * 0.8, d * 0.6, 1.3)
        if t <= 900: return (343.2, 257.4, 0.0)
        if t <= 1140:
            d = max(0.0, 429.0 - (t - 900) * 1.8)
            return (d * 0.8, d * 0.6, 1.8)
        return (0.0, 0.0, 0.0)
    input_lines(person, lines, minutes, lambda t: "typing" if t <= 360 or t > 1140 else "away")
    standard_audio(rng, lines, minutes)
    for s in range(1, minutes * 60 + 1):
        t = float(s)
        n, e, v = pos(t)
        indoor = t <= 380 or t > 1120
        lines.append(fix(rng, t, n, e, rng.uniform(12, 30) if indoor else rng.uniform(4, 9), v))
    write("leaving-building", "2026-03-04T10:30:00Z", minutes,
          "works until 6:00, walks out of the building to a cafe 430 m away, is back at the desk typing at 19:00",
          lines, {"episodes": [{"cause": "location", "start": 425, "end": 1140, "start_tolerance": 30, "end_tolerance": 20}]},
          "budget review")


def loud_room():
    rng = random.Random(4)
    person, lines, minutes = Person(rng), [], 20
    input_lines(person, lines, minutes, lambda t: "typing")
    standard_audio(rng, lines, minutes, loud=(300, 840))
    standard_location(rng, lines, minutes)
    write("loud-room", "2026-03-05T11:00:00Z", minutes,
          "keeps typing while a conversation next to the desk runs from 5:00 to 14:00 (-23 LUFS with short pauses)",
          lines, {"episodes": [{"cause": "noise", "start": 300, "end": 850, "start_tolerance": 3, "end_tolerance": 15}]},
          "code review")


def switching_storm():
    rng = random.Random(5)
    person, lines, minutes = Person(rng), [], 20
    input_lines(person, lines, minutes, lambda t: "typing")
    kinds = ["alt_tab", "alt_tab", "alt_tab", "super", "ctrl_tab", "swipes", "workspace"]
    for rec in lines:
        t = rec["t"]
        if 360 < t <= 600:  # a storm: about 13 switches a minute for 4 minutes
            if rng.random() < 0.95:
                for _ in range(rng.choice([1, 1, 1, 2])):
                    k = rng.choice(kinds)
                    rec[k] = rec.get(k, 0) + 1
        elif rng.random() < 0.03:  # ordinary work: a switch every few minutes
            rec["alt_tab"] = 1
    standard_audio(rng, lines, minutes)
    standard_location(rng, lines, minutes)
    write("app-switching-storm", "2026-03-06T15:00:00Z", minutes,
          "normal work with a storm of Alt+Tab, Super, Ctrl+Tab and swipes from 6:00 to 10:00",
          lines, {"episodes": [{"cause": "switching", "start": 365, "end": 600, "start_tolerance": 10, "end_tolerance": 120}]},
          "inbox")


def reading():
    rng = random.Random(6)
    person, lines, minutes = Person(rng), [], 30
    scrolls = []
    t = 40.0
    while t < minutes * 60:
        scrolls.append(t)
        t += rng.uniform(25, 105)  # a page every half minute to under two minutes
    def mode(end):
        return "scroll" if any(end - WINDOW < s <= end for s in scrolls) else "reading"
    input_lines(person, lines, minutes, mode)
    standard_audio(rng, lines, minutes)
    standard_location(rng, lines, minutes)
    write("long-reading", "2026-03-09T08:30:00Z", minutes,
          "30 minutes reading a paper: no typing, a scroll every 25-105 s; must stay focused",
          lines, {"episodes": [], "never": ["distracted", "alarm"]}, "literature")


def suspend():
    rng = random.Random(7)
    person, lines, minutes = Person(rng), [], 30
    gap = (600, 2400)  # the lid is closed for 30 minutes: no samples at all
    all_lines = []
    input_lines(person, all_lines, minutes + 30, lambda t: "typing")
    standard_audio(rng, all_lines, minutes + 30)
    standard_location(rng, all_lines, minutes + 30)
    lines = [r for r in all_lines if not (gap[0] < r["t"] <= gap[1])]
    write("laptop-suspend", "2026-03-10T13:00:00Z", minutes + 30,
          "typing, the laptop sleeps from 10:00 to 40:00 (no samples), typing again: the gap is neither focus nor distraction",
          lines, {"episodes": [], "gaps": [{"from": 600, "to": 2405, "tolerance": 6}], "never": ["distracted", "alarm"]},
          "reports")


def pomodoro_break():
    rng = random.Random(8)
    person, lines, minutes = Person(rng), [], 35
    # 25 minutes of work, then a declared 5-minute break away from the desk (not procrastination),
    # then 5 more minutes of work.
    input_lines(person, lines, minutes, lambda t: "away" if 1500 < t <= 1795 else "typing")
    lines.append({"t": 1500.0, "kind": "control", "action": "break"})
    lines.append({"t": 1790.0, "kind": "control", "action": "resume"})
    standard_audio(rng, lines, minutes)
    standard_location(rng, lines, minutes)
    write("pomodoro-break", "2026-03-11T09:00:00Z", minutes,
          "25 minutes of work, a declared 5-minute break away from the desk, back to work",
          lines, {"episodes": [], "never": ["distracted", "alarm"], "paused": [{"from": 1500, "to": 1790, "tolerance": 1}]},
          "essay")


if __name__ == "__main__":
    for f in (steady_focus, coffee_break, leaving_building, loud_room, switching_storm, reading, suspend, pomodoro_break):
        f()
    print("wrote scenarios to", os.path.normpath(ROOT), file=sys.stderr)
