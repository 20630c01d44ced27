#!/bin/bash
# check-demo-session.sh — checks the bundled demo sessions against the demo
# app, independently of xreplay: it replays each session's user actions in
# order with xdotool (pointer to the recorded root position, then the
# button or key) against xdemo on a private Xvfb, and checks how xdemo ends.
#
#   demo.session        --bug print, twin: SIGSEGV at the final Print click
#                       --bug order: SIGSEGV at the F5, halfway through
#                       --bug hang: stops handling events after the Print click
#                       --bug flaky --probability 1 / 0: crashes / does not
#                       --bug none, abort, drag: no crash
#   demo-abort.session  --bug abort: SIGABRT at OK, with the assertion on stderr
#   demo-drag.session   --bug drag: SIGSEGV at the drop on Trash
#
# Synchronisation: X delivers the injected events to xdemo in order, so the
# only race is with windows xdemo has yet to map; before an action aimed at
# a window, the script waits (xdotool search --sync) until that window is
# visible.  Start reading at the end, at the list of checks.
#
# Usage: tests/data/check-demo-session.sh [XDEMO]
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

failures=0
checks=0

# wait_window TITLE [SECONDS]: waits until xdemo's window TITLE is visible.
# (xdotool 3.20160805 takes one pattern per search: by title only, which is
# enough on a display where xdemo is the only client.)
wait_window () {
  timeout "${2:-5}" xdotool search --sync --onlyvisible --name "^$1\$" >/dev/null 2>&1
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

# start_app ARGS...: runs xdemo in the background and waits for its window.
start_app () {
  launch "$@"
  wait_window Editor 10 || { echo "$0: xdemo $* did not map its window" >&2; exit 3; }
  app_pid=$(cat "$tmp/pid")
}

# replay SESSION: the user actions as xdotool commands, one per line:
# "TITLE|ARGS" where TITLE is the target window's title or empty.
actions () {
  awk '
    /^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) / {
      title = ""; root = ""; keysym = ""; button = ""
      for (i = 3; i <= NF; i++) {
        if ($i ~ /^title="/) { title = $i; sub(/^title="/, "", title); sub(/"$/, "", title) }
        else if ($i ~ /^root=/) { root = substr($i, 6); sub(/,/, " ", root) }
        else if ($i ~ /^keysym=/) keysym = substr($i, 8)
        else if ($i ~ /^button=/) button = substr($i, 8)
      }
      # The keycode of a letter is the same with Shift held: replay the
      # lower case keysym, Shift_L is pressed already.
      if (keysym ~ /^[A-Z]$/) keysym = tolower(keysym)
      if ($2 == "MotionNotify") cmd = "mousemove " root
      else if ($2 == "ButtonPress") cmd = "mousemove " root " mousedown " button
      else if ($2 == "ButtonRelease") cmd = "mousemove " root " mouseup " button
      else if ($2 == "KeyPress") cmd = (root != "" ? "mousemove " root " " : "") "keydown " keysym
      else cmd = (root != "" ? "mousemove " root " " : "") "keyup " keysym
      print title "|" cmd
    }' "$1"
}

# replay SESSION: replays the actions until the end or until xdemo dies;
# sets $replayed to the number of actions sent.
replay () {
  replayed=0
  while IFS="|" read -r title cmd; do
    kill -0 "$app_pid" 2>/dev/null || break
    if [ -n "$title" ] && ! wait_window "$title"; then
      kill -0 "$app_pid" 2>/dev/null || break
      echo "  no window \"$title\" for action $((replayed + 1))" >&2
      break
    fi
    # shellcheck disable=SC2086  # cmd is a list of xdotool words
    xdotool $cmd
    replayed=$((replayed + 1))
  done < <(actions "$1")
}

# finish: sets $outcome to how xdemo ended, waiting up to 5 s: "SIGSEGV",
# "exit 0", "running".  (Not in a $(...) subshell: it reaps xdemo.)
finish () {
  if timeout 5 tail --pid="$app_pid" -f /dev/null; then
    reap
    case $app_status in
      134) outcome=SIGABRT ;;
      139) outcome=SIGSEGV ;;
      unknown) outcome="unknown status" ;;
      *) if [ "$app_status" -gt 128 ]; then outcome="signal $((app_status - 128))"
         else outcome="exit $app_status"; fi ;;
    esac
  else
    outcome=running
  fi
}

