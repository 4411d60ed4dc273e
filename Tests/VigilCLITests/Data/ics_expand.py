#!/usr/bin/env python3
"""Expands the events of iCalendar files with a second implementation, Python's icalendar and
recurring_ical_events (not libical), for the calendar reader's tests.

Usage: ics_expand.py ZONE FROM TO PATH...    (FROM, TO: YYYY-MM-DD, local days in ZONE, TO excluded;
                                              a PATH may be a directory: its .ics files and those of
                                              its directories one level down)
Prints a JSON list, by start: {"uid", "summary", "start", "end"}, times as UTC "YYYY-MM-DDTHH:MM:SSZ"
(a time without a zone is ZONE's), an all-day event's as {"date": first, "days": n}. Cancelled
occurrences (STATUS:CANCELLED) are left out. A file that is
no calendar is left out and named on standard error.
"""
import datetime
import json
import os
import sys

import icalendar
import recurring_ical_events
from zoneinfo import ZoneInfo


def files(path):
    if not os.path.isdir(path):
        return [path]
    out = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if os.path.isdir(full):
            out += [os.path.join(full, n) for n in sorted(os.listdir(full)) if n.endswith(".ics")]
        elif name.endswith(".ics"):
            out.append(full)
    return out


def utc(value, zone):
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    zone = ZoneInfo(sys.argv[1])
    first = datetime.datetime.combine(datetime.date.fromisoformat(sys.argv[2]), datetime.time(), zone)
    last = datetime.datetime.combine(datetime.date.fromisoformat(sys.argv[3]), datetime.time(), zone)
    out = []
    for path in sys.argv[4:]:
        for file in files(path):
            try:
                calendar = icalendar.Calendar.from_ical(open(file, "rb").read())
            except ValueError as error:
                print(f"{file}: {error}", file=sys.stderr)
                continue
            for e in recurring_ical_events.of(calendar).between(first, last):
                if str(e.get("status", "")).upper() == "CANCELLED":
                    continue  # an occurrence called off
                start, end = e.decoded("dtstart"), e.decoded("dtend")
                item = {"uid": str(e.get("uid")), "summary": str(e.get("summary"))}
                if isinstance(start, datetime.datetime):
                    item.update(start=utc(start, zone), end=utc(end, zone))
                else:
                    item.update(start={"date": start.isoformat(), "days": (end - start).days})
                out.append(item)
    out.sort(key=lambda i: (json.dumps(i["start"]), i["uid"]))
    json.dump(out, sys.stdout)


main()
