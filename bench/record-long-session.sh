#!/bin/bash
# record-long-session.sh — records the long session of bench-long-session.sh:
# xrecord records xterm (bash without start-up files) on a private Xvfb
# while xdotool moves the pointer about the window (60 motions between
# commands, as a person's hand wanders) and types 30 commands; the last,
# `kill -SEGV $PPID`, makes the shell kill its xterm with SIGSEGV, which
# ends the recording. About 2,300 actions: 1,800 motions, the rest keys.
#
# Synchronisation: xrecord prints a line once it records and xterm has a
# window; xdotool waits for the window (search --sync); each command's
# output is not waited for (the replay waits for the app, not the script).
#
# Usage: bench/record-long-session.sh [-o OUT] [BUILD_DIR]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
out=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) build=$1; shift ;;
  esac
done
out=${out:-$build/long.session}
xrecord=$build/recorder/xrecord
[ -x "$xrecord" ] || { echo "$0: $xrecord is not built" >&2; exit 2; }

. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
xrecord_xterm_start "$xrecord"
xdotool mousemove --window "$wid" 200 150 click 1
sleep 0.5
wander () {   # 60 motions inside the window, along a loop
  for step in $(seq 60); do
    echo "mousemove --window $wid $((60 + (step * 37) % 400)) $((40 + (step * 23) % 250))"
  done | xdotool -
}
for i in $(seq 29); do
  wander
  xdotool type --delay 12 "echo line $i"
  xdotool key Return
  sleep 0.05
done
wander
xdotool type --delay 12 'kill -SEGV $PPID'
xdotool key Return

xrecord_xterm_finish "$out" \
  "Recorded by bench/record-long-session.sh: xrecord recorded xterm" \
  "(bash --norc) on a private Xvfb while xdotool moved the pointer about" \
  "(60 motions a time) and typed echo line 1 ... 29 and kill -SEGV \$PPID."
