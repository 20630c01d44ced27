#!/usr/bin/python3
# gtk-notes.py TITLE X Y — a GTK 3 app (python3-gi) that never crashes: a
# window named TITLE (400x80 at +X+Y) with one text entry. Ctrl+Q closes
# it as a GTK app quits normally: the window is destroyed (unmapped) first,
# then the app exits 0. For xrecord --all's tests (tests/x11/test-record-all.c):
# the apps used beside the one that crashes.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Notes"
    x = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    y = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    window = Gtk.Window(title=title)
    window.set_default_size(400, 80)
    window.move(x, y)
    window.connect("destroy", Gtk.main_quit)
    entry = Gtk.Entry()

    def on_key(widget, event):
        if (event.state & Gdk.ModifierType.CONTROL_MASK) and event.keyval in (Gdk.KEY_q, Gdk.KEY_Q):
            window.destroy()
            return True
        return False

    window.connect("key-press-event", on_key)
    window.add(entry)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
