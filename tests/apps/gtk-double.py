#!/usr/bin/python3
# gtk-double.py — a GTK 3 app (python3-gi) that crashes (SIGSEGV) on a
# double click, and only on one, for the pacing tests
# (tests/x11/test-faithful.c).
#
# "GTK double test" (400x300 at +0+0) is one area: a click counts (the
# label says how many), a double click (GTK's GDK_2BUTTON_PRESS, by the
# desktop's gtk-double-click-time, 400 ms by default, and -distance) kills
# the app. Three clicks 1.1 s apart are no double click, for a person or
# for GTK.
import os
import signal

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def on_press(area, event, label, clicks):
    if event.type == Gdk.EventType._2BUTTON_PRESS:
        os.kill(os.getpid(), signal.SIGSEGV)
    elif event.type == Gdk.EventType.BUTTON_PRESS:
        clicks[0] += 1
        label.set_text("%d clicks" % clicks[0])
    return True


def main():
    window = Gtk.Window(title="GTK double test")
    window.move(0, 0)
    window.set_default_size(400, 300)
    window.connect("destroy", Gtk.main_quit)
    area = Gtk.EventBox()
    area.add_events(Gdk.EventMask.BUTTON_PRESS_MASK)
    label = Gtk.Label(label="Click here")
    area.connect("button-press-event", on_press, label, [0])
    area.add(label)
    window.add(area)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
