#!/usr/bin/env python3
"""An independent computation of `vigil report`'s figures, to check them.

It shares no code and no algorithm with Vigil's statistics engine: it reads the SQLite event log
with Python's sqlite3, replays each session's state changes second by second (the state at a
second is the state entered by the last change at or before it), and asks Python's zoneinfo for
the local date and hour of every second. Vigil cuts intervals at hour boundaries with its own
offset table instead. The definitions it follows are the ones written in docs/statistics.md, and
for sessions at the same time docs/sync.md ("Merging"): a second counts once, distracted if any
session is in an episode then, else focused if any judged it, and goes to the first session (in
start order) that says so. The applications (docs/statistics.md, "Applications") are summed from
the `activities` rows in milliseconds, each `app` episode given to the stretch of its session that
holds its start. The person's word (docs/statistics.md, "The person's word"): an episode labelled
a break or a meeting is not judged, one labelled work is not an episode; intentions are counted by
their answers, with the seconds each session counts.

Every logged time must be a whole second (the simulator guarantees it), so counting seconds is
exact.

Usage: reference_report.py DB REPORT.json ZONE FROM|all TO [TASK]
Prints each mismatch and exits 1 if there is any; prints how many figures agreed.
"""
import json
import sqlite3
from fractions import Fraction
import sys
from collections import defaultdict
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

ACTIVE = {"focused", "drifting", "distracted", "alarm"}
# An hour of the day or a weekday needs this much judged time to be named best or worst.
ENOUGH = 3600
CAUSES = ["away", "switching", "noise", "location", "app"]


