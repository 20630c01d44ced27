#!/usr/bin/python3
# py-fault.py LIB — a GTK 3 app (python3-gi) whose button Crash calls
# xfault_crash() of LIB (libxfault.so, through ctypes), which crashes
# (SIGSEGV): for the crash report tests (tests/x11/test-crashes.c), whose
# report must name the C frame with its file and line, and show the
# Python stack (the button's handler) that faulthandler prints.
#
# The window "Python fault" (400x200 at +0+0): an entry over its top 40
# pixels, the button Crash under it, over the rest.
import ctypes
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def main():
    library = ctypes.CDLL(sys.argv[1])

    def on_crash(button):
        library.xfault_crash()

    window = Gtk.Window(title="Python fault")
    window.set_default_size(400, 200)
    window.move(0, 0)
    window.connect("destroy", Gtk.main_quit)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    entry = Gtk.Entry()
    entry.set_size_request(400, 40)
    box.pack_start(entry, False, False, 0)
    crash = Gtk.Button(label="Crash")
    crash.connect("clicked", on_crash)
    box.pack_start(crash, True, True, 0)
    window.add(box)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
