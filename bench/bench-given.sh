#!/bin/bash
# bench-given.sh — figures, not a test: for each case of
# tests/x11/test-given.c (a crash that needs what the app got from outside:
# a paste from xclip, a paste after Ctrl+C in another app, a middle click
# that pastes its PRIMARY, a drop from its window, a file chosen in GTK's
# file chooser under HOME and outside it, a title that names the folder,
# a variable of the environment), the replays with the defaults that crash
# the app (of 5, run at once), the reduction's actions, tests and time, and
# the minimal session's steps. One case at a time, on this machine's load.
#
# Usage: bench/bench-given.sh [BUILD_DIR] [CASE...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
[ $# -ge 1 ] && shift
# Absolute: the test runs the programs from the folders it makes.
build=$(cd "$build" 2>/dev/null && pwd) || { echo "$0: no folder ${build}" >&2; exit 2; }
cases=${*:-paste-xclip paste-copy primary drop file-home file-outside title env}
exe=$build/tests/x11/test-given
[ -x "$exe" ] || { echo "$0: $exe is not built (ninja -C $build)" >&2; exit 2; }
export XREDUCE_SRCDIR=$top XRECORD=$build/recorder/xrecord XREPLAY=$build/replayer/xreplay \
       XREDUCE=$build/reducer/xreduce

printf '%-13s %-8s %-9s %-14s %s\n' case replays result reduction steps
for c in $cases; do
  out=$("$exe" --tap -p "/given/$c" 2>&1)
  ok=$(echo "$out" | grep -q "^ok 1" && echo pass || echo FAIL)
  crashed=$(echo "$out" | sed -n 's/.*the recording crashed the app in \([0-9]*\) of 5.*/\1\/5/p')
  reduced=$(echo "$out" | sed -n 's/^# it said: \([0-9]* -> [0-9]* actions in [0-9]* tests, [0-9]* s\)$/\1/p')
  steps=$(echo "$out" | sed -n '/the minimal session:$/,/^# *$/p' | sed -n 's/^# *[0-9]*\. //p' \
          | paste -sd ';' -)
  printf '%-13s %-8s %-9s %-14s %s\n' "$c" "${crashed:-?}" "$ok" "${reduced:-?}" "${steps:-?}"
done
