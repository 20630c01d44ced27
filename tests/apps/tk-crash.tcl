#!/usr/bin/wish
# tk-crash.tcl — a small Tk 8.6 app that crashes (SIGSEGV) only after a
# sequence through a menu and a dialog, for the toolkit tests
# (tests/x11/test-toolkits.c). Tk sets no _NET_WM_PID, and creates each
# toplevel's and menu's window at the root before reparenting it into a
# wrapper of its own.
#
# The main window "Tk crash test" (400x300 at +0+0): a menu bar with File
# (About..., Settings...), an entry at 20,100 (360x30), a button Hello at
# 20,200 (360x60) that counts its clicks. About... opens "About" (300x120
# at +420+0) with one button OK over all of it, which closes it.
# Settings... opens "Settings" (300x120 at +420+0): Apply over its left
# half crashes the app, Close over its right half closes it.
wm title . "Tk crash test"
wm geometry . 400x300+0+0

menu .mb
menu .mb.file -tearoff 0
.mb add cascade -label File -menu .mb.file
.mb.file add command -label "About..." -command about
.mb.file add command -label "Settings..." -command settings
. configure -menu .mb

entry .entry
place .entry -x 20 -y 100 -width 360 -height 30
set clicks 0
button .hello -text Hello -command { incr clicks; .hello configure -text "Hello ($clicks)" }
place .hello -x 20 -y 200 -width 360 -height 60

proc dialog {w title} {
  toplevel $w
  wm title $w $title
  wm geometry $w 300x120+420+0
  wm transient $w .
}

proc about {} {
  if {[winfo exists .about]} { return }
  dialog .about About
  button .about.ok -text OK -command { destroy .about }
  place .about.ok -x 0 -y 0 -relwidth 1 -relheight 1
}

proc settings {} {
  if {[winfo exists .settings]} { return }
  dialog .settings Settings
  button .settings.apply -text Apply -command { exec kill -SEGV [pid] }
  button .settings.close -text Close -command { destroy .settings }
  place .settings.apply -x 0 -y 0 -relwidth 0.5 -relheight 1
  place .settings.close -relx 0.5 -y 0 -relwidth 0.5 -relheight 1
}
