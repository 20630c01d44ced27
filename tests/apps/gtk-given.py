#!/usr/bin/python3
# gtk-given.py — a small GTK 3 app (python3-gi) whose crashes (SIGSEGV)
# depend on what it got from outside: a paste, a drop, a file, a
# variable. For the tests of tests/x11/test-given.c.
#
# The window "Given" (400x300 at +0+0), from its top:
# - an entry at 20,20 (360x40): text that holds "xxBOOMxx", typed or
#   pasted (Ctrl+V from CLIPBOARD, a middle click from PRIMARY), crashes
#   the app;
# - a drop area at 20,80 (360x80): a drop of text or a file's URI that
#   holds "BOOM" crashes it; others are taken;
# - a button Go at 20,180 (360x60): crashes the app when its environment
#   has TZ=Antarctica/Troll, or when the file it opened holds "BOOM";
# - Ctrl+O opens "Open", GTK's file chooser (Ctrl+L, a path, Return):
#   the app reads the file and keeps it open, as an editor does, and
#   shows its size in the label at 20,250.
#
# With --title-cwd the window is "Given (FOLDER)", the folder it was
# started in, as a drawing app names its document's.
import ctypes
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402


def crash():
    # A real crash, in C: a read at address 0.
    ctypes.string_at(0)


class Given:
    def __init__(self):
        self.data = b""
        self.file = None
        title = "Given"
        if "--title-cwd" in sys.argv[1:]:
            title = "Given (%s)" % os.getcwd()
        self.window = Gtk.Window(title=title)
        self.window.set_default_size(400, 300)
        self.window.set_resizable(False)
        self.window.move(0, 0)
        self.window.connect("destroy", Gtk.main_quit)
        self.window.connect("key-press-event", self.on_key)
        fixed = Gtk.Fixed()

        self.entry = Gtk.Entry()
        self.entry.set_size_request(360, 40)
        self.entry.connect("changed", self.on_changed)
        fixed.put(self.entry, 20, 20)

        drop = Gtk.EventBox()
        drop.set_size_request(360, 80)
        drop.add(Gtk.Label(label="Drop here"))
        drop.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
        drop.drag_dest_add_uri_targets()
        drop.drag_dest_add_text_targets()
        drop.connect("drag-data-received", self.on_drop)
        fixed.put(drop, 20, 80)

        go = Gtk.Button(label="Go")
        go.set_size_request(360, 60)
        go.connect("clicked", self.on_go)
        fixed.put(go, 20, 180)

        self.label = Gtk.Label(label="nothing open")
        fixed.put(self.label, 20, 250)
        self.window.add(fixed)
        self.window.show_all()

    def on_changed(self, entry):
        if "xxBOOMxx" in entry.get_text():
            crash()

    def on_drop(self, widget, context, x, y, data, info, time):
        uris = data.get_uris() or []
        text = data.get_text() or ""
        if any("BOOM" in u for u in uris) or "BOOM" in text:
            crash()
        self.label.set_text("dropped %d" % len(uris or [text]))

    def on_go(self, button):
        if os.environ.get("TZ") == "Antarctica/Troll" or b"BOOM" in self.data:
            crash()
        self.label.set_text("went")

    def on_key(self, window, event):
        if event.state & Gdk.ModifierType.CONTROL_MASK and event.keyval in (Gdk.KEY_o, Gdk.KEY_O):
            self.open_file()
            return True
        return False

    def open_file(self):
        dialog = Gtk.FileChooserDialog(title="Open", parent=self.window,
                                       action=Gtk.FileChooserAction.OPEN)
        dialog.add_buttons("_Cancel", Gtk.ResponseType.CANCEL, "_Open", Gtk.ResponseType.ACCEPT)
        if dialog.run() == Gtk.ResponseType.ACCEPT:
            path = dialog.get_filename()
            self.file = open(path, "rb")
            self.data = self.file.read()
            self.label.set_text("%d bytes" % len(self.data))
        dialog.destroy()


def main():
    Given()
    Gtk.main()


if __name__ == "__main__":
    main()
