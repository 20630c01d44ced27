#!/usr/bin/python3
# gtk-timer.py — a GTK 3 app (python3-gi) whose dialog arms its OK button
# two seconds after it opened (a timer, as a browser's install dialog
# waits before it lets OK act): OK clicked once armed crashes the app
# (SIGSEGV), before that it only closes the dialog. For the pacing tests
# (tests/x11/test-faithful.c): a person who reads the dialog first
# crashes it; a replay that clicks at once does not.
#
# "GTK timer test" (400x300 at +0+0): a button Open... over all of it.
# "Confirm" (300x120 at +420+0): OK over all of it. The first argument,
# if any, is how long the dialog waits before it arms its OK, in ms.
import os
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def arm(state):
    state["armed"] = True
    return False


def on_ok(button, dialog, state):
    if state["armed"]:
        os.kill(os.getpid(), signal.SIGSEGV)
    dialog.destroy()


def on_open(button):
    state = {"armed": False}
    dialog = Gtk.Window(title="Confirm")
    dialog.set_default_size(300, 120)
    dialog.set_resizable(False)
    dialog.move(420, 0)
    ok = Gtk.Button(label="OK")
    ok.set_size_request(300, 120)
    ok.connect("clicked", on_ok, dialog, state)
    dialog.add(ok)
    dialog.show_all()
    GLib.timeout_add(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, arm, state)


def main():
    window = Gtk.Window(title="GTK timer test")
    window.move(0, 0)
    window.set_default_size(400, 300)
    window.connect("destroy", Gtk.main_quit)
    button = Gtk.Button(label="Open...")
    button.connect("clicked", on_open)
    window.add(button)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
