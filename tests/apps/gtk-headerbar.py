#!/usr/bin/python3
# gtk-headerbar.py — a GTK 3 app (python3-gi) with client-side
# decorations (a GtkHeaderBar), for the desktop tests
# (tests/x11/test-faithful.c). Under a compositing window manager GTK
# draws shadows in invisible margins of its X window (_GTK_FRAME_EXTENTS:
# 26, 26, 23, 29 px under metacity), on a bare server it has none: a
# position relative to the X window means another widget on each.
#
# "GTK headerbar test" (400x300 inside): two buttons side by side, each
# 40x30 at 100,100 and 140,100 of the content area: Crash (SIGSEGV) and
# Harmless. A click 20 px off lands on the other one, or on nothing.
import os
import signal

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def main():
    window = Gtk.Window()
    bar = Gtk.HeaderBar(title="GTK headerbar test", show_close_button=True)
    window.set_titlebar(bar)
    window.set_default_size(400, 300)
    window.connect("destroy", Gtk.main_quit)
    area = Gtk.Fixed()
    crash = Gtk.Button(label="Crash")
    crash.set_size_request(40, 30)
    crash.connect("clicked", lambda *a: os.kill(os.getpid(), signal.SIGSEGV))
    harmless = Gtk.Button(label="Harmless")
    harmless.set_size_request(40, 30)
    area.put(crash, 100, 100)
    area.put(harmless, 140, 100)
    window.add(area)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
