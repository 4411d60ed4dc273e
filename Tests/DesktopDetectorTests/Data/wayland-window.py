# A Wayland window for the sway tests: a GTK 3 window whose app_id is argv[1] (GTK takes it from
# the program name; under X11, GDK_BACKEND=x11, it is the WM_CLASS class too) and whose title is the content of the file argv[2], read again every 100 ms so
# the test can change the title as a browser changes its tab's. Runs until it is killed.
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

app_id, title_file = sys.argv[1], sys.argv[2]


def read_title():
    with open(title_file, encoding="utf-8") as f:
        return f.read().strip()


GLib.set_prgname(app_id)
Gdk.set_program_class(app_id)
window = Gtk.Window(title=read_title())
window.connect("destroy", Gtk.main_quit)
window.show_all()


def follow_title():
    title = read_title()
    if title != window.get_title():
        window.set_title(title)
    return True


GLib.timeout_add(100, follow_title)
Gtk.main()
