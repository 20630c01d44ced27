#!/bin/bash
# bench-chromium.sh — figures, not a test: `xreduce session.log --
# chromium ...` on this machine, the crash Chromium's own
# chrome://inducebrowsercrashforrealz (the browser process crashes).
#
# Records a scripted Chromium session with xrecord on a private Xvfb (a
# click, about: and chrome: pages typed into the address bar, the wheel,
# then chrome://inducebrowsercrashforrealz and Return), then reduces it with
# xreduce's defaults against `chromium --no-sandbox --no-first-run
# --disable-gpu --disable-background-networking --disable-component-update
# --disable-sync --user-data-dir=/tmp/chromium-profile` (/usr/bin/chromium
# is a shell script: the report's replay traces the program it runs).
# Prints the actions before and after, the tests, the wall time, the exit
# status and report.md's first 20 lines.
#
# Usage: bench/bench-chromium.sh [BUILD_DIR] [-- extra xreduce options]
# The recording and the report are kept as BUILD_DIR/chromium.session and
# BUILD_DIR/chromium.min.report; CHROMIUM_SESSION=FILE reduces FILE instead
# of recording anew.
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
command -v chromium >/dev/null || { echo "$0: chromium is not installed" >&2; exit 2; }
command -v xdotool >/dev/null || { echo "$0: xdotool is not installed" >&2; exit 2; }
. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
app=(chromium --no-sandbox --no-first-run --disable-gpu --disable-background-networking
     --disable-component-update --disable-sync --user-data-dir=/tmp/chromium-profile)
if [ -n "${CHROMIUM_SESSION:-}" ]; then
  cp "$CHROMIUM_SESSION" "$tmp/chromium.session"
else
xvfb_start "$tmp"
mkdir "$tmp/home"
HOME=$tmp/home xrecord_start "$tmp" "$xrecord" "$tmp/chromium.session" "${app[@]}"
xdotool search --sync --onlyvisible --class chromium >/dev/null
sleep 4   # the first paint; a person waits for it too
visit () {   # visit URL: the address bar, the URL, Return, a look at the page
  xdotool key --delay 120 ctrl+l
  xdotool type --delay 90 "$1"
  xdotool key Return
  sleep 2
}
xdotool mousemove 600 400 click 1
sleep 0.5
visit chrome://version
for _ in 1 2 3; do xdotool click 5; sleep 0.15; done
xdotool mousemove 400 300 click 1
sleep 0.5
visit about:blank
visit chrome://inducebrowsercrashforrealz
# The crash ends the recording.
xrecord_wait 30 || { cat "$tmp/xrecord.err" >&2; exit 3; }
xvfb_stop
cp "$tmp/chromium.session" "$build/chromium.session"
fi
actions=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' \
          "$tmp/chromium.session" || true)
outcome=$(grep -m1 '^outcome' "$tmp/chromium.session" || echo "outcome none")
echo "recorded: $actions user actions, $outcome"
start=$(date +%s.%N)
status=0
"$xreduce" -o "$tmp/chromium.min" "$@" "$tmp/chromium.session" -- "${app[@]}" \
  >"$tmp/xreduce.out" 2>"$tmp/xreduce.err" || status=$?
end=$(date +%s.%N)
wall=$(echo "$end $start" | awk '{printf "%.0f", $1 - $2}')
echo "xreduce: exit $status after $wall s on $(nproc) cores: $(head -n 1 "$tmp/xreduce.out")"
if [ "$status" -ne 0 ]; then
  tail -n 20 "$tmp/xreduce.err" >&2
fi
if [ -f "$tmp/chromium.min.report/report.md" ]; then
  rm -rf "$build/chromium.min.report"
  cp -r "$tmp/chromium.min.report" "$build/chromium.min.report"
  echo "report ($build/chromium.min.report/report.md), its first 20 lines:"
  head -n 20 "$tmp/chromium.min.report/report.md"
fi
exit "$status"
