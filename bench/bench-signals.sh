#!/bin/sh
# bench-signals.sh — figures, not a test: how long xreplay, xreduce and
# xrecord take to end after SIGINT, SIGTERM or SIGHUP in each phase of
# their run (set-up, waiting for the app's window, replaying or
# recording, writing the report), everything they started stopped. It
# runs tests/x11/test-signals (which checks the exit status and that
# nothing is left) N times and prints the slowest and the median per
# program and phase. The target: under 1 s everywhere, also with both
# cores busy (run it beside two `yes > /dev/null`).
#
# Usage: bench/bench-signals.sh [BUILD_DIR] [N]   (defaults: build, 3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-3}
test=$build/tests/x11/test-signals
[ -x "$test" ] || { echo "$0: $test is not built (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

export XREDUCE_SRCDIR="$top" XDEMO="$build/tests/apps/xdemo" XREPLAY="$build/replayer/xreplay" \
       XRECORD="$build/recorder/xrecord" XREDUCE="$build/reducer/xreduce" \
       XSINGLE="$build/tests/apps/xsingle" XPACE="$build/tests/apps/xpace" \
       XAW_CRASH="$build/tests/apps/xaw-crash"
i=0
while [ "$i" -lt "$n" ]; do
  "$test" --tap > "$tmp/run$i.tap" 2>&1 || { echo "$0: run $i failed:" >&2; grep -E '^not ok|ERROR' "$tmp/run$i.tap" >&2; exit 1; }
  i=$((i + 1))
done
echo "time from the signal to the exit, $n runs of each of SIGINT, SIGTERM, SIGHUP (load: $(cut -d' ' -f1-3 /proc/loadavg))"
cat "$tmp"/run*.tap | sed -n 's/^# ended: \([a-z]*\) \([a-z]*\) SIG[A-Z]* in \([0-9]*\) ms$/\1 \2 \3/p' |
  sort -k1,1 -k2,2 -k3,3n |
  awk '{ key = $1 " " $2; v[key, ++c[key]] = $3; if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
       END { printf "%-8s %-7s %7s %7s\n", "program", "phase", "median", "max";
             for (i = 1; i <= k; i++) { key = order[i]; m = v[key, int((c[key] + 1) / 2)];
               split(key, p, " "); printf "%-8s %-7s %5d ms %5d ms\n", p[1], p[2], m, v[key, c[key]] } }'
