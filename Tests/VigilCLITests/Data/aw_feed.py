"""Feeds a running aw-server with a morning of aw-watcher-window and aw-watcher-afk events through
its REST API, as the watchers would, then writes the server's own export (GET /api/0/export).

Usage: aw_feed.py BASE_URL OUT_FILE TITLE_MARKER
Waits up to 60 s for the server to answer. Standard library only.
"""
import json
import sys
import time
import urllib.request

base, out, marker = sys.argv[1], sys.argv[2], sys.argv[3]


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read()


deadline = time.time() + 60
while True:
    try:
        call("GET", "/api/0/info")
        break
    except Exception:
        if time.time() > deadline:
            raise
        time.sleep(0.2)

window, afk = "aw-watcher-window_testhost", "aw-watcher-afk_testhost"
call("POST", f"/api/0/buckets/{window}", {"client": "aw-watcher-window", "type": "currentwindow", "hostname": "testhost"})
call("POST", f"/api/0/buckets/{afk}", {"client": "aw-watcher-afk", "type": "afkstatus", "hostname": "testhost"})


def at(minute):
    return f"2026-03-02T09:{minute:02d}:00+00:00"


# 09:00 editor, 09:05 a video in the browser (7 min), 09:12 back in the editor until 09:22.
call("POST", f"/api/0/buckets/{window}/events", [
    {"timestamp": at(0), "duration": 300.0, "data": {"app": "Code", "title": f"main.swift {marker}"}},
    {"timestamp": at(5), "duration": 420.0, "data": {"app": "Firefox", "title": f"Cats - YouTube {marker}"}},
    {"timestamp": at(12), "duration": 600.0, "data": {"app": "Code", "title": f"main.swift {marker}"}},
])
# Active until 09:22, then away (from the last input) for 8 minutes, active again to 09:40.
call("POST", f"/api/0/buckets/{afk}/events", [
    {"timestamp": at(0), "duration": 1320.0, "data": {"status": "not-afk"}},
    {"timestamp": at(22), "duration": 480.0, "data": {"status": "afk"}},
    {"timestamp": at(30), "duration": 600.0, "data": {"status": "not-afk"}},
])
with open(out, "wb") as f:
    f.write(call("GET", "/api/0/export"))
