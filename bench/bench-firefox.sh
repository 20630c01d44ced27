#!/bin/bash
# bench-firefox.sh — figures, not a test: the mission's own example,
# `xreduce session.log -- firefox`, on this machine.
#
# Records a scripted Firefox ESR session with xrecord on a private Xvfb
# (about 120 user actions: about: pages typed into the address bar, clicks,
# scrolling with the wheel, then about:crashparent, which crashes the
# parent process), then reduces it with xreduce's defaults and the plain
# command line `-- firefox-esr --no-remote about:blank`. Prints the actions
# before and after, the tests, the wall time, the verification's fail rate
# and the workers the pool chose. MOZ_CRASHREPORTER_DISABLE=1 for the
# recording, so the crash is a SIGSEGV: the session records it (its `env`
# line) and every replay sets it, so xreduce runs without it in its own
# environment and with no option. Installs firefox-esr with apt-get if
# missing.
#
# Usage: bench/bench-firefox.sh [BUILD_DIR] [-- extra xreduce options]
# BENCH_FIREFOX_COMMAND="firefox-esr" reduces with that command line.
# The recording is kept as BUILD_DIR/firefox.session; FIREFOX_SESSION=FILE
# reduces FILE instead of recording anew; the report is kept as
# BUILD_DIR/firefox.min.report and its first 20 lines printed. BENCH_WM="openbox --sm-disable"
# (or "i3 -c FILE") records under that window manager, as users record on
# their desktop; the reduction runs as always, on bare Xvfbs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
[ $# -ge 1 ] && shift
[ "${1:-}" = "--" ] && shift
xrecord=$build/recorder/xrecord
xreduce=$build/reducer/xreduce
for p in "$xrecord" "$xreduce"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
if ! command -v firefox-esr >/dev/null; then
  echo "$0: installing firefox-esr" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    firefox-esr >/dev/null
fi
command -v xdotool >/dev/null || { echo "$0: xdotool is not installed" >&2; exit 2; }

. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
export MOZ_CRASHREPORTER_DISABLE=1   # recorded: the session's env line

if [ -n "${FIREFOX_SESSION:-}" ]; then
  cp "$FIREFOX_SESSION" "$tmp/firefox.session"
else
xvfb_start "$tmp"
if [ -n "${BENCH_WM:-}" ]; then
  # shellcheck disable=SC2086
  $BENCH_WM >/dev/null 2>&1 &
  wm_pid=$!
  trap 'kill "$wm_pid" 2>/dev/null || true; _xr_cleanup' EXIT
  # Until it manages the display (openbox and i3 say so on the root).
  for _ in $(seq 100); do
    xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && break
    sleep 0.1
  done
  sleep 1   # and has done starting up (openbox loses an early MapRequest)
  echo "recording under: $BENCH_WM"
fi

# The recording: Firefox with a fresh HOME of its own (as every replay
# will have), driven by xdotool at a person's pace.
mkdir "$tmp/home"
HOME=$tmp/home xrecord_start "$tmp" "$xrecord" "$tmp/firefox.session" \
  firefox-esr --no-remote about:blank
xdotool search --sync --onlyvisible --class firefox >/dev/null
sleep 3   # the first paint; a person waits for it too

visit () {   # visit URL: the address bar, the URL, Return, a look at the page
  xdotool key --delay 120 ctrl+l
  xdotool type --delay 90 "$1"
  xdotool key Return
  sleep 2
}
scroll () {  # scroll N BUTTON: the wheel, N notches (4 up, 5 down)
  for _ in $(seq "$1"); do xdotool click "$2"; sleep 0.15; done
}
xdotool mousemove 600 500 click 1
sleep 0.5
visit about:about
scroll 4 5
scroll 2 4
xdotool mousemove 400 400 click 1
sleep 0.5
visit about:robots
scroll 3 5
xdotool mousemove 640 300 click 1
sleep 0.5
visit about:crashparent
# The crash ends the recording.
xrecord_wait 60 || { cat "$tmp/xrecord.err" >&2; exit 3; }
xvfb_stop
cp "$tmp/firefox.session" "$build/firefox.session"
fi
actions=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' \
          "$tmp/firefox.session" || true)
outcome=$(grep -m1 '^outcome' "$tmp/firefox.session" || echo "outcome none")
echo "recorded: $actions user actions, $outcome"

start=$(date +%s.%N)
status=0
# (Not in xreduce's environment: the session carries it.)
env -u MOZ_CRASHREPORTER_DISABLE "$xreduce" -o "$tmp/firefox.min" "$@" "$tmp/firefox.session" -- \
  ${BENCH_FIREFOX_COMMAND:-firefox-esr --no-remote about:blank} >"$tmp/xreduce.out" \
  2>"$tmp/xreduce.err" || status=$?
end=$(date +%s.%N)
wall=$(echo "$end $start" | awk '{printf "%.0f", $1 - $2}')
if [ "$status" -ne 0 ]; then
  echo "xreduce failed (exit $status) after $wall s:" >&2
  cat "$tmp/xreduce.err" >&2
  exit 1
fi
line=$(head -n 1 "$tmp/xreduce.out")   # "117 -> 21 actions in 65 tests, 230 s"
report=$tmp/firefox.min.report/report.md
verification=$(grep -o 'the full session failed in [0-9]* of [0-9]* replays' "$report" || echo "?")
workers=$(grep -o 'workers*[;:].*' "$report" | head -n 1 || echo "?")
echo "xreduce: $line"
echo "verification: $verification"
echo "pool: $(grep -E '^xreduce: [0-9]+ workers?' "$tmp/xreduce.err" | tail -n 1 | sed 's/^xreduce: //')"
echo "report: $(grep -- '- Algorithm' "$report" | sed 's/^- //')"
echo "wall time: $wall s on $(nproc) cores"
sed -n '2,40p' "$tmp/xreduce.out" | grep -E '^ +[0-9]+\.' | head -n 30
rm -rf "$build/firefox.min.report"
cp -r "$tmp/firefox.min.report" "$build/firefox.min.report"
echo "report ($build/firefox.min.report/report.md), its first 20 lines:"
head -n 20 "$report"
