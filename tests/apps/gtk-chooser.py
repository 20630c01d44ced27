#!/usr/bin/python3
# gtk-chooser.py — a GTK 3 app (python3-gi) with a file chooser, for the
# pacing tests (tests/x11/test-faithful.c): opening the file crash.txt
# crashes it (SIGSEGV). The chooser loads its folder asynchronously (GIO's
# worker threads, then the model in idle steps): a name typed before that
# is done is not completed. A person waits for the list to show.
#
# "GTK chooser test" (400x300 at +0+0): a button Open... over all of it,
# which opens "Open File" in the folder FOLDER (the first argument, else
# HOME).
import os
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def on_response(dialog, response, state):
    if response == Gtk.ResponseType.ACCEPT:
        name = dialog.get_filename() or ""
        print("opened %r" % name, file=sys.stderr, flush=True)
        if os.path.basename(name) == "crash.txt" and os.path.exists(name):
            os.kill(os.getpid(), signal.SIGSEGV)
    dialog.destroy()


def on_open(button, folder):
    dialog = Gtk.FileChooserDialog(title="Open File", action=Gtk.FileChooserAction.OPEN)
    dialog.add_buttons("_Cancel", Gtk.ResponseType.CANCEL, "_Open", Gtk.ResponseType.ACCEPT)
    dialog.set_default_response(Gtk.ResponseType.ACCEPT)
    dialog.set_default_size(600, 400)
    dialog.set_current_folder(folder)
    dialog.connect("response", on_response, None)
    dialog.show()


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~")
    window = Gtk.Window(title="GTK chooser test")
    window.move(0, 0)
    window.set_default_size(400, 300)
    window.connect("destroy", Gtk.main_quit)
    button = Gtk.Button(label="Open...")
    button.connect("clicked", on_open, folder)
    window.add(button)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
