#!/bin/bash
# record-xterm-session.sh — records a typed terminal session for real:
# xrecord records xterm (running bash without start-up files) on a private
# Xvfb while xdotool types five commands at a person's pace, with a typo
# corrected by BackSpace, a click into the window and a pause; the last
# command, `kill -SEGV $PPID`, makes the shell kill its xterm with SIGSEGV,
# which ends the recording.
#
# The bundled tests/data/xterm.session is this script's output:
#
#   tests/data/record-xterm-session.sh -o tests/data/xterm.session
#
# Replay or reduce it with the same command line it was recorded with:
#
#   xreduce tests/data/xterm.session -- xterm -geometry 80x24+10+10 -e bash --norc --noprofile
#
# Synchronisation: xrecord prints a line once it records and xterm has a
# window; xdotool waits for the window (search --sync) before typing; the
# recording ends when xterm dies.
#
# Usage: tests/data/record-xterm-session.sh [-o OUT] [BUILD_DIR]
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$here/xterm.recorded.session
build=$top/build
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) build=$1; shift ;;
  esac
done
xrecord=$build/recorder/xrecord
[ -x "$xrecord" ] || { echo "$0: $xrecord is not built" >&2; exit 2; }

. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
xrecord_xterm_start "$xrecord"
# Into the window, a click to be sure of the focus, as a person would.
xdotool mousemove --window "$wid" 120 80
sleep 0.3
xdotool mousemove --window "$wid" 200 150 click 1
sleep 0.8
say () {   # type a command at about 10 keys a second, then Return
  xdotool type --delay 90 "$1"
  sleep 0.3
  xdotool key Return
  sleep "${2:-1.2}"
}
say "ls /"
say "echo helo"
# A typo, corrected.
xdotool type --delay 90 "cd /tnp"
sleep 0.4
xdotool key BackSpace BackSpace
sleep 0.3
xdotool type --delay 90 "mp"
sleep 0.3
xdotool key Return
sleep 2.0
say "pwd"
say 'kill -SEGV $PPID' 0

xrecord_xterm_finish "$out" \
  "Recorded by tests/data/record-xterm-session.sh: xrecord recorded xterm" \
  "(bash --norc) on a private Xvfb while xdotool typed ls /, echo helo," \
  "cd /tnp corrected to cd /tmp, pwd, and kill -SEGV \$PPID, which kills" \
  "the xterm with SIGSEGV. Do not edit by hand: record it again."