def main():
    # --open-day=YYYY-MM-DD: the local day still running (today), judged only once it is over.
    args = [a for a in sys.argv[1:] if not a.startswith("--open-day=")]
    open_day = next((date.fromisoformat(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--open-day=")), None)
    db_path, report_path, zone, first, last = args[:5]
    task_filter = args[5] if len(args) > 5 else None
    tz = ZoneInfo(zone)
    report = json.load(open(report_path))
    db = sqlite3.connect(db_path)
    to_day = date.fromisoformat(last)

    def local(sec):
        return datetime.fromtimestamp(sec, tz)

    sessions = db.execute(
        "SELECT id, task, started_ms, coalesce(ended_ms, last_event_ms), outcome, intent IS NOT NULL, intent_kept FROM sessions"
        " WHERE source IN ('live', 'simulated') ORDER BY started_ms, id").fetchall()
    # Only sessions that start on or before the last day.
    sessions = [s for s in sessions if local(s[2] // 1000).date() <= to_day and (task_filter is None or s[1] == task_filter)]
    intents = {s[0]: (s[5], s[6]) for s in sessions}
    sessions = [s[:5] for s in sessions]
    first_day = date.fromisoformat(first) if first != "all" else min(local(s[2] // 1000).date() for s in sessions)

    changes = defaultdict(list)
    for sid, at, to_state in db.execute("SELECT session_id, at_ms, to_state FROM state_changes ORDER BY session_id, at_ms, id"):
        changes[sid].append((at // 1000, to_state))
    gaps = defaultdict(list)
    for sid, a, b in db.execute("SELECT session_id, from_ms, to_ms FROM gaps"):
        gaps[sid].append((a // 1000, b // 1000))
    episodes = defaultdict(list)
    # Episodes the person said were no distraction: (label, start, end or None); a break's or a
    # meeting's time is not judged.
    relabelled = defaultdict(list)
    for sid, number, a, b, cause, label in db.execute(
            "SELECT session_id, number, started_ms, ended_ms, cause, label FROM episodes ORDER BY session_id, number"):
        if label in ("break", "meeting", "offline_work", "work"):
            relabelled[sid].append((label, a // 1000, None if b is None else b // 1000, number))
        else:
            episodes[sid].append((number, a // 1000, None if b is None else b // 1000, cause))
    alarms = defaultdict(list)
    # The person was back only when the episode closed by a return (not a pause, a break, a gap or the end).
    for sid, ep, at, cleared in db.execute(
            "SELECT a.session_id, a.episode_number, a.at_ms, CASE WHEN e.closed_by = 'back' THEN a.cleared_ms END"
            " FROM alarms a LEFT JOIN episodes e ON e.session_id = a.session_id AND e.number = a.episode_number"
            " ORDER BY a.session_id, a.at_ms, a.id"):
        alarms[sid].append((ep, at // 1000, None if cleared is None else cleared // 1000))
    # The alarms at which an action did something: its delivery names what it did.
    acted = set(db.execute(
        "SELECT session_id, episode_number, at_ms / 1000 FROM alarm_deliveries"
        " WHERE action = 'fired' AND delivered = 1 AND detail <> ''"))

    in_period = lambda d: first_day <= d <= to_day
    # Per (date, hour): focused and distracted seconds, episodes started.
    focused = defaultdict(int)
    distracted = defaultdict(int)
    ep_starts = defaultdict(int)
    sessions_by_day = defaultdict(int)
    started_by_day = defaultdict(int)  # any day, for the previous period
    completed_by_day = defaultdict(int)
    tasks = defaultdict(lambda: dict(sessions=0, focused=0, distracted=0, episodes=0))
    alarms_by_day = defaultdict(int)
    totals = dict(sessions=0, completed=0, abandoned=0, interrupted=0, open=0, alarms=0)
    period_episodes = []
    recoveries = []
    after_action = []
    after_alarm_alone = []
    earned = {}

    def note(key, d):
        if key not in earned or d < earned[key]:
            earned[key] = d

    # Time is the person's, counted once (docs/sync.md, "Merging"): per second, the first session
    # (in start order) in an episode then, else the first judged outside its episodes then.
    distracted_by = {}
    focused_by = {}
    # The session each counted second goes to, for the intentions' focus shares.
    distracted_owner = {}
    focused_owner = {}
    moved_by_label = defaultdict(list)
    false_alarms = defaultdict(int)
    # Whether the session a focused second counts for was not abandoned: its days count for streaks.
    kept_by = {}
    kept_days = set()
    judged_sessions = defaultdict(int)
    # Seconds t whose next second lies in the same session: unbroken focus runs on only there.
    continues = set()
    for sid, task, start_ms, end_ms, outcome in sessions:
        start, end = start_ms // 1000, end_ms // 1000
        sd = local(start).date()
        started_by_day[sd] += 1
        if outcome == "completed":
            completed_by_day[sd] += 1
        if in_period(sd):
            tasks[task or ""]["sessions"] += 1
            totals["sessions"] += 1
            totals[outcome if outcome in ("completed", "abandoned", "interrupted") else "open"] += 1
            sessions_by_day[sd] += 1
        if outcome == "completed" and local(end).date() <= to_day:
            note("first_completed", local(end).date())
        eps = [(n, a, b if b is not None else end, c) for n, a, b, c in episodes[sid]]
        moved = [(label, a, b if b is not None else end, n) for label, a, b, n in relabelled[sid]]
        unjudged = gaps[sid] + [(a, b) for label, a, b, n in moved if label in ("break", "meeting")]
        for label, a, b, n in moved:
            if in_period(local(a).date()):
                moved_by_label[label].append(b - a)
                # A false alarm: an alarm rang in what the person says was no distraction.
                if any(e == n for e, _, _ in alarms[sid]):
                    y, w, _ = local(a).date().isocalendar()
                    false_alarms[f"{y}-W{w:02d}"] += 1
        for n, a, b, c in eps:
            ld = local(a)
            if ld.date() <= to_day:
                ep_starts[(ld.date(), ld.hour)] += 1
            if in_period(ld.date()):
                period_episodes.append((b - a, c, task or "", ld.hour))
                tasks[task or ""]["episodes"] += 1
        seen_first = {}
        for ep, at, cleared in alarms[sid]:
            d = local(at).date()
            if d > to_day:
                continue
            alarms_by_day[d] += 1
            if in_period(d):
                totals["alarms"] += 1
            if ep not in seen_first:
                seen_first[ep] = (at, cleared)
        for ep, (at, cleared) in seen_first.items():
            if cleared is None or local(cleared).date() > to_day:
                continue
            if in_period(local(at).date()):
                recoveries.append(cleared - at)
                actions = [t for e, t, _ in alarms[sid] if e == ep and t <= cleared and (sid, ep, t) in acted]
                if actions:
                    after_action.append(cleared - min(actions))
                else:
                    after_alarm_alone.append(cleared - at)
            if cleared - at <= 60:
                note("quick_recovery", local(cleared).date())

        # Second by second.
        ch = changes[sid]
        ci = 0
        state = "planned"
        continues.update(range(start, end - 1))
        for t in range(start, end):
            while ci < len(ch) and ch[ci][0] <= t:
                state = ch[ci][1]
                ci += 1
            judged = state in ACTIVE and not any(a <= t < b for a, b in unjudged)
            in_episode = any(a <= t < b for _, a, b, _ in eps)
            lt = local(t)
            if lt.date() > to_day:
                break
            if in_episode:
                distracted_by.setdefault(t, task or "")
                distracted_owner.setdefault(t, sid)
            if judged and not in_episode:
                if t not in focused_by:
                    kept_by[t] = outcome != "abandoned"
                focused_by.setdefault(t, task or "")
                focused_owner.setdefault(t, sid)
            if judged or in_episode:
                judged_sessions[t] += 1
            if judged and outcome != "abandoned" and "first_session" not in earned:
                note("first_session", lt.date())
        # (first_session: the first judged second, focused or not, of a session not abandoned.)

    for t, task in distracted_by.items():
        lt = local(t)
        distracted[(lt.date(), lt.hour)] += 1
        if in_period(lt.date()):
            tasks[task]["distracted"] += 1
    run = cumulative = 0
    previous_second = None
    for t in sorted(focused_by):
        if t in distracted_by:
            continue
        lt = local(t)
        focused[(lt.date(), lt.hour)] += 1
        if kept_by.get(t):
            kept_days.add(lt.date())
        if in_period(lt.date()):
            tasks[focused_by[t]]["focused"] += 1
        run = run + 1 if previous_second == t - 1 and previous_second in continues else 1
        previous_second = t
        cumulative += 1
        for minutes, name in ((25, "deep_focus_25"), (90, "deep_focus_90")):
            if run == minutes * 60:
                note(name, local(t + 1).date())
        for hours, name in ((10, "focused_10h"), (100, "focused_100h")):
            if cumulative == hours * 3600:
                note(name, local(t + 1).date())
    overlap = sum(1 for t, n in judged_sessions.items() if n >= 2 and in_period(local(t).date()))

    # Days.
    all_days = sorted({k[0] for k in focused} | {k[0] for k in distracted} | set(sessions_by_day))
    history_first = min(all_days + [first_day])
    day = history_first
    streak = best = score = best_score = 0
    period_run = period_best = 0
    period_best_span = None
    run_start = None
    days_out = []
    calendar = []
    hour_f = [0] * 24
    hour_d = [0] * 24
    hour_e = [0] * 24
    wd_f = [0] * 7
    wd_d = [0] * 7
    wd_e = [0] * 7
    heat = [[0] * 24 for _ in range(7)]
    weeks = {}
    free_days = session_days = 0
    today_so_far_free = None
    multiplier = lambda n: 5 if n >= 90 else 4 if n >= 60 else 3 if n >= 21 else 2 if n >= 7 else 1
    while day <= to_day:
        f = sum(focused[(day, h)] for h in range(24))
        x = sum(distracted[(day, h)] for h in range(24))
        e = sum(ep_starts[(day, h)] for h in range(24))
        # A day counts through a session not abandoned, or an episode; today only once it is over.
        judged_day = f + x > 0 and (day in kept_days or e > 0)
        if open_day is not None and day == open_day and in_period(day) and judged_day:
            today_so_far_free = e == 0
        active = judged_day and (open_day is None or day < open_day)
        free = active and e == 0
        if active:
            if free:
                streak += 1
                score += multiplier(streak)
                best = max(best, streak)
                best_score = max(best_score, score)
                for n, name in ((1, "free_day"), (7, "free_week"), (21, "habit_21"), (90, "lifestyle_90")):
                    if streak == n:
                        note(name, day)
            else:
                score = max(0, score - streak)
                streak = 0
        if in_period(day):
            wd = day.isoweekday()
            if active:
                session_days += 1
                if free:
                    free_days += 1
                    if period_run == 0:
                        run_start = day
                    period_run += 1
                    if period_run > period_best:
                        period_best = period_run
                        period_best_span = (run_start, day)
                else:
                    period_run = 0
                calendar.append(dict(date=day.isoformat(), free=free, streak=streak))
            days_out.append(dict(date=day.isoformat(), weekday=wd, sessions=sessions_by_day[day], focused_minutes=f / 60,
                                 distracted_minutes=x / 60, episodes=e, alarms=alarms_by_day[day],
                                 procrastination_free=free if active else None))
            for h in range(24):
                hour_f[h] += focused[(day, h)]
                hour_d[h] += distracted[(day, h)]
                hour_e[h] += ep_starts[(day, h)]
                heat[wd - 1][h] += focused[(day, h)] / 60
            wd_f[wd - 1] += f
            wd_d[wd - 1] += x
            wd_e[wd - 1] += e
            y, w, _ = day.isocalendar()
            label = f"{y:04d}-W{w:02d}"
            wk = weeks.setdefault(label, dict(week=label, focused_minutes=0, distracted_minutes=0, sessions=0, episodes=0,
                                              hf=[0] * 24, hj=[0] * 24))
            wk["focused_minutes"] += f / 60
            wk["distracted_minutes"] += x / 60
            wk["sessions"] += sessions_by_day[day]
            wk["episodes"] += e
            for h in range(24):
                wk["hf"][h] += focused[(day, h)]
                wk["hj"][h] += focused[(day, h)] + distracted[(day, h)]
        day += timedelta(days=1)

    def share(part, whole):
        return part / whole if whole else None

    def rank_by_share(f, j, lowest):
        """Highest (lowest) focused share among those with enough judged time; ties: more judged time, then the first.
        The lowest only when its share is below the highest's (never the best hour again)."""
        candidates = [i for i in range(len(j)) if j[i] >= ENOUGH]
        if not candidates:
            return None
        best = min(candidates, key=lambda i: (-Fraction(f[i], j[i]), -j[i], i))
        if not lowest:
            return best
        worst = min(candidates, key=lambda i: (Fraction(f[i], j[i]), -j[i], i))
        return worst if Fraction(f[worst], j[worst]) < Fraction(f[best], j[best]) else None

    def most_procrastinated(e, d, j):
        candidates = [i for i in range(len(j)) if j[i] >= ENOUGH and e[i] > 0]
        if not candidates:
            return None
        return min(candidates, key=lambda i: (-Fraction(e[i], j[i]), -Fraction(d[i], j[i]), i))

    def rates(f, x, e):
        j = f + x
        return dict(judged_minutes=j / 60, focus_share=share(f, j), distracted_per_judged_hour=x / 60 / (j / 3600) if j else None,
                    episodes_per_judged_hour=e / (j / 3600) if j else None, enough_data=j >= ENOUGH)

    def headline(first, last):
        """The headline figures of the days first..last, summed again from the per-hour seconds."""
        hf, hd, he = [0] * 24, [0] * 24, [0] * 24
        n_sessions = n_completed = n_episodes = n_alarms = active_days = free = 0
        d = first
        while d <= last:
            fe = 0
            for h in range(24):
                hf[h] += focused[(d, h)]
                hd[h] += distracted[(d, h)]
                he[h] += ep_starts[(d, h)]
                fe += ep_starts[(d, h)]
            if sum(focused[(d, h)] + distracted[(d, h)] for h in range(24)) > 0 and (d in kept_days or fe > 0) \
                    and (open_day is None or d < open_day):
                active_days += 1
                free += fe == 0
            n_sessions += started_by_day[d]
            n_completed += completed_by_day[d]
            n_alarms += alarms_by_day[d]
            n_episodes += fe
            d += timedelta(days=1)
        hj = [hf[h] + hd[h] for h in range(24)]
        return dict(from_=first.isoformat(), to=last.isoformat(), sessions=n_sessions, completed=n_completed,
                    completion_rate=n_completed / n_sessions if n_sessions else None, active_minutes=sum(hj) / 60,
                    focused_minutes=sum(hf) / 60, distracted_minutes=sum(hd) / 60, focus_share=share(sum(hf), sum(hj)),
                    episodes=n_episodes, alarms=n_alarms, procrastination_free_share=free / active_days if active_days else None,
                    most_productive_hour=rank_by_share(hf, hj, False), least_productive_hour=rank_by_share(hf, hj, True),
                    most_procrastinated_hour=most_procrastinated(he, hd, hj))

    def durations(xs):
        if not xs:
            return dict(count=0)
        xs = sorted(xs)
        n = len(xs)
        median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
        return dict(count=n, mean_s=sum(xs) / n, median_s=median, longest_s=xs[-1])

    def group(key, items):
        d = durations([i[0] for i in items])
        return dict(key=key, count=len(items), minutes=sum(i[0] for i in items) / 60, mean_s=d.get("mean_s"), longest_s=d.get("longest_s"))

    focused_total = sum(hour_f)
    distracted_total = sum(hour_d)
    hour_j = [hour_f[h] + hour_d[h] for h in range(24)]
    wd_j = [wd_f[i] + wd_d[i] for i in range(7)]
    heat_j = [[0] * 24 for _ in range(7)]
    heat_f = [[0] * 24 for _ in range(7)]
    d = first_day
    while d <= to_day:
        for h in range(24):
            heat_j[d.isoweekday() - 1][h] += focused[(d, h)] + distracted[(d, h)]
            heat_f[d.isoweekday() - 1][h] += focused[(d, h)]
        d += timedelta(days=1)
    previous = None
    if first != "all":
        length = (to_day - first_day).days + 1
        previous = headline(first_day - timedelta(days=length), first_day - timedelta(days=1))
    # Applications: each stretch's milliseconds inside the period's local days, by class and the
    # category it had; an `app` episode started in the period goes to the application whose
    # stretch of the same session holds its start.
    period_start = int(datetime.combine(first_day, datetime.min.time(), tz).timestamp() * 1000)
    period_end = int(datetime.combine(to_day + timedelta(days=1), datetime.min.time(), tz).timestamp() * 1000)
    selected = {s[0] for s in sessions}
    app_ms = defaultdict(int)
    app_stretches = defaultdict(int)
    app_episodes = defaultdict(int)
    call_ms = calls = 0
    stretches_of = defaultdict(list)
    for sid, kind, cls, category, a, b in db.execute("SELECT session_id, kind, app_class, category, start_ms, end_ms FROM activities"):
        if sid not in selected:
            continue
        key = (cls, category if category in ("work", "neutral", "distracting") else "neutral")
        if kind == "app":
            stretches_of[sid].append((a, b, key))
        inside = min(b, period_end) - max(a, period_start)
        if inside <= 0:
            continue
        if kind == "call":
            call_ms += inside
            calls += 1
        else:
            app_ms[key] += inside
            app_stretches[key] += 1
    for sid in selected:
        for _, a, _, cause in episodes[sid]:
            if cause == "app" and period_start <= a * 1000 < period_end:
                held = [key for s, e, key in stretches_of[sid] if s <= a * 1000 < e]
                if held:
                    app_episodes[held[0]] += 1
    order = {"work": 0, "neutral": 1, "distracting": 2}
    ranked = sorted(app_ms, key=lambda k: (-app_ms[k], k[0], order[k[1]]))
    applications = None
    if ranked or calls:
        applications = dict(
            work_minutes=sum(v for k, v in app_ms.items() if k[1] == "work") / 60000,
            neutral_minutes=sum(v for k, v in app_ms.items() if k[1] == "neutral") / 60000,
            distracting_minutes=sum(v for k, v in app_ms.items() if k[1] == "distracting") / 60000,
            most_distracting=[dict(app_class=k[0], minutes=app_ms[k] / 60000) for k in ranked if k[1] == "distracting"][:5],
            calls=calls, call_minutes=call_ms / 60000,
            apps=[dict(app_class=k[0], category=k[1], minutes=app_ms[k] / 60000, stretches=app_stretches[k], episodes=app_episodes[k])
                  for k in ranked])

    # Intentions: the period's sessions with one, by answer, with the seconds each counts.
    own_f = defaultdict(int)
    own_x = defaultdict(int)
    for t, sid in distracted_owner.items():
        if in_period(local(t).date()):
            own_x[sid] += 1
    for t, sid in focused_owner.items():
        if t not in distracted_by and in_period(local(t).date()):
            own_f[sid] += 1
    answers = defaultdict(int)
    fx = {"done": [0, 0], "not": [0, 0]}
    for sid, task, start_ms, end_ms, outcome in sessions:
        has, kept = intents[sid]
        if not has or not in_period(local(start_ms // 1000).date()):
            continue
        kept = kept if kept in ("done", "partly", "no") else None
        answers[kept] += 1
        if kept is not None:
            k = "done" if kept == "done" else "not"
            fx[k][0] += own_f[sid]
            fx[k][1] += own_f[sid] + own_x[sid]
    n_intents = sum(answers.values())
    n_answered = answers["done"] + answers["partly"] + answers["no"]
    intentions = None if n_intents == 0 else dict(
        sessions=n_intents, done=answers["done"], partly=answers["partly"], not_done=answers["no"], unanswered=answers[None],
        kept_share=answers["done"] / n_answered if n_answered else None,
        focus_share_done=share(*fx["done"]), focus_share_not_done=share(*fx["not"]))
    labels = [dict(label=label, counted_as="neither" if label in ("break", "meeting") else "focused", episodes=len(moved_by_label[label]),
                   minutes=sum(moved_by_label[label]) / 60)
              for label in ("break", "meeting", "offline_work", "work") if moved_by_label[label]]
    relabelled_figures = dict(
        labels=labels, minutes=sum(sum(v) for v in moved_by_label.values()) / 60,
        false_alarms=[dict(week=w, false_alarms=false_alarms[w], rules_learned=0) for w in sorted(false_alarms)]) if labels else None

    badges = [(90, "lifestyle"), (60, "strong_habit"), (21, "habit"), (7, "week"), (1, "new")]
    expected = dict(
        time_zone=zone, from_=first_day.isoformat(), to=to_day.isoformat(), task=task_filter,
        totals=dict(totals, completion_rate=totals["completed"] / totals["sessions"] if totals["sessions"] else None,
                    active_minutes=(focused_total + distracted_total) / 60, focused_minutes=focused_total / 60,
                    distracted_minutes=distracted_total / 60, focus_share=share(focused_total, focused_total + distracted_total),
                    alarms_per_focused_hour=totals["alarms"] / (focused_total / 3600) if focused_total else None,
                    recovery=durations(recoveries), recovery_after_action=durations(after_action),
                    recovery_after_alarm_alone=durations(after_alarm_alone), overlap_minutes=overlap / 60 if overlap else None),
        hours=[dict(hour=h, focused_minutes=hour_f[h] / 60, distracted_minutes=hour_d[h] / 60, episodes=hour_e[h],
                    **rates(hour_f[h], hour_d[h], hour_e[h])) for h in range(24)],
        weekdays=[dict(weekday=i + 1, focused_minutes=wd_f[i] / 60, distracted_minutes=wd_d[i] / 60, episodes=wd_e[i],
                       **rates(wd_f[i], wd_d[i], wd_e[i])) for i in range(7)],
        heatmap=heat,
        heatmap_judged_minutes=[[v / 60 for v in row] for row in heat_j],
        heatmap_focus_share=[[share(heat_f[w][h], heat_j[w][h]) for h in range(24)] for w in range(7)],
        highlights=dict(
            most_productive_hour=rank_by_share(hour_f, hour_j, False), least_productive_hour=rank_by_share(hour_f, hour_j, True),
            most_productive_weekday=None if rank_by_share(wd_f, wd_j, False) is None else rank_by_share(wd_f, wd_j, False) + 1,
            least_productive_weekday=None if rank_by_share(wd_f, wd_j, True) is None else rank_by_share(wd_f, wd_j, True) + 1,
            most_procrastinated_hour=most_procrastinated(hour_e, hour_d, hour_j), minimum_judged_minutes=ENOUGH // 60,
            hours_with_enough_data=sum(j >= ENOUGH for j in hour_j), weekdays_with_enough_data=sum(j >= ENOUGH for j in wd_j)),
        previous=previous,
        days=days_out,
        weeks=[dict({k: v for k, v in w.items() if k not in ("hf", "hj")}, focus_share=share(sum(w["hf"]), sum(w["hj"])),
                    most_productive_hour=rank_by_share(w["hf"], w["hj"], False), least_productive_hour=rank_by_share(w["hf"], w["hj"], True),
                    hour_judged_minutes=[j / 60 for j in w["hj"]], hour_focus_share=[share(w["hf"][h], w["hj"][h]) for h in range(24)])
               for w in weeks.values()],
        procrastination_free=dict(
            days_with_sessions=session_days, free_days=free_days, share=free_days / session_days if session_days else None,
            longest_streak=period_best, longest_streak_from=period_best_span[0].isoformat() if period_best_span else None,
            longest_streak_to=period_best_span[1].isoformat() if period_best_span else None, current_streak=streak),
        episodes=dict(
            count=len(period_episodes), mean_s=durations([e[0] for e in period_episodes]).get("mean_s"),
            longest_s=durations([e[0] for e in period_episodes]).get("longest_s"),
            by_cause=[group(c, [e for e in period_episodes if e[1] == c]) for c in CAUSES],
            by_task=[group(t, [e for e in period_episodes if e[2] == t]) for t in sorted({e[2] for e in period_episodes})],
            by_hour=[group(str(h), [e for e in period_episodes if e[3] == h]) for h in range(24)]),
        streak=dict(current=streak, best=best, score=score, best_score=best_score,
                    badge=next(b for n, b in badges if max(streak, 1) >= n), multiplier=multiplier(max(streak, 1)),
                    days_to_habit=max(0, 21 - streak), days_to_lifestyle=max(0, 90 - streak), calendar=calendar,
                    today_so_far_free=today_so_far_free),
        tasks=sorted((dict(task=k, sessions=t["sessions"], focused_minutes=t["focused"] / 60, distracted_minutes=t["distracted"] / 60,
                           focus_share=share(t["focused"], t["focused"] + t["distracted"]), episodes=t["episodes"])
                      for k, t in tasks.items()), key=lambda t: (-round(t["focused_minutes"], 2), t["task"])),
        achievements=sorted(({"id": k, "earned": v.isoformat(), "in_period": v >= first_day} for k, v in earned.items()),
                            key=lambda a: a["earned"]),
        applications=applications,
        intentions=intentions,
        relabelled=relabelled_figures,
    )

    mismatches = []
    checked = 0

    def compare(path, want, got):
        nonlocal checked
        if isinstance(want, dict):
            for k, v in want.items():
                key = "from" if k == "from_" else k
                if not isinstance(got, dict) or key not in got:
                    mismatches.append(f"{path}.{key}: missing from the report")
                    continue
                compare(f"{path}.{key}", v, got[key])
        elif isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                mismatches.append(f"{path}: {len(want)} entries expected, report has {len(got) if isinstance(got, list) else got!r}")
                return
            for i, (a, b) in enumerate(zip(want, got)):
                compare(f"{path}[{i}]", a, b)
        elif isinstance(want, float) or (isinstance(got, float) and isinstance(want, int) and not isinstance(want, bool)):
            checked += 1
            tolerance = 0.0002 if path.endswith(("rate", "share", "per_focused_hour", "episodes_per_judged_hour")) or "focus_share" in path else 0.011 if "minutes" in path or "heatmap" in path else 0.06
            if not isinstance(got, (int, float)) or abs(want - got) > tolerance:
                mismatches.append(f"{path}: expected {want}, report has {got}")
        else:
            checked += 1
            if want != got:
                mismatches.append(f"{path}: expected {want!r}, report has {got!r}")

    # Achievements: compare id and date as a set (the report also carries titles).
    got_achievements = sorted(({"id": a["id"], "earned": a["earned"], "in_period": a["in_period"]} for a in report["achievements"]),
                              key=lambda a: (a["earned"], a["id"]))
    expected["achievements"] = sorted(expected["achievements"], key=lambda a: (a["earned"], a["id"]))
    report = dict(report, achievements=got_achievements)
    compare("report", expected, report)
    for m in mismatches[:40]:
        print(m)
    print(f"{checked} figures compared, {len(mismatches)} mismatches; {len(sessions)} sessions, {len(period_episodes)} episodes in the period")
    sys.exit(1 if mismatches else 0)


main()
