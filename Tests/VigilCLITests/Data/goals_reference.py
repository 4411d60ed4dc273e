#!/usr/bin/env python3
"""An independent computation of `vigil report`'s limits and goals (`goals` in its JSON), to check them.

It reads the SQLite event log with Python's sqlite3 and asks Python's zoneinfo for local days.
Minutes in a category on a day: the all-day watch's `day_stretches` of that category outside every
session (a session's time, from its start to its end or last event, is its own), plus the
`activities` of sessions in applications of that category, all in milliseconds, cut at local
midnights. Focused minutes (a `focus` goal) and a task's (a `task` goal) are taken from the report's
own `days` and from `vigil report --task`'s: reference_report.py checks those figures against the
state changes in other tests. From minutes by day it decides, as docs/whole-day-design.md says, each
day, weekday (Monday to Friday) or ISO week met or missed (`at_least`: minutes >= the goal,
`at_most`: <=), leaving out the day still running and weeks not wholly in the period, and counts
the runs of met periods.

Usage: goals_reference.py DB REPORT.json ZONE FROM TO GOALS.json [TASK_REPORT.json]
GOALS.json: [{"name", "what", "direction", "minutes", "per"}]. Prints each mismatch and exits 1 if
there is any; prints how many figures agreed.
"""
import json
import sqlite3
import sys
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def main():
    db_path, report_path, zone, first, last, goals_path = sys.argv[1:7]
    task_report = json.load(open(sys.argv[7])) if len(sys.argv) > 7 else None
    tz = ZoneInfo(zone)
    report = json.load(open(report_path))
    goals = json.load(open(goals_path))
    first_day, last_day = date.fromisoformat(first), date.fromisoformat(last)
    days = [first_day + timedelta(days=i) for i in range((last_day - first_day).days + 1)]
    midnight = {d: int(datetime.combine(d, time(), tz).timestamp() * 1000) for d in days + [last_day + timedelta(days=1)]}
    start, end = midnight[days[0]], midnight[last_day + timedelta(days=1)]
    db = sqlite3.connect(db_path)

    sessions = sorted(
        (max(s, start), min(e, end)) for s, e in db.execute(
            "SELECT started_ms, coalesce(ended_ms, last_event_ms) FROM sessions WHERE source IN ('live', 'simulated')")
        if min(e, end) > max(s, start))
    merged = []
    for s, e in sessions:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])

    def outside(s, e):
        pieces, cursor = [], s
        for hs, he in merged:
            if he <= cursor or hs >= e:
                continue
            if hs > cursor:
                pieces.append((cursor, hs))
            cursor = max(cursor, he)
        if cursor < e:
            pieces.append((cursor, e))
        return pieces

    def by_day(s, e, into):
        for d in days:
            a, b = max(s, midnight[d]), min(e, midnight[d + timedelta(days=1)])
            if b > a:
                into[d] += b - a

    category_ms = {c: {d: 0 for d in days} for c in ("work", "neutral", "distracting")}
    for category, s, e in db.execute("SELECT category, start_ms, end_ms FROM day_stretches WHERE kind = 'app'"):
        if category in category_ms:
            for a, b in outside(max(s, start), min(e, end)):
                by_day(a, b, category_ms[category])
    for category, s, e in db.execute(
            "SELECT a.category, a.start_ms, a.end_ms FROM activities a JOIN sessions s ON s.id = a.session_id"
            " WHERE a.kind = 'app' AND s.source IN ('live', 'simulated')"):
        if category in category_ms and min(e, end) > max(s, start):
            by_day(max(s, start), min(e, end), category_ms[category])

    focus = {d["date"]: d["focused_minutes"] for d in report["days"]}
    task_focus = {d["date"]: d["focused_minutes"] for d in task_report["days"]} if task_report else {}
    mismatches, checked = [], 0

    def check(path, want, got, tolerance=None):
        nonlocal checked
        checked += 1
        if tolerance is not None and isinstance(got, (int, float)) and abs(want - got) <= tolerance:
            return
        if want != got:
            mismatches.append(f"{path}: expected {want!r}, report has {got!r}")

    got_goals = {g["name"]: g for g in report["goals"]}
    check("goals", sorted(g["name"] for g in goals), sorted(got_goals))
    for goal in goals:
        got = got_goals.get(goal["name"])
        if got is None:
            continue
        kind, _, arg = goal["what"].partition(" ")
        def minutes(d):
            if kind == "focus":
                return focus.get(d.isoformat(), 0)
            if kind == "category":
                return category_ms[arg][d] / 60000
            return task_focus.get(d.isoformat(), 0)

        def met(m):
            return m >= goal["minutes"] if goal["direction"] == "at_least" else m <= goal["minutes"]

        periods = []
        if goal["per"] in ("day", "weekday"):
            for d in days:
                if goal["per"] == "weekday" and d.isoweekday() > 5:
                    continue
                periods.append((d.isoformat(), minutes(d), met(minutes(d))))
        else:
            monday = first_day - timedelta(days=first_day.isoweekday() - 1)
            while monday <= last_day:
                week = [monday + timedelta(days=i) for i in range(7)]
                m = sum(minutes(d) for d in week if first_day <= d <= last_day)
                whole = week[0] >= first_day and week[-1] <= last_day
                year, number, _ = monday.isocalendar()
                periods.append((f"{year}-W{number:02d}", m, met(m) if whole else None))
                monday += timedelta(days=7)
        path = f"goals[{goal['name']}]"
        check(f"{path}.periods", len(periods), len(got["periods"]))
        for (name, m, ok), p in zip(periods, got["periods"]):
            check(f"{path}.{name}.period", name, p["period"])
            check(f"{path}.{name}.minutes", round(m, 2), p["minutes"], tolerance=0.011)
            check(f"{path}.{name}.met", ok, p["met"])
        judged = [ok for _, _, ok in periods if ok is not None]
        run = longest = 0
        for ok in judged:
            run = run + 1 if ok else 0
            longest = max(longest, run)
        check(f"{path}.met", sum(judged), got["met"])
        check(f"{path}.missed", len(judged) - sum(judged), got["missed"])
        check(f"{path}.current_run", run, got["current_run"])
        check(f"{path}.longest_run", longest, got["longest_run"])
    for m in mismatches[:40]:
        print(m)
    print(f"{checked} figures compared, {len(mismatches)} mismatches")
    sys.exit(1 if mismatches else 0)


main()
