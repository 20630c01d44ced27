#!/usr/bin/python3
# gtk-type.py — a GTK 3 app (python3-gi) with one text entry that crashes
# (SIGSEGV) when Return is pressed in it with exactly the text given as its
# argument; with any other text it says so on stderr ("typed: TEXT") and
# exits 3. For the keyboard-layout tests (tests/x11/test-toolkits.c):
# what GTK's input method made of the keys (dead keys, Compose, AltGr) is
# what counts.
#
# The window "GTK type test" (400x100 at +0+0): the entry fills it.
import os
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def main():
    expected = sys.argv[1] if len(sys.argv) > 1 else ""
    window = Gtk.Window(title="GTK type test")
    window.set_default_size(400, 100)
    window.move(0, 0)
    window.connect("destroy", Gtk.main_quit)
    entry = Gtk.Entry()

    def activate(entry):
        text = entry.get_text()
        if text == expected:
            os.kill(os.getpid(), signal.SIGSEGV)
        print("typed: " + text, file=sys.stderr, flush=True)
        sys.exit(3)

    entry.connect("activate", activate)
    window.add(entry)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
