#!/usr/bin/python3
# gtk-source.py TEXT — the other app of tests/x11/test-given.c: what the
# recorded app (gtk-given.py) gets its pastes and drops from. Never
# recorded itself.
#
# The window "Source" (400x200 at +500+0): an entry at 20,20 (360x40)
# that holds TEXT (select it, Ctrl+C: CLIPBOARD; selecting it is PRIMARY),
# and a label "Drag me" at 20,100 (360x60) that drags TEXT away as text
# and, when TEXT names a file (starts with /), as its URI too.
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    text = sys.argv[1] if len(sys.argv) > 1 else "xxBOOMxx"
    window = Gtk.Window(title="Source")
    window.set_default_size(400, 200)
    window.set_resizable(False)
    window.move(500, 0)
    window.connect("destroy", Gtk.main_quit)
    fixed = Gtk.Fixed()

    entry = Gtk.Entry()
    entry.set_text(text)
    entry.set_size_request(360, 40)
    fixed.put(entry, 20, 20)

    drag = Gtk.EventBox()
    drag.set_size_request(360, 60)
    drag.add(Gtk.Label(label="Drag me"))
    drag.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    if text.startswith("/"):
        drag.drag_source_add_uri_targets()
    drag.drag_source_add_text_targets()

    def on_get(widget, context, data, info, time):
        if text.startswith("/") and data.get_target().name() == "text/uri-list":
            data.set_uris([GLib.filename_to_uri(text, None)])
        else:
            data.set_text(text, -1)

    drag.connect("drag-data-get", on_get)
    fixed.put(drag, 20, 100)
    window.add(fixed)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
