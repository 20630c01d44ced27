#!/usr/bin/env python3
"""make-demo-session.py - writes the demo sessions' script for xdemo.

The demo session is what a user's ~10 s with the demo editor
(tests/apps/xdemo.c) would look like in xrecord's log format
(docs/session-format.md): 95 user actions, in the spirit of the 95-action
Mozilla log of Zeller and Hildebrandt's study, interleaved with the server
events the app receives (maps, exposures, crossings, property changes,
pings).  The output is generated, not recorded, so that the positions
follow xdemo's layout exactly and the output is the same on every run
(standard library only, no randomness but a fixed LCG).

The bundled tests/data/demo.session is not this output but its recording:
tests/data/record-demo-session.sh has xdotool perform the print variant's
actions at its pace while xrecord records xdemo (91 actions: the pointer's
moves over the bare desktop are not the app's). The abort and drag
sessions are this script's output.

    tests/data/make-demo-session.py                     > print.session   # the script
    tests/data/make-demo-session.py --variant abort     > tests/data/demo-abort.session
    tests/data/make-demo-session.py --variant drag      > tests/data/demo-drag.session

Variants (they share the first actions and differ where the bug strikes):
  print  (demo.session) ends with Alt+P and a click on the Print dialog's
         Print button: crashes xdemo --bug print/twin/flaky, hangs
         --bug hang; on the way, Wrap is checked and F5 pressed later,
         which crashes --bug order.
  abort  the Options dialog is closed with OK while Bold is checked:
         xdemo --bug abort aborts there and the log ends.
  drag   the drag from the text field ends on the Trash area: xdemo
         --bug drag crashes there and the log ends.

To read it, start at `script()`: one call per gesture of the user.
"""

import argparse
import sys

# ---- xdemo's layout at the default geometry (see tests/apps/xdemo.c) ----

MAIN_X, MAIN_Y = 100, 100
SCREEN = (1280, 1024)
ROOT_ID = 0x50D          # the root window of a fresh Xvfb
ID_BASE = 0x400000       # xdemo is the second client, after xrecord

# title -> (offset from the main window, size, override-redirect)
WINDOWS = {
    "Editor": ((0, 0), (640, 480), False),
    "File": ((6, 24), (120, 88), True),
    "Print": ((660, 20), (320, 160), False),
    "Options": ((660, 220), (320, 180), False),
}

# widget -> (window title, x, y, w, h), relative to the window
WIDGETS = {
    "file": ("Editor", 6, 2, 40, 20),
    "text": ("Editor", 20, 44, 600, 28),
    "wrap": ("Editor", 20, 88, 90, 22),
    "options": ("Editor", 20, 130, 110, 30),
    "print": ("Editor", 145, 130, 110, 30),
    "clear": ("Editor", 270, 130, 110, 30),
    "trash": ("Editor", 440, 290, 180, 160),
    "print.print": ("Print", 40, 112, 100, 32),
    "print.cancel": ("Print", 180, 112, 100, 32),
    "options.bold": ("Options", 20, 30, 120, 24),
    "options.italic": ("Options", 20, 62, 120, 24),
    "options.ok": ("Options", 40, 130, 100, 32),
    "options.cancel": ("Options", 180, 130, 100, 32),
}

# keysym -> keycode on a us evdev keymap (Xvfb's default)
KEYCODES = {
    "Escape": 9, "BackSpace": 22, "Return": 36, "space": 65, "period": 60,
    "comma": 59, "F5": 71, "Shift_L": 50, "Alt_L": 64,
    "q": 24, "w": 25, "e": 26, "r": 27, "t": 28, "y": 29, "u": 30, "i": 31,
    "o": 32, "p": 33, "a": 38, "s": 39, "d": 40, "f": 41, "g": 42, "h": 43,
    "j": 44, "k": 45, "l": 46, "z": 52, "x": 53, "c": 54, "v": 55, "b": 56,
    "n": 57, "m": 58,
}
MODIFIER_MASK = {"Shift_L": 0x1, "Alt_L": 0x8}
BUTTON1_MASK = 0x100

# the properties xdemo sets on a new top-level, in order
NEW_WINDOW_PROPERTIES = [
    "WM_NAME", "WM_ICON_NAME", "WM_CLIENT_MACHINE", "WM_NORMAL_HINTS",
    "WM_HINTS", "WM_CLASS", "WM_LOCALE_NAME", "_NET_WM_NAME", "WM_PROTOCOLS",
    "_NET_WM_PID",
]

PING_INTERVAL = 200      # xrecord pings the app five times a second


def widget_center(name, dx=0, dy=0):
    """Root coordinates of a point near the centre of a widget."""
    title, x, y, w, h = WIDGETS[name]
    (ox, oy), _, _ = WINDOWS[title]
    return MAIN_X + ox + x + w // 2 + dx, MAIN_Y + oy + y + h // 2 + dy


