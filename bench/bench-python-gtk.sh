#!/bin/bash
# bench-python-gtk.sh — figures, not a test: `xreduce session.log --
# python3 APP` on a Python GTK 3 app (python3-gi) whose crash is in C.
#
# Records a scripted session of tests/apps/py-fault.py with xrecord on a
# private Xvfb (clicks into its entry, words typed, erased with BackSpace
# and typed again, then its button Crash, which calls xfault_crash() of
# libxfault.so through ctypes: a SIGSEGV in C below Python's frames), then
# reduces it with xreduce's defaults. The report's title must name the C
# frame with its file and line, and the report show the Python stack.
# Prints the actions before and after, the tests, the wall time, the exit
# status and report.md's first 20 lines.
#
# Usage: bench/bench-python-gtk.sh [BUILD_DIR] [-- extra xreduce options]
# The recording and the report are kept as BUILD_DIR/python-gtk.session and
# BUILD_DIR/python-gtk.min.report; PYGTK_SESSION=FILE reduces FILE instead
# of recording anew.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"   # $top
bench_build_dir "$@"
shift "$bench_shift"
lib=$build/tests/apps/libxfault.so
bench_built "$xrecord" "$xreduce" "$lib"
/usr/bin/python3 -c "import gi; gi.require_version('Gtk', '3.0')" 2>/dev/null ||
  { echo "$0: python3-gi with GTK 3 is not installed" >&2; exit 2; }
bench_installed xdotool
. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
app=(/usr/bin/python3 "$top/tests/apps/py-fault.py" "$lib")
if [ -n "${PYGTK_SESSION:-}" ]; then
  cp "$PYGTK_SESSION" "$tmp/python-gtk.session"
else
xvfb_start "$tmp"
bench_record python-gtk "${app[@]}"
xdotool search --sync --onlyvisible --name "Python fault" >/dev/null
sleep 1   # the first paint; a person waits for it too
xdotool mousemove 200 20 click 1
sleep 0.3
xdotool type --delay 90 "hello world"
sleep 0.5
for _ in 1 2 3 4 5; do xdotool key BackSpace; sleep 0.1; done
xdotool type --delay 90 "there"
sleep 0.5
xdotool mousemove 100 20 click 1
sleep 0.3
xdotool key --delay 120 ctrl+a
xdotool type --delay 90 "bug 32"
sleep 0.5
xdotool mousemove 200 120 click 1
# The crash ends the recording.
bench_recorded python-gtk 20
fi
bench_count python-gtk
bench_reduce "$xreduce" -o "$tmp/python-gtk.min" "$@" "$tmp/python-gtk.session" -- "${app[@]}"
bench_finish python-gtk