# stop_app: closes xdemo's main window (it exits 0) or kills it.
stop_app () {
  [ -n "$app_pid" ] || return 0
  xdotool search --name '^Editor$' windowclose >/dev/null 2>&1
  timeout 5 tail --pid="$app_pid" -f /dev/null || kill -KILL "$app_pid" 2>/dev/null
  reap
}

report () {   # report OK|FAIL DESCRIPTION DETAILS
  checks=$((checks + 1))
  if [ "$1" = OK ]; then
    echo "ok $checks - $2"
  else
    failures=$((failures + 1))
    echo "not ok $checks - $2: $3"
  fi
}

# expect_crash SESSION SIGNAL LAST_STDOUT_LINE_PATTERN XDEMO_ARGS...
expect_crash () {
  local session=$1 signal=$2 last=$3 total outcome
  shift 3
  start_app "$@"
  replay "$here/$session"
  finish
  total=$(actions "$here/$session" | wc -l)
  if [ "$outcome" = "$signal" ] && tail -n 1 "$tmp/out" | grep -q -- "$last"; then
    report OK "$session, xdemo $*: $signal after action $replayed of $total"
  else
    report FAIL "$session, xdemo $*" "ended: $outcome after action $replayed of $total; last output: $(tail -n 1 "$tmp/out")"
  fi
  stop_app
}

# expect_no_crash SESSION XDEMO_ARGS...: all actions replayed, xdemo still
# running once it has handled them (the last Print dialog is gone).
expect_no_crash () {
  local session=$1 outcome total
  shift
  start_app "$@"
  replay "$here/$session"
  total=$(actions "$here/$session" | wc -l)
  # The final click on Print closes the dialog: wait for that.
  for _ in $(seq 50); do
    xdotool search --onlyvisible --name '^Print$' >/dev/null 2>&1 || break
    timeout 0.1 tail --pid="$app_pid" -f /dev/null
  done
  outcome=running
  kill -0 "$app_pid" 2>/dev/null || finish
  if [ "$outcome" = running ] && [ "$replayed" = "$total" ] \
     && grep -q 'printed "Hello world."' "$tmp/out"; then
    report OK "$session, xdemo $*: no crash, all $total actions, printed \"Hello world.\""
  else
    report FAIL "$session, xdemo $*" "$outcome after action $replayed of $total"
  fi
  stop_app
}

# expect_hang SESSION XDEMO_ARGS...: after the last action xdemo is alive
# but handles no more events (Alt+O opens no Options dialog).
expect_hang () {
  local session=$1
  shift
  start_app "$@"
  replay "$here/$session"
  xdotool mousemove 400 400 key alt+o
  if kill -0 "$app_pid" 2>/dev/null && ! wait_window Options 2 \
     && tail -n 1 "$tmp/out" | grep -q 'waiting for the printer'; then
    report OK "$session, xdemo $*: hangs after action $replayed"
  else
    report FAIL "$session, xdemo $*" "not hung: $(tail -n 1 "$tmp/out")"
  fi
  kill -KILL "$app_pid" 2>/dev/null
  reap
}

echo "# xdemo: $xdemo, DISPLAY=$DISPLAY"
expect_crash demo.session SIGSEGV 'printing "Hello world."' --bug print
expect_crash demo.session SIGSEGV 'printing "Hello world."'
expect_crash demo.session SIGSEGV 'printing "Hello world."' --bug twin
expect_crash demo.session SIGSEGV 'refreshing wrapped text' --bug order
XDEMO_SEED=1 expect_crash demo.session SIGSEGV 'printing' --bug flaky --probability 1
expect_hang demo.session --bug hang
expect_no_crash demo.session --bug none
expect_no_crash demo.session --bug abort
expect_no_crash demo.session --bug drag
XDEMO_SEED=1 expect_no_crash demo.session --bug flaky --probability 0
expect_crash demo-abort.session SIGABRT 'bold checked' --bug abort
if grep -q "Assertion \`font != NULL' failed" "$tmp/err"; then
  report OK "demo-abort.session: the assertion message is on stderr"
else
  report FAIL "demo-abort.session" "no assertion message on stderr"
fi
expect_crash demo-drag.session SIGSEGV 'dropping "Hello world" on the trash' --bug drag

echo "1..$checks"
[ "$failures" -eq 0 ] || { echo "# $failures of $checks checks failed"; exit 1; }
