"""Feeds a running aw-server as ActivityWatch's own watchers do, over two days, then writes the
server's export (GET /api/0/export) and what the export holds, worked out here from the export
itself (for the test to compare Vigil's reading with).

The watchers are simulated as their code runs them (aw-watcher-window 0.12, aw-watcher-afk 0.12):
- aw-watcher-window polls the window in front every second and sends each poll as a heartbeat
  (timestamp now, duration 0) with a pulse time of 2 s (its poll time + 1): the server merges it
  into the last event when the data is the same and it comes within the pulse time.
- aw-watcher-afk polls every 5 s the time since the last input, with a timeout of 180 s; it sends
  heartbeats dated from the last input with a pulse time of 185 s (timeout + poll time), two at
  each change of state (the old state, then the new one from the last input).
- aw-watcher-web (0.5) sends the active tab of the browser (url, title, audible, incognito,
  tabCount) every minute from a browser alarm, and at once when another tab is activated, with a
  pulse time of 80 s (its interval + 20 s), whether or not the browser is in front; when the tab's
  data changed it first sends the old data a millisecond earlier. A page opened in the same tab is
  only seen at the next alarm. It runs while the computer is on, locked or not.

The person (times in UTC), the laptop suspended overnight:
  Mon 09:00 the editor (its title changes), 09:05 a video in the browser (another at 09:08), 09:12
  the editor; no input 09:18-09:24; the editor to 09:30, then away for over an hour (a long
  lunch; the screen locks at 09:33, and aw-watcher-window sends nothing while it is locked);
  back 10:35-10:40 in the editor, then the laptop is suspended.
  Tue 09:00 the editor, 09:08 a video, 09:12 the editor; suspended at 09:15.
  The browser's tab: documentation in the background, then the videos. Tuesday's video page has a
  title that does not name its site ("Birds"): only the tab's address tells it is a video site.

Usage: aw_feed.py BASE_URL OUT_FILE TITLE_MARKER
Prints one JSON line: the window events' changes of application (as aw-server merged them), the
export's days, and the number of heartbeats sent. Waits up to 60 s for the server. Standard
library only.
"""
import datetime
import http.client
import json
import sys
import threading
import time
import urllib.parse

base, out, marker = sys.argv[1], sys.argv[2], sys.argv[3]
url = urllib.parse.urlparse(base)


def call(method, path, body=None):
    # A connection per request: aw-server's (Werkzeug's) server closes each one after its answer.
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:200]!r}")
        return text
    finally:
        connection.close()


deadline = time.time() + 60
while True:
    try:
        call("GET", "/api/0/info")
        break
    except Exception:
        if time.time() > deadline:
            raise
        time.sleep(0.2)

window, afk, web = "aw-watcher-window_testhost", "aw-watcher-afk_testhost", "aw-watcher-web-firefox_testhost"
call("POST", f"/api/0/buckets/{window}", {"client": "aw-watcher-window", "type": "currentwindow", "hostname": "testhost"})
call("POST", f"/api/0/buckets/{afk}", {"client": "aw-watcher-afk", "type": "afkstatus", "hostname": "testhost"})
call("POST", f"/api/0/buckets/{web}", {"client": "aw-client-web", "type": "web.tab.current", "hostname": "testhost"})
sent = {window: 0, afk: 0, web: 0}


def heartbeat(bucket, timestamp, duration, data, pulsetime):
    event = {"timestamp": timestamp.isoformat(), "duration": duration, "data": data}
    call("POST", f"/api/0/buckets/{bucket}/heartbeat?pulsetime={pulsetime}", event)
    sent[bucket] += 1


def at(day, hh, mm):
    return datetime.datetime(2026, 3, day, hh, mm, tzinfo=datetime.timezone.utc)


def minutes(t0, t1):
    return (t1 - t0).total_seconds()


# Each day: when the computer is on, what is in front from when, when there is input (from, to),
# and when the screen is locked (aw-watcher-window reads no window then, and sends nothing).
days = [
    {
        "on": (at(2, 9, 0), at(2, 10, 40)),
        "front": [
            (at(2, 9, 0), "Code", "main.swift"), (at(2, 9, 2), "Code", "Package.swift"), (at(2, 9, 4), "Code", "main.swift"),
            (at(2, 9, 5), "Firefox", "Cats - YouTube"), (at(2, 9, 8), "Firefox", "Dogs - YouTube"),
            (at(2, 9, 12), "Code", "main.swift"),
        ],
        "input": [(at(2, 9, 0), at(2, 9, 18)), (at(2, 9, 24), at(2, 9, 30)), (at(2, 10, 35), at(2, 10, 40))],
        "locked": (at(2, 9, 33), at(2, 10, 35)),
    },
    {
        "on": (at(3, 9, 0), at(3, 9, 15)),
        "front": [(at(3, 9, 0), "Code", "main.swift"), (at(3, 9, 8), "Firefox", "Birds"), (at(3, 9, 12), "Code", "main.swift")],
        "input": [(at(3, 9, 0), at(3, 9, 15))],
        "locked": None,
    },
]
# The browser's active tab: (from, activated (True) or opened in the same tab (False), url, title).
docs = ("https://www.swift.org/documentation/", "Documentation")
tabs = [
    [(at(2, 9, 0), True, *docs), (at(2, 9, 5), True, f"https://www.youtube.com/watch?v={marker}cats", "Cats - YouTube"),
     (at(2, 9, 8), False, f"https://www.youtube.com/watch?v={marker}dogs", "Dogs - YouTube")],
    [(at(3, 9, 0), True, *docs), (at(3, 9, 8), True, f"https://www.youtube.com/watch?v={marker}birds", "Birds")],
]


