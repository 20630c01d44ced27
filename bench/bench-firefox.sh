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
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"   # $top
bench_build_dir "$@"
shift "$bench_shift"
bench_built "$xrecord" "$xreduce"
if ! command -v firefox-esr >/dev/null; then
  echo "$0: installing firefox-esr" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    firefox-esr >/dev/null
fi
bench_installed xdotool

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
bench_record firefox firefox-esr --no-remote about:blank
xdotool search --sync --onlyvisible --class firefox >/dev/null
sleep 3   # the first paint; a person waits for it too

xdotool mousemove 600 500 click 1
sleep 0.5
bench_visit about:about
bench_scroll 4 5
bench_scroll 2 4
xdotool mousemove 400 400 click 1
sleep 0.5
bench_visit about:robots
bench_scroll 3 5
xdotool mousemove 640 300 click 1
sleep 0.5
bench_visit about:crashparent
# The crash ends the recording.
bench_recorded firefox 60
fi
bench_count firefox

# (Not in xreduce's environment: the session carries it.)
# shellcheck disable=SC2086  # BENCH_FIREFOX_COMMAND is a command line
bench_reduce env -u MOZ_CRASHREPORTER_DISABLE "$xreduce" -o "$tmp/firefox.min" "$@" \
  "$tmp/firefox.session" -- ${BENCH_FIREFOX_COMMAND:-firefox-esr --no-remote about:blank}
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
bench_keep_report firefox
