#!/bin/bash
# check-xdemo.sh — checks the demo app by hand-made gestures: each bug ends
# xdemo the way --help says (signal, hang), only after the actions that
# trigger it, and the editor logic (text field, check boxes, menu,
# dialogs, --geometry, exit status) works.  Prints TAP on stdout.
#
# Each gesture is driven with xdotool on a private Xvfb; X delivers the
# injected events in order, so the script only waits for windows xdemo has
# still to map (xdotool search --sync) and for xdemo's own output lines.
# Start reading at the end, at the list of checks.
#
# Usage: tests/apps/check-xdemo.sh [XDEMO]
#        (default: build/tests/apps/xdemo, then build-demo/tests/apps/xdemo)
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
xdemo=${1:-}
if [ -z "$xdemo" ]; then
  for candidate in "$top/build/tests/apps/xdemo" "$top/build-demo/tests/apps/xdemo"; do
    [ -x "$candidate" ] && { xdemo=$candidate; break; }
  done
fi
[ -n "$xdemo" ] && [ -x "$xdemo" ] || { echo "$0: no xdemo binary (pass its path)" >&2; exit 2; }
for tool in Xvfb xdotool timeout; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done

tmp=$(mktemp -d)
xvfb_pid=
app_pid=
runner_pid=
cleanup () {
  [ -n "$app_pid" ] && kill -KILL "$app_pid" 2>/dev/null
  xvfb_stop
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$here/../../scripts/xvfb.sh"
xvfb_start "$tmp"

checks=0
failures=0
ok () {     # ok DESCRIPTION COMMAND...: one TAP line for the command's status
  local what=$1
  shift
  checks=$((checks + 1))
  if "$@"; then
    echo "ok $checks - $what"
  else
    failures=$((failures + 1))
    echo "not ok $checks - $what"
    sed 's/^/# stdout: /' "$tmp/out" 2>/dev/null | tail -n 5
  fi
}

wait_window () {   # wait_window TITLE [SECONDS]
  timeout "${2:-5}" xdotool search --sync --onlyvisible --name "^$1\$" >/dev/null 2>&1
}
gone_window () {   # gone_window TITLE: no visible window TITLE (within 5 s)
  for _ in $(seq 50); do
    xdotool search --onlyvisible --name "^$1\$" >/dev/null 2>&1 || return 0
    timeout 0.1 tail -f /dev/null
  done
  return 1
}
said () {          # said TEXT: xdemo printed a line containing TEXT (within 5 s)
  for _ in $(seq 50); do
    grep -q -F -- "$1" "$tmp/out" && return 0
    timeout 0.1 tail -f /dev/null
  done
  return 1
}

# launch ARGS...: xdemo in the background, through a subshell that writes
# its exit status (128 + signal) to $tmp/status: more robust than bash's
# own `wait PID` for a job it may have reaped and reported already.
launch () {
  rm -f "$tmp/status" "$tmp/pid"
  (
    "$xdemo" "$@" >"$tmp/out" 2>"$tmp/err" &
    echo $! >"$tmp/pid"
    wait $!
    echo $? >"$tmp/status"
  ) 2>/dev/null &
  runner_pid=$!
}
# reap: waits for the subshell; sets $app_status to xdemo's exit status.
reap () {
  wait "$runner_pid" 2>/dev/null
  app_status=$(cat "$tmp/status" 2>/dev/null || echo unknown)
  app_pid=
}
start () {         # start ARGS...: xdemo in the background, its window mapped
  launch "$@"
  wait_window Editor 10 || { echo "$0: xdemo $* did not map its window" >&2; exit 3; }
  app_pid=$(cat "$tmp/pid")
}
ended () {         # ended STATUS: xdemo exited with STATUS (139 SIGSEGV...) in 5 s
  local status
  timeout 5 tail --pid="$app_pid" -f /dev/null || return 1
  reap
  status=$app_status
  [ "$status" = "$1" ] || { echo "# exit status $status, expected $1"; return 1; }
}
alive () { kill -0 "$app_pid" 2>/dev/null; }
stop () {          # stop: closes the main window; xdemo exits 0
  [ -n "$app_pid" ] || return 0
  xdotool search --name '^Editor$' windowclose >/dev/null 2>&1
  ended 0 || { kill -KILL "$app_pid" 2>/dev/null; reap; return 1; }
}

# Gestures at the default geometry (see the layout in xdemo.c).
click () { xdotool mousemove "$1" "$2" click 1; }
type_text () { xdotool mousemove 400 400 type --delay 20 "$1"; }
print_dialog () { xdotool mousemove 400 400 key alt+p; wait_window Print; }
print_click () { print_dialog && click 850 248; }
round_trip () {   # the events sent so far are handled: F5 prints "refreshed"
  local n
  n=$(grep -c refreshed "$tmp/out")
  xdotool mousemove 400 400 key F5
  for _ in $(seq 50); do
    [ "$(grep -c refreshed "$tmp/out")" -gt "$n" ] && return 0
    timeout 0.1 tail -f /dev/null
  done
  return 1
}
echo "# xdemo: $xdemo, DISPLAY=$DISPLAY"

# --- command line ---
"$xdemo" --help >"$tmp/out"
ok "--help exits 0" test $? = 0
ok "--help lists the bugs" grep -q 'flaky' "$tmp/out"
"$xdemo" --bogus >/dev/null 2>"$tmp/err"
ok "an unknown option exits 2" test $? = 2
"$xdemo" --bug nope >/dev/null 2>&1
ok "an unknown bug exits 2" test $? = 2
"$xdemo" --bug flaky --probability 2 >/dev/null 2>&1
ok "a probability over 1 exits 2" test $? = 2
"$xdemo" --slow-dialogs -5 >/dev/null 2>"$tmp/err"
ok "a negative --slow-dialogs exits 2" test $? = 2
ok "... and says why" grep -q "bad --slow-dialogs '-5'" "$tmp/err"

# --- print (the default) ---
start
print_dialog
xdotool mousemove 850 248 mousedown 1 mousemove 400 400 mouseup 1
ok "print: a press on Print released elsewhere does nothing" round_trip
click 850 248
ok "print: press and release on Print: SIGSEGV" ended 139
ok "print: it crashed in print_document" said 'printing ""'

# --- the editor logic, --bug none ---
start --bug none
click 300 158
type_text "Hello world"
xdotool key BackSpace
print_click
ok "none: typed text, BackSpace, Print prints it" said 'printed "Hello worl"'
ok "none: Print closes the dialog" gone_window Print
xdotool mousemove 400 400 key alt+o && wait_window Options
click 800 362                                   # Bold
click 850 466                                   # OK
ok "none: Options > Bold > OK applies bold" said 'options applied (bold on)'
click 135 199
ok "none: Wrap toggles on" said 'wrap on'
click 420 245                                   # Clear
print_click
ok "none: Clear empties the text" said 'printed ""'
xdotool mousemove 400 400 key alt+f && wait_window File
xdotool mousemove 150 138 click 1               # New
ok "none: File > New" said 'new document'
ok "none: the menu closes after an item" gone_window File
xdotool mousemove 400 400 key alt+f && wait_window File
click 600 400                                   # outside the menu
ok "none: a click outside the menu closes it" gone_window File
xdotool mousemove 400 400 key alt+p && wait_window Print
xdotool key alt+o && wait_window Options
xdotool key Escape
ok "none: Escape closes the topmost dialog (Options)" gone_window Options
ok "none: ... and leaves Print open" wait_window Print 1
xdotool key Escape
ok "none: Escape again closes Print" gone_window Print
click 245 245                                   # the Print... button
ok "none: the Print... button opens the dialog" wait_window Print
click 990 248
ok "none: Cancel closes it" gone_window Print
xdotool mousemove 400 400 key alt+f && wait_window File
xdotool mousemove 150 198 click 1               # Quit
ok "none: File > Quit exits 0" ended 0

start --bug none
ok "none: closing the main window exits 0" stop

# --- twin ---
start --bug twin
print_click
ok "twin: Print with an empty text: SIGSEGV" ended 139
ok "twin: ... in print_empty_document" said 'printing an empty document'
start --bug twin
type_text "x"
print_click
ok "twin: Print with text: SIGSEGV" ended 139
ok "twin: ... in print_document" said 'printing "x"'

# --- order --- (no round_trip here: it presses F5)
start --bug order
xdotool mousemove 400 400 key F5
click 135 199                                   # Wrap on after F5
ok "order: F5, then Wrap on: no crash" eval 'said "wrap on" && alive'
click 135 199                                   # Wrap off
xdotool mousemove 400 400 key F5
ok "order: F5 with Wrap off: no crash" eval 'said "wrap off" && [ "$(grep -c refreshed "$tmp/out")" = 2 ] && alive'
click 135 199                                   # Wrap on
xdotool mousemove 400 400 key F5
ok "order: Wrap on, then F5: SIGSEGV" ended 139
ok "order: ... in refresh_wrapped" said 'refreshing wrapped text'

# --- abort ---
start --bug abort
xdotool mousemove 400 400 key alt+o && wait_window Options
click 850 466                                   # OK, Bold unchecked
ok "abort: OK without Bold: no crash" said 'options applied (bold off)'
xdotool mousemove 400 400 key alt+o && wait_window Options
click 800 362
click 850 466
ok "abort: OK with Bold: SIGABRT" ended 134
ok "abort: the assertion on stderr" grep -q "Assertion \`font != NULL' failed" "$tmp/err"

# --- hang ---
start --bug hang
print_click
ok "hang: Print: still running" said 'waiting for the printer'
xdotool mousemove 400 400 key alt+o
ok "hang: no more events handled (no Options dialog)" eval '! wait_window Options 2 && alive'
kill -KILL "$app_pid"; reap

# --- drag ---
start --bug drag
click 530 370                                   # a click in Trash
ok "drag: a click in Trash does nothing" round_trip
xdotool mousemove 460 158 mousedown 1 mousemove 360 390 mouseup 1
ok "drag: a drag elsewhere does nothing" round_trip
type_text "abc"
xdotool mousemove 460 158 mousedown 1 mousemove 500 300 mousemove 630 470 mouseup 1
ok "drag: text field to Trash: SIGSEGV" ended 139
ok "drag: ... in drop_on_trash" said 'dropping "abc" on the trash'

# --- flaky ---
print_crashed () {   # after a click on Print: true if xdemo crashed, else stops it
  for _ in $(seq 50); do
    alive || { ended 139; return; }
    grep -q '^xdemo: printed' "$tmp/out" && { stop; return 1; }
    timeout 0.1 tail -f /dev/null
  done
  return 1
}
crashes=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  XDEMO_SEED=$seed start --bug flaky
  print_click
  if print_crashed; then crashes=$((crashes + 1)); fi
  # the same seed decides the same way
  if [ "$seed" = 1 ]; then first=$crashes; fi
done
ok "flaky: 10 seeds at probability 0.5 give both outcomes ($crashes crashes)" \
  test "$crashes" -gt 0 -a "$crashes" -lt 10
XDEMO_SEED=1 start --bug flaky
print_click
if print_crashed; then again=1; else again=0; fi
ok "flaky: XDEMO_SEED=1 decides the same way twice" test "$again" = "$first"

# --- geometry ---
start --bug none --geometry +300+200
xdotool mousemove 600 500 key alt+p
ok "--geometry +300+200 moves the Print dialog to +960+220" \
  eval 'wait_window Print && xdotool search --onlyvisible --name "^Print\$" getwindowgeometry | grep -q "Position: 960,220"'
ok "--geometry: closing exits 0" stop

echo "1..$checks"
[ "$failures" -eq 0 ] || { echo "# $failures of $checks checks failed"; exit 1; }
