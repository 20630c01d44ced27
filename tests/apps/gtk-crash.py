#!/usr/bin/python3
# gtk-crash.py — a small GTK 3 app (python3-gi) that crashes (SIGSEGV) only
# after a sequence through a menu and a dialog, for the toolkit tests
# (tests/x11/test-toolkits.c). Its menus are override-redirect popups.
#
# The main window "GTK crash test" (400 wide at +0+0): a menu bar with File
# (About..., Settings...), under it an area where an entry sits at 20,100
# (360x40) and a button Hello at 20,200 (360x60) that counts its clicks.
# About... opens "About" (300x120 at +420+0) with one button OK over all
# of it, which closes it. Settings... opens "Settings" (300x120 at
# +420+0): Apply over its left half crashes the app, Close over its right
# half closes it.
import os
import signal

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def dialog(title, buttons):
    window = Gtk.Window(title=title)
    window.set_default_size(300, 120)
    window.set_resizable(False)
    window.move(420, 0)
    box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, homogeneous=True)
    for label, action in buttons:
        button = Gtk.Button(label=label)
        button.set_size_request(-1, 120)
        button.connect("clicked", action, window)
        box.pack_start(button, True, True, 0)
    window.add(box)
    window.show_all()
    return window


def crash(button, window):
    os.kill(os.getpid(), signal.SIGSEGV)


def close(button, window):
    window.destroy()


def about(item):
    dialog("About", [("OK", close)])


def settings(item):
    dialog("Settings", [("Apply", crash), ("Close", close)])


def main():
    window = Gtk.Window(title="GTK crash test")
    window.move(0, 0)
    window.connect("destroy", Gtk.main_quit)
    vbox = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    menubar = Gtk.MenuBar()
    file_item = Gtk.MenuItem(label="File")
    menu = Gtk.Menu()
    for label, action in (("About...", about), ("Settings...", settings)):
        item = Gtk.MenuItem(label=label)
        item.connect("activate", action)
        menu.append(item)
    file_item.set_submenu(menu)
    menubar.append(file_item)
    vbox.pack_start(menubar, False, False, 0)
    area = Gtk.Fixed()
    area.set_size_request(400, 300)
    entry = Gtk.Entry()
    entry.set_size_request(360, 40)
    area.put(entry, 20, 100)
    hello = Gtk.Button(label="Hello")
    hello.set_size_request(360, 60)
    clicks = [0]

    def count(button):
        clicks[0] += 1
        button.set_label("Hello (%d)" % clicks[0])

    hello.connect("clicked", count)
    area.put(hello, 20, 200)
    vbox.pack_start(area, True, True, 0)
    window.add(vbox)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
