#!/usr/bin/env python3
"""Writes the ActivityWatch export of the replay benchmark (scripts/bench-activitywatch.sh):
450,000 aw-watcher-window events, 45,000 aw-watcher-afk events and an aw-watcher-web bucket with
the browser's tab at each of its window events (53,252), about 92 MB.

The shape is aw-server's own `GET /api/0/export` (aw-server 0.12, peewee storage, as
Tests/VigilCLITests/Data/aw_feed.py records from a real server): one line; `{"buckets": {ID: {...}}}`
with each bucket's id, created, name (null), type, client, hostname, data ({}) and events, in that
order; events newest first, each `{"timestamp": "...+00:00", "duration": SECONDS, "data": {...}}`
with times to the millisecond (`.123000`), as peewee stores them; Flask's JSON with `", "` and
`": "` between items and every non-ASCII character escaped (`\\u00e9`).

The person: working days of 8 to 11 hours with the computer off at night. Each day alternates
stretches at the keyboard (aw-watcher-afk `not-afk`, 40 s to 5 min) with stretches away (`afk`,
3 to 12 minutes: aw-watcher-afk's timeout is 3 minutes, and it dates the event from the last
input). At the keyboard the window in front changes every 1 to 20 s (a title change is a new
event: a tab, a file, a shell prompt), 19 window events to a stretch; away, the last window stays
in front as one long event. Titles mix English, accented and non-Latin text and emoji. Each
window event of the browser has its tab in aw-watcher-web's bucket (`web.tab.current`, its data
as aw-watcher-web 0.5 sends it): from the window event's start, as long, at an address of one of a
dozen sites with a path of its own (so nearly every address is new). Deterministic: Python's
Mersenne Twister with seeds 33 (the windows and afk, as before the tabs were added) and 35 (tabs).

Usage: scripts/bench-activitywatch-data.py OUT [WINDOW_EVENTS]   (afk events: a tenth of that)
"""
import datetime
import json
import random
import sys

APPS = [
    ("firefox", ["{} — Mozilla Firefox", "{} - YouTube — Mozilla Firefox", "Inbox (3) - {} - Gmail — Mozilla Firefox",
                 "{} · GitHub — Mozilla Firefox", "Café des {} – Wikipédia — Mozilla Firefox"]),
    ("Code", ["{}.swift - vigil - Visual Studio Code", "● {}.py - scripts - Visual Studio Code", "README.md - {} - Visual Studio Code"]),
    ("kitty", ["~/src/{}: swift build", "vim {}.c", "ssh build@{}: htop"]),
    ("Slack", ["{} | Slack", "Thread in #{} | Slack"]),
    ("evince", ["{} — Résumé.pdf", "{}-thesis-draft.pdf"]),
    ("org.gnome.Nautilus", ["{}", "Téléchargements/{}"]),
    ("thunderbird", ["{} - Mozilla Thunderbird"]),
    ("spotify", ["{} – Spotify ♫"]),
]
SITES = ["www.youtube.com/watch?v=", "github.com/vigil/vigil/pull/", "en.wikipedia.org/wiki/Article_", "mail.google.com/mail/u/0/#inbox/",
         "docs.swift.org/swift-book/", "news.ycombinator.com/item?id=", "www.reddit.com/r/swift/comments/", "stackoverflow.com/questions/",
         "twitch.tv/videos/", "developer.apple.com/documentation/", "fr.wikipedia.org/wiki/Caf%C3%A9_", "www.netflix.com/watch/"]
WORDS = ["quarterly report", "naïve Bayes", "東京 trip", "π estimation", "deadline 🎯", "meeting notes", "async await",
         "Zürich", "kernel panic", "recipe ideas", "crème brûlée", "Ελληνικά", "budget 2026", "merge conflict",
         "linear algebra", "Москва", "weekly sync", "🚀 launch plan", "invoice", "thesis chapter 3"]


def main():
    out = sys.argv[1]
    windows = int(sys.argv[2]) if len(sys.argv) > 2 else 450_000
    rng = random.Random(33)
    tabs_rng = random.Random(35)
    window_events, afk_events, web_events = [], [], []
    day = datetime.datetime(2025, 1, 6, tzinfo=datetime.timezone.utc)
    t = day + datetime.timedelta(hours=8)
    day_end = t + datetime.timedelta(hours=rng.uniform(8, 11))
    app, title = APPS[0][0], "New Tab — Mozilla Firefox"

    def stamp(when):
        return when.strftime("%Y-%m-%dT%H:%M:%S.%f")[:23] + "000+00:00"

    while len(window_events) < windows:
        # At the keyboard: 19 windows, then away for a while (with the window left in front: 20).
        active_start = t
        for _ in range(min(19, windows - len(window_events))):
            name, titles = rng.choice(APPS)
            app, title = name, rng.choice(titles).format(" ".join(rng.sample(WORDS, rng.choice((1, 1, 1, 2, 2, 3)))))
            duration = round(rng.uniform(1, 15) if rng.random() < 0.8 else rng.uniform(15, 60), 3)
            window_events.append((t, duration, {"app": app, "title": title}))
            if app == "firefox":
                address = "https://" + tabs_rng.choice(SITES) + str(tabs_rng.randrange(10**9))
                web_events.append((t, duration, {"url": address, "title": title.removesuffix(" — Mozilla Firefox"), "audible": False,
                                                 "incognito": False, "tabCount": tabs_rng.randrange(1, 40)}))
            t += datetime.timedelta(seconds=duration + round(rng.uniform(0, 1), 3))
        afk_events.append((active_start, round((t - active_start).total_seconds(), 3), {"status": "not-afk"}))
        away = round(rng.uniform(180, 720), 3)
        # The window in front while away: one long event.
        window_events.append((t, away, {"app": app, "title": title})) if len(window_events) < windows else None
        afk_events.append((t, away, {"status": "afk"}))
        t += datetime.timedelta(seconds=away)
        if t > day_end:
            day += datetime.timedelta(days=1)
            t = day + datetime.timedelta(hours=rng.uniform(7, 9))
            day_end = t + datetime.timedelta(hours=rng.uniform(8, 11))

    def bucket(bid, kind, client, events):
        head = json.dumps({"id": bid, "created": "2025-01-06T08:00:00.000000+00:00", "name": None, "type": kind, "client": client,
                           "hostname": "laptop", "data": {}})[:-1]
        body = ", ".join(json.dumps({"timestamp": stamp(s), "duration": d, "data": data}) for s, d, data in reversed(events))
        return json.dumps(bid) + ": " + head + ', "events": [' + body + "]}"

    with open(out, "w") as f:
        f.write('{"buckets": {' + bucket("aw-watcher-window_laptop", "currentwindow", "aw-watcher-window", window_events) + ", "
                + bucket("aw-watcher-afk_laptop", "afkstatus", "aw-watcher-afk", afk_events) + ", "
                + bucket("aw-watcher-web-firefox_laptop", "web.tab.current", "aw-client-web", web_events) + "}}")
    print(f"{out}: {len(window_events)} window events, {len(afk_events)} afk events, {len(web_events)} tabs, "
          f"{window_events[0][0].date()} to {window_events[-1][0].date()}")


if __name__ == "__main__":
    main()
