#!/usr/bin/wish
# tk-fault.tcl LIB — a Tk app whose button Crash loads LIB (libxfault.so)
# as the Tcl package Xfault, whose Xfault_Init crashes (SIGSEGV): for the
# crash report tests (tests/x11/test-crashes.c), whose report must name
# the C frame with its file and line.
#
# The window "Tk fault" (400x200 at +0+0): an entry over its top 40
# pixels, the button Crash under it, over the rest.
wm title . "Tk fault"
wm geometry . 400x200+0+0
entry .entry
place .entry -x 0 -y 0 -width 400 -height 40
button .crash -text Crash -command { load [lindex $argv 0] Xfault }
place .crash -x 0 -y 40 -width 400 -height 160
