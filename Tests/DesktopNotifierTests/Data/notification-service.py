#!/usr/bin/python3
"""A small freedesktop notification service for tests: owns org.freedesktop.Notifications on the
bus named on the command line, answers Notify with increasing ids, and appends each call to a file
as one JSON line. It is a real D-Bus service (python3-dbus on GLib's main loop), not a mock of the
bus: the bus, the name ownership and the method call are all D-Bus's own.

usage: notification-service.py BUS_ADDRESS LOG_FILE [CAPABILITIES [CLICKS]]
(CAPABILITIES: comma-separated, as GetCapabilities answers; default body,urgency.
CLICKS: comma-separated action keys: a notification that offers one of them has it clicked, as a
person clicks a button, and the service emits ActionInvoked then NotificationClosed, as daemons do.)
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

address, log_path = sys.argv[1], sys.argv[2]
capabilities = sys.argv[3].split(",") if len(sys.argv) > 3 else ["body", "urgency"]
clicks = sys.argv[4].split(",") if len(sys.argv) > 4 else []
DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(address)


class Notifications(dbus.service.Object):
    def __init__(self):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.next_id = 0

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        self.next_id += 1
        record = {
            "app_name": str(app_name), "replaces_id": int(replaces_id), "app_icon": str(app_icon),
            "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
            "hints": {str(k): (int(v) if isinstance(v, (dbus.Byte, dbus.Int32, dbus.UInt32)) else str(v)) for k, v in hints.items()},
            "expire_timeout": int(expire_timeout), "id": self.next_id,
        }
        with open(log_path, "a") as f:
            f.write(json.dumps(record) + "\n")
        nid = replaces_id or self.next_id
        offered = [str(a) for a in actions][0::2]
        chosen = next((k for k in clicks if k in offered), None)
        if chosen is not None:
            # Clicked a moment after it showed, once the caller has its id.
            GLib.timeout_add(200, self.click, nid, chosen)
        return dbus.UInt32(nid)

    def click(self, nid, key):
        self.ActionInvoked(dbus.UInt32(nid), key)
        self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(2))
        return False

    @dbus.service.signal("org.freedesktop.Notifications", signature="us")
    def ActionInvoked(self, nid, key):
        pass

    @dbus.service.signal("org.freedesktop.Notifications", signature="uu")
    def NotificationClosed(self, nid, reason):
        pass

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(3))

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="as")
    def GetCapabilities(self):
        return capabilities

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("vigil-test-notifications", "vigil", "1", "1.2")


name = dbus.service.BusName("org.freedesktop.Notifications", bus)
service = Notifications()
with open(log_path, "a") as f:
    f.write("ready\n")
GLib.MainLoop().run()