def window_watcher():
    """aw-watcher-window: a heartbeat per second of what is in front, nothing while locked."""
    for day in days:
        start, end = day["on"]
        t = start
        while t < end:
            locked = day["locked"]
            if not (locked and locked[0] <= t < locked[1]):
                shown = [f for f in day["front"] if f[0] <= t][-1]
                heartbeat(window, t, 0.0, {"app": shown[1], "title": f"{marker} {shown[2]}"}, 2.0)
            t += datetime.timedelta(seconds=1)


def afk_watcher():
    """aw-watcher-afk: a poll every 5 s of the time since the last input (timeout 180 s)."""
    for day in days:
        start, end = day["on"]
        afk_state = None
        t = start
        while t < end:
            last_input = max(min(t, b) for a, b in day["input"] if a <= t)
            idle = minutes(last_input, t)
            if afk_state is None:
                afk_state = idle >= 180
                heartbeat(afk, last_input, idle if afk_state else 0.0, {"status": "afk" if afk_state else "not-afk"}, 185.0)
            elif afk_state and idle < 180:
                heartbeat(afk, last_input, 0.0, {"status": "afk"}, 185.0)
                afk_state = False
                heartbeat(afk, last_input, 0.0, {"status": "not-afk"}, 185.0)
            elif not afk_state and idle >= 180:
                heartbeat(afk, last_input, 0.0, {"status": "not-afk"}, 185.0)
                afk_state = True
                heartbeat(afk, last_input, idle, {"status": "afk"}, 185.0)
            elif afk_state:
                heartbeat(afk, last_input, idle, {"status": "afk"}, 185.0)
            else:
                heartbeat(afk, last_input, 0.0, {"status": "not-afk"}, 185.0)
            t += datetime.timedelta(seconds=5)


def web_watcher():
    """aw-watcher-web: the active tab every minute (the alarm) and at each tab activation."""
    previous = None
    for day, day_tabs in zip(days, tabs):
        start, end = day["on"]
        alarms = [start + datetime.timedelta(seconds=30 + 60 * k) for k in range(int(minutes(start, end) // 60))]
        moments = sorted([(t, False) for t in alarms] + [(t, True) for t, activated, _, _ in day_tabs if activated])
        for t, activation in moments:
            if t >= end:
                break
            tab = [entry for entry in day_tabs if entry[0] <= t][-1]
            data = {"url": tab[2], "title": f"{marker} {tab[3]}", "audible": False, "incognito": False, "tabCount": 2}
            if previous is not None and previous != data:
                heartbeat(web, t - datetime.timedelta(milliseconds=1), 0.0, previous, 80.0)
            heartbeat(web, t, 0.0, data, 80.0)
            previous = data


# Three watchers, three processes in real life: three threads here, each sending in its own order.
watchers = [threading.Thread(target=window_watcher), threading.Thread(target=afk_watcher), threading.Thread(target=web_watcher)]
for w in watchers:
    w.start()
for w in watchers:
    w.join()

exported = call("GET", "/api/0/export")
with open(out, "wb") as f:
    f.write(exported)

# What the export holds, from the export: the window events in time order, and each change of the
# application between one and the next. A stop in the data of over the pulse time is a change to
# nothing in front, unless it falls in an afk stretch of over an hour (nobody there to see it).
document = json.loads(exported)
events = sorted(document["buckets"][window]["events"], key=lambda e: e["timestamp"])
away = [
    (datetime.datetime.fromisoformat(e["timestamp"]), datetime.datetime.fromisoformat(e["timestamp"]) + datetime.timedelta(seconds=e["duration"]))
    for e in document["buckets"][afk]["events"] if e["data"]["status"] == "afk" and e["duration"] > 3600
]


def nobody_there(instant):
    return any(a < instant < b for a, b in away)


changes, previous_app, previous_end = 0, None, None
for e in events:
    begin = datetime.datetime.fromisoformat(e["timestamp"])
    if previous_end is not None and minutes(previous_end, begin) > 2.0 and not nobody_there(previous_end):
        changes += 1  # to nothing in front
        previous_app = None
    if e["data"]["app"] != previous_app:
        changes += 1
    previous_app = e["data"]["app"]
    previous_end = begin + datetime.timedelta(seconds=e["duration"])
changes += 1  # the data stops at the end of the export
gaps = [
    minutes(datetime.datetime.fromisoformat(a["timestamp"]) + datetime.timedelta(seconds=a["duration"]), datetime.datetime.fromisoformat(b["timestamp"]))
    for a, b in zip(events, events[1:])
]
print(json.dumps({
    "window_events": len(events), "app_changes": changes, "heartbeats": sum(sent.values()),
    "web_events": len(document["buckets"][web]["events"]),
    "short_gaps": sum(1 for g in gaps if 0 < g <= 2.0), "longest_short_gap": max((g for g in gaps if g <= 2.0), default=0),
}))