def in_widget(name, rx, ry):
    title, x, y, w, h = WIDGETS[name]
    (ox, oy), _, _ = WINDOWS[title]
    px, py = rx - MAIN_X - ox, ry - MAIN_Y - oy
    return x <= px < x + w and y <= py < y + h


class Window:
    def __init__(self, wid, title):
        (ox, oy), (w, h), override = WINDOWS[title]
        self.wid, self.title = wid, title
        self.x, self.y, self.w, self.h = MAIN_X + ox, MAIN_Y + oy, w, h
        self.override = override

    def contains(self, rx, ry):
        # xdemo's windows have no border
        return self.x <= rx < self.x + self.w and self.y <= ry < self.y + self.h


class Recorder:
    """Tracks the pointer, the modifier state and the app's windows, and
    writes the log lines the way xrecord would."""

    def __init__(self):
        self.lines = []
        self.t = 0
        self.next_ping = 500
        self.pointer = (1000, 700)
        self.state = 0
        self.next_id = ID_BASE + 3      # after xdemo's font and GC
        self.mapped = []                # in first-map order (index = window=N)
        self.under = None               # window under the pointer
        self.seed = 24735
        self.n_actions = 0

    # -- helpers --
    def rand(self, lo, hi):
        """A deterministic number in [lo, hi] (a 31-bit LCG)."""
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return lo + (self.seed >> 8) % (hi - lo + 1)

    def wait(self, lo, hi=None):
        target = self.t + (lo if hi is None else self.rand(lo, hi))
        while self.next_ping <= target and self.mapped:
            self.t = self.next_ping
            main = self.mapped[0]
            self.server("ClientMessage", window=hex(main.wid), type="WM_PROTOCOLS",
                        data="_NET_WM_PING")
            self.next_ping += PING_INTERVAL
        self.t = target

    def emit(self, text):
        self.lines.append("%d %s" % (self.t, text))

    def server(self, name, **fields):
        self.emit(" ".join([name] + ["%s=%s" % (k, v) for k, v in fields.items()]))

    def comment(self, text):
        self.lines.append("# " + text)

    def window_at(self, rx, ry):
        # later maps are on top; the override-redirect menu above all
        for w in sorted(reversed(self.mapped), key=lambda w: not w.override):
            if w.contains(rx, ry):
                return w
        return None

    def identity(self, w):
        rx, ry = self.pointer
        if w is None:
            return "root=%d,%d" % (rx, ry)   # window -1 (the root) is implied
        return 'root=%d,%d pos=%d,%d window=%d class="XDemo" title="%s"' % (
            rx, ry, rx - w.x, ry - w.y, self.mapped.index(w), w.title)

    def action(self, text, w):
        self.emit("%s %s" % (text, self.identity(w)))
        self.n_actions += 1

    def crossing(self, new):
        """Enter/Leave and (focus follows the pointer) FocusOut/FocusIn."""
        old = self.under
        if old is new:
            return
        if old is not None and old in self.mapped:
            self.server("LeaveNotify", window=hex(old.wid), mode="NotifyNormal",
                        detail="NotifyNonlinear" if new else "NotifyAncestor")
        if new is not None:
            self.server("EnterNotify", window=hex(new.wid), mode="NotifyNormal",
                        detail="NotifyNonlinear" if old else "NotifyAncestor")
        if old is not None and old in self.mapped:
            self.server("FocusOut", window=hex(old.wid), mode="NotifyNormal",
                        detail="NotifyPointer")
        if new is not None:
            self.server("FocusIn", window=hex(new.wid), mode="NotifyNormal",
                        detail="NotifyPointer")
        self.under = new

    def user_time(self, w):
        if w is not None:
            self.server("PropertyNotify", window=hex(w.wid), atom="_NET_WM_USER_TIME",
                        state="NewValue")

    # -- the app's windows --
    def open_window(self, title):
        w = Window(self.next_id, title)
        self.next_id += 1
        self.wait(4, 12)
        self.server("CreateNotify", window=hex(w.wid), parent=hex(ROOT_ID),
                    area="%d,%d,%d,%d" % (w.x, w.y, w.w, w.h), border=0,
                    override=int(w.override))
        for atom in NEW_WINDOW_PROPERTIES + ([] if title == "Editor" else ["WM_TRANSIENT_FOR"]):
            self.server("PropertyNotify", window=hex(w.wid), atom=atom, state="NewValue")
        self.wait(1, 3)
        self.mapped.append(w)
        self.server("MapNotify", window=hex(w.wid), override=int(w.override))
        if w.contains(*self.pointer):
            self.crossing(w)
        self.wait(1, 4)
        self.server("Expose", window=hex(w.wid), area="0,0,%d,%d" % (w.w, w.h), count=0)
        return w

    def close_window(self, title):
        w = next(w for w in self.mapped if w.title == title)
        self.wait(3, 9)
        self.server("UnmapNotify", window=hex(w.wid), event=hex(w.wid), from_configure=0)
        self.server("DestroyNotify", window=hex(w.wid), event=hex(w.wid))
        self.mapped.remove(w)
        if self.under is w:
            self.under = None
        main = self.mapped[0] if self.mapped else None
        if w.override and main is not None:
            # the menu covered part of the main window
            self.wait(1, 3)
            self.server("Expose", window=hex(main.wid), area="%d,%d,%d,%d" % (
                w.x - main.x, w.y - main.y, w.w, w.h), count=0)
        self.crossing(self.window_at(*self.pointer))

    def crash(self, signal):
        """The app dies: the server unmaps and destroys its windows."""
        self.wait(20, 40)
        for w in list(reversed(self.mapped)):
            self.server("UnmapNotify", window=hex(w.wid), event=hex(w.wid), from_configure=0)
            self.server("DestroyNotify", window=hex(w.wid), event=hex(w.wid))
        self.mapped = []
        self.lines.append("outcome crashed %s" % signal)

    # -- user gestures --
    def move(self, x, y, steps=3, lo=15, hi=35):
        """Moves the pointer in `steps` motion events to (x, y)."""
        x0, y0 = self.pointer
        for i in range(1, steps + 1):
            self.wait(lo, hi)
            self.pointer = (x0 + (x - x0) * i // steps, y0 + (y - y0) * i // steps)
            w = self.window_at(*self.pointer)
            self.crossing(w)
            self.action("MotionNotify state=0x%x" % self.state, w)

    def press(self, button=1):
        w = self.window_at(*self.pointer)
        self.action("ButtonPress button=%d state=0x%x" % (button, self.state), w)
        self.user_time(w)
        self.state |= BUTTON1_MASK << (button - 1)
        return w

    def release(self, button=1):
        w = self.window_at(*self.pointer)
        self.action("ButtonRelease button=%d state=0x%x" % (button, self.state), w)
        self.state &= ~(BUTTON1_MASK << (button - 1))
        return w

    def click(self, hold=(70, 120)):
        self.press()
        self.wait(*hold)
        self.release()

    def key_down(self, keysym):
        w = self.window_at(*self.pointer)
        self.action("KeyPress keysym=%s keycode=%d state=0x%x" % (
            keysym, KEYCODES[keysym.lower() if len(keysym) == 1 else keysym], self.state), w)
        self.user_time(w)
        self.state |= MODIFIER_MASK.get(keysym, 0)

    def key_up(self, keysym):
        w = self.window_at(*self.pointer)
        self.action("KeyRelease keysym=%s keycode=%d state=0x%x" % (
            keysym, KEYCODES[keysym.lower() if len(keysym) == 1 else keysym], self.state), w)
        self.state &= ~MODIFIER_MASK.get(keysym, 0)

    def key(self, keysym, modifier=None, then=None):
        """A keystroke, with a modifier held around it; `then` is what the
        app does on the key press (before the release)."""
        if modifier:
            self.key_down(modifier)
            self.wait(60, 110)
        self.key_down(keysym)
        if then:
            then()
        self.wait(50, 90)
        self.key_up(keysym)
        if modifier:
            self.wait(30, 70)
            self.key_up(modifier)

    def type(self, text):
        names = {" ": "space", ".": "period", ",": "comma"}
        for ch in text:
            self.wait(60, 150)
            if ch.isupper():
                self.key(ch, modifier="Shift_L")
            else:
                self.key(names.get(ch, ch))


def script(rec, variant):
    """The user's session, gesture by gesture."""
    rec.comment("xdemo starts and maps its main window; the pointer rests on the root window.")
    rec.wait(60)
    rec.open_window("Editor")
    rec.wait(300)

    rec.comment("Into the main window and a click on the text field.")
    rec.move(*widget_center("text", dx=-100, dy=-2), steps=5, lo=20, hi=45)
    rec.wait(120, 200)
    rec.click()

    rec.comment("Types \"Hello world\" (Shift for the capital).")
    rec.wait(180, 260)
    rec.type("Hello world")

    rec.comment("Checks Wrap (once, early: with --bug order the F5 below crashes).")
    rec.wait(200, 300)
    rec.move(*widget_center("wrap", dx=-30), steps=2)
    rec.wait(100, 180)
    rec.click()

    rec.comment("Alt+O: the Options dialog; Bold is checked, then Cancel (OK in --variant abort).")
    rec.wait(180, 260)
    rec.key("o", modifier="Alt_L", then=lambda: rec.open_window("Options"))
    rec.wait(200, 300)
    rec.move(*widget_center("options.bold", dx=-40), steps=3, lo=25, hi=45)
    rec.wait(100, 200)
    rec.click()
    rec.wait(180, 260)
    if variant == "abort":
        rec.move(*widget_center("options.ok"), steps=2, lo=25, hi=45)
        rec.wait(120, 200)
        rec.press()
        rec.wait(70, 110)
        rec.release()
        rec.comment("OK with Bold checked: xdemo --bug abort fails an assertion and aborts.")
        rec.crash("SIGABRT")
        return
    rec.move(*widget_center("options.cancel"), steps=2, lo=25, hi=45)
    rec.wait(120, 200)
    rec.press()
    rec.wait(70, 110)
    rec.release()
    rec.close_window("Options")

    rec.comment("Back to the main window; Alt+F opens the File menu, Escape closes it.")
    rec.wait(200, 300)
    rec.move(380, 330, steps=3, lo=25, hi=45)
    rec.wait(200, 300)
    rec.key("f", modifier="Alt_L", then=lambda: rec.open_window("File"))
    rec.wait(220, 320)
    rec.move(170, 150, steps=2, lo=30, hi=50)      # over the menu's "New"
    rec.wait(300, 380)
    rec.key("Escape", then=lambda: rec.close_window("File"))

    target = widget_center("trash") if variant == "drag" else (360, 390)
    rec.comment("A drag from the text field to %s." % (
        "the Trash area" if variant == "drag" else "an empty spot (not the Trash)"))
    rec.wait(180, 260)
    rec.move(*widget_center("text", dx=40), steps=1)
    rec.wait(150, 250)
    rec.press()
    rec.move(*target, steps=3, lo=30, hi=60)
    rec.wait(100, 150)
    rec.release()
    if variant == "drag":
        assert in_widget("trash", *rec.pointer)
        rec.comment("Dropped on the Trash: xdemo --bug drag crashes.")
        rec.crash("SIGSEGV")
        return
    assert not in_widget("trash", *rec.pointer)

    rec.comment("F5 refreshes (Wrap is on: xdemo --bug order crashes here).")
    rec.wait(200, 300)
    rec.key("F5")

    rec.comment("Alt+P opens the Print dialog; Cancel.")
    rec.wait(200, 300)
    rec.key("p", modifier="Alt_L", then=lambda: rec.open_window("Print"))
    rec.wait(200, 300)
    rec.move(*widget_center("print.cancel", dx=10, dy=2), steps=3, lo=25, hi=50)
    rec.wait(120, 200)
    rec.click()
    rec.close_window("Print")

    rec.comment("Back to the main window: corrects the last letter and ends the sentence.")
    rec.wait(200, 300)
    rec.move(520, 220, steps=2, lo=25, hi=45)
    rec.wait(200, 300)
    rec.key("BackSpace")
    rec.type("d.")

    rec.comment("Alt+P again, and button 1 pressed and released on Print: the crash.")
    rec.wait(250, 350)
    rec.key("p", modifier="Alt_L", then=lambda: rec.open_window("Print"))
    rec.wait(200, 300)
    rec.move(*widget_center("print.print", dx=-6, dy=1), steps=5, lo=25, hi=50)
    rec.wait(150, 250)
    rec.press()
    rec.wait(80, 120)
    rec.release()
    rec.crash("SIGSEGV")


def main():
    parser = argparse.ArgumentParser(description="Writes a demo session for xdemo on stdout.")
    parser.add_argument("--variant", choices=["print", "abort", "drag"], default="print")
    args = parser.parse_args()

    rec = Recorder()
    script(rec, args.variant)

    command = '"xdemo"' if args.variant == "print" else '"xdemo" "--bug" "%s"' % args.variant
    out = sys.stdout
    out.write("# xreduce demo session (%s variant), generated by tests/data/make-demo-session.py\n"
              % args.variant)
    out.write("# for the demo app tests/apps/xdemo.c at its default geometry: main window\n"
              "# \"Editor\" at +100+100, the Print dialog at +760+120, Options at +760+320,\n"
              "# the File menu at +106+124.  Do not edit by hand: change the generator.\n")
    if args.variant == "print":
        out.write("# It ends with a click on Print: xdemo --bug print (the default), twin,\n"
                  "# flaky crash there, --bug hang hangs; --bug order crashes earlier, at F5.\n")
    out.write("# %d user actions.\n" % rec.n_actions)
    out.write("xreduce-session 1\n")
    out.write("screen %dx%d\n" % SCREEN)
    out.write("command %s\n" % command)
    out.write('keymap "us"\n')
    for line in rec.lines:
        out.write(line + "\n")
    if args.variant == "print" and rec.n_actions != 95:
        sys.exit("make-demo-session.py: %d user actions, not 95" % rec.n_actions)


if __name__ == "__main__":
    main()
