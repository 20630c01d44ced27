#!/bin/bash
# bench-record.sh — figures, not a test: the recorder's CPU overhead and
# whether it drops events at a high input rate. On a private Xvfb, xrecord
# records xdemo (--bug none) while bench/inject sends N XTest events (8 in
# 10 pointer moves over xdemo's main window, 2 a Shift_L press or release:
# each is a user action to write) at RATE per second. Prints the events
# sent and written, the achieved rate, and xrecord's user+sys CPU time
# (from /proc/PID/stat, over the whole recording) as seconds and as a
# share of the injection's wall time.
#
# Usage: bench/bench-record.sh [BUILD_DIR] [N] [RATE]
#        (defaults: build, 5000 events, 1000 per second: 5 s)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-5000}
rate=${3:-1000}
xrecord=$build/recorder/xrecord
xdemo=$build/tests/apps/xdemo
inject=$build/bench/inject
for p in "$xrecord" "$xdemo" "$inject"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
[ $((n % 10)) -eq 0 ] || { echo "$0: N must be a multiple of 10" >&2; exit 2; }

. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
xrecord_workdir

xvfb_start "$tmp"
xrecord_start "$tmp" "$xrecord" "$tmp/session.log" "$xdemo" --bug none

cpu () {   # user+sys clock ticks of a process
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}
ticks=$(getconf CLK_TCK)
cpu_before=$(cpu "$xrecord_pid")
start=$(date +%s.%N)
read -r sent achieved < <("$inject" "$n" "$rate" 400 300)
end=$(date +%s.%N)
# SIGTERM: xrecord writes everything the server recorded before it.
cpu_after=$(cpu "$xrecord_pid")
xrecord_stop || true

written=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' \
          "$tmp/session.log" || true)
awk -v sent="$sent" -v written="$written" -v rate="$rate" -v achieved="$achieved" \
    -v c0="$cpu_before" -v c1="$cpu_after" -v hz="$ticks" -v t0="$start" -v t1="$end" '
  BEGIN {
    wall = t1 - t0; cpu = (c1 - c0) / hz
    printf "events sent:      %d at %d/s (achieved %d/s, %.2f s)\n", sent, rate, achieved, wall
    printf "actions written:  %d (%s)\n", written, written == sent ? "none dropped" : sprintf("%d DROPPED", sent - written)
    printf "xrecord CPU:      %.2f s user+sys = %.1f%% of one core, %.1f us per event\n",
           cpu, 100 * cpu / wall, 1e6 * cpu / sent
  }'
[ "$written" -eq "$sent" ]
