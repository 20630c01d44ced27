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
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"   # $top
bench_build_dir "$@"
shift "$bench_shift"
bench_built "$xrecord" "$xreduce"
bench_installed chromium
bench_installed xdotool
. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir
app=(chromium --no-sandbox --no-first-run --disable-gpu --disable-background-networking
     --disable-component-update --disable-sync --user-data-dir=/tmp/chromium-profile)
if [ -n "${CHROMIUM_SESSION:-}" ]; then
  cp "$CHROMIUM_SESSION" "$tmp/chromium.session"
else
xvfb_start "$tmp"
bench_record chromium "${app[@]}"
xdotool search --sync --onlyvisible --class chromium >/dev/null
sleep 4   # the first paint; a person waits for it too
xdotool mousemove 600 400 click 1
sleep 0.5
bench_visit chrome://version
bench_scroll 3 5
xdotool mousemove 400 300 click 1
sleep 0.5
bench_visit about:blank
bench_visit chrome://inducebrowsercrashforrealz
# The crash ends the recording.
bench_recorded chromium 30
fi
bench_count chromium
bench_reduce "$xreduce" -o "$tmp/chromium.min" "$@" "$tmp/chromium.session" -- "${app[@]}"
bench_finish chromium
