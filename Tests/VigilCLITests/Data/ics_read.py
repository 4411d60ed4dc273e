#!/usr/bin/env python3
"""Reads an iCalendar file with Python's icalendar (a second implementation, not libical) and
prints its to-dos and events as JSON, for the export's tests.

Usage: ics_read.py FILE.ics
Prints {"todos": [...], "events": [...]}: each with its uid, summary, description, categories,
and its times as {"date": "YYYY-MM-DD"} or {"utc": "YYYY-MM-DDTHH:MM:SSZ"}.
"""
import datetime
import json
import sys

import icalendar


def when(component, name):
    if component.get(name) is None:
        return None
    value = component.decoded(name)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return {"floating": value.isoformat()}
        return {"utc": value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    return {"date": value.isoformat()}


def categories(component):
    found = component.get("categories")
    if found is None:
        return []
    out = []
    for c in found if isinstance(found, list) else [found]:
        out.extend(str(x) for x in getattr(c, "cats", [c]))
    return out


def text(component, name):
    value = component.get(name)
    return None if value is None else str(value)


def main():
    with open(sys.argv[1], "rb") as f:
        calendar = icalendar.Calendar.from_ical(f.read())
    out = {"version": text(calendar, "version"), "prodid": text(calendar, "prodid"), "todos": [], "events": []}
    for c in calendar.walk():
        if c.name not in ("VTODO", "VEVENT"):
            continue
        item = {"uid": text(c, "uid"), "summary": text(c, "summary"), "description": text(c, "description"), "categories": categories(c),
                "dtstamp": when(c, "dtstamp")}
        if c.name == "VTODO":
            item.update(due=when(c, "due"), priority=c.get("priority") and int(c.get("priority")), status=text(c, "status"),
                        completed=when(c, "completed"))
            out["todos"].append(item)
        else:
            item.update(start=when(c, "dtstart"), end=when(c, "dtend"), transp=text(c, "transp"))
            out["events"].append(item)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
