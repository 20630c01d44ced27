#!/bin/sh
# bench-hostile.sh — figures, not a test: what a large or padded session
# costs xreplay's commands that need no display (--list, --export json,
# --export xdotool), in wall time and peak memory (GNU time's %e and %M),
# on generated files, all under the 64 MiB size limit:
#   - N identical clicks (default 40,000: 5.7 MB);
#   - 1,000,000 key actions (42 MB);
#   - 10 MB of blank lines, and 20 MB of '#' lines, around one action.
#   - 7,000,000 Expose lines around one action (63 MB): refused while
#     read (the app's events count against --max-actions, issue 34);
# Each command runs under a CPU limit (ulimit -t, default 120 s): "killed"
# means it passed it. Point it at another build to compare (issue 25's
# before and after).
#
# Then xreduce on runs of typed keys (issue 34: the search ground for
# minutes, deaf to --limit-time and Ctrl-C): 2,000, 100,000, 500,000 keys
# (1,000,000 key actions, the default --max-actions) and 1,000,000 keys
# (with --max-actions 2000000 --max-session-size 128), each `xreduce
# --limit-time 15 k.session -- xdemo` (xdemo does not crash on them: the
# verification never sees the failure): wall time, peak memory and exit
# status; then the same with SIGINT 5 s in, the time from it to the exit.
# Each run is killed at 150 s ("killed"). BENCH_HOSTILE_NO_REDUCE=1 skips
# them. Last, the million keys interrupted at each phase of the setup
# that follows the reading (found by xreduce -v's lines: the sandbox
# made and the workers' servers forked, the first server ready, the
# verification's first replay started, and 1.5 s later), BENCH_HOSTILE_
# PHASE_RUNS times each (default 3): the time from SIGINT to the exit.
#
# Usage: bench/bench-hostile.sh [BUILD_DIR] [CPU_LIMIT_S]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
limit=${2:-120}
xreplay=$build/replayer/xreplay
[ -x "$xreplay" ] || { echo "$0: $xreplay is not built (ninja -C $build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

head='xreduce-session 1\nscreen 1280x1024\n'
printf "$head" > "$tmp/clicks.session"
awk 'BEGIN { for (i = 0; i < 40000; i++) {
  t = 1 + i * 1000
  printf "%d ButtonPress button=1 state=0x0 root=9,9 pos=9,9 window=0 class=\"X\" title=\"T\"\n", t
  printf "%d ButtonRelease button=1 state=0x100 root=9,9 pos=9,9 window=0 class=\"X\" title=\"T\"\n", t + 1 } }' \
  >> "$tmp/clicks.session"
printf "$head" > "$tmp/keys.session"
awk 'BEGIN { for (i = 0; i < 500000; i++) {
  printf "%d KeyPress keysym=a keycode=38 state=0x0\n", 2 * i + 1
  printf "%d KeyRelease keysym=a keycode=38 state=0x0\n", 2 * i + 2 } }' >> "$tmp/keys.session"
printf "$head" > "$tmp/blank.session"
head -c 10000000 /dev/zero | tr '\0' '\n' >> "$tmp/blank.session"
printf '1 KeyPress keysym=a keycode=38 state=0x0\n' >> "$tmp/blank.session"
printf "$head" > "$tmp/comments.session"
head -c 10000000 /dev/zero | tr '\0' '#' | fold -w 1 >> "$tmp/comments.session"
printf '1 KeyPress keysym=a keycode=38 state=0x0\n' >> "$tmp/comments.session"
printf "$head" > "$tmp/expose.session"
awk 'BEGIN { for (i = 0; i < 7000000; i++) print "1 Expose" }' >> "$tmp/expose.session"
printf '1 KeyPress keysym=a keycode=38 state=0x0\n' >> "$tmp/expose.session"

run () {
  file=$1; shift
  rm -f "$tmp/time"
  status=0
  (ulimit -t "$limit"; /usr/bin/time -o "$tmp/time" -f '%e s %M KB' "$xreplay" "$@" \
     "$tmp/$file" > /dev/null 2> "$tmp/err") || status=$?
  if [ "$status" -eq 0 ]; then out=$(tail -1 "$tmp/time")
  else out="failed, status $status: $(tail -1 "$tmp/time" 2>/dev/null) $(head -c 100 "$tmp/err")"; fi
  printf '%-18s %-18s %s\n' "$file" "$*" "$out"
}

echo "xreplay from $build"
printf '%-18s %-18s %s\n' file command "wall, peak RSS"
for f in clicks keys blank comments expose; do
  size=$(wc -c < "$tmp/$f.session")
  echo "# $f.session: $size bytes"
  run "$f.session" --list
  run "$f.session" --export json
  run "$f.session" --export xdotool
done

[ -n "${BENCH_HOSTILE_NO_REDUCE:-}" ] && exit 0
xreduce=$build/reducer/xreduce
xdemo=$build/tests/apps/xdemo
[ -x "$xreduce" ] && [ -x "$xdemo" ] || { echo "$0: $xreduce or $xdemo is not built" >&2; exit 2; }
typed () {
  printf 'xreduce-session 1\nscreen 1280x1024\noutcome crashed SIGSEGV\n'
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
    printf "%d KeyPress keysym=a keycode=38 state=0x0\n", 2 * i + 1
    printf "%d KeyRelease keysym=a keycode=38 state=0x0\n", 2 * i + 2 } }'
}
now () { date +%s.%N; }
# reduce KEYS [SIGINT_AT] -- [XREDUCE OPTIONS]: one xreduce on KEYS typed keys.
reduce () {
  keys=$1 at=$2; shift 3
  typed "$keys" > "$tmp/k.session"
  rm -f "$tmp/time" "$tmp/k.min"
  /usr/bin/time -o "$tmp/time" -f '%e s %M KB' "$xreduce" -q "$@" --limit-time 15 -o "$tmp/k.min" \
    "$tmp/k.session" -- "$xdemo" > /dev/null 2> "$tmp/err" &
  pid=$!
  sent=""
  waited=0
  while kill -0 $pid 2>/dev/null && [ $waited -lt 1500 ]; do
    if [ "$at" != - ] && [ -z "$sent" ] && [ $waited -ge $((at * 10)) ]; then
      pkill -INT -P $pid -x xreduce 2>/dev/null || true
      sent=$(now)
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 $pid 2>/dev/null; then
    pkill -KILL -P $pid -x xreduce 2>/dev/null || true
    wait $pid 2>/dev/null || true
    out="killed at 150 s"
  else
    status=0
    wait $pid || status=$?
    out="$(tail -1 "$tmp/time"), exit $status"
    [ -n "$sent" ] && out="$out, exit $(echo "$(now) $sent" | awk '{ printf "%.2f", $1 - $2 }') s after SIGINT"
  fi
  printf '%-9s %-10s %s\n' "$keys" "${at#-}" "$out"
}
echo "xreduce --limit-time 15 on typed keys, from $build"
printf '%-9s %-10s %s\n' keys "SIGINT at" "wall, peak RSS, exit"
for keys in 2000 100000 500000; do
  reduce $keys - --
  reduce $keys 5 --
done
reduce 1000000 - -- --max-actions 2000000 --max-session-size 128
reduce 1000000 5 -- --max-actions 2000000 --max-session-size 128

# phase REGEX DELAY: the million keys, SIGINT DELAY s after xreduce -v
# said REGEX; the time from it to the exit.
phase () {
  re=$1 delay=$2
  "$xreduce" -v --limit-time 120 --max-actions 2000000 --max-session-size 128 -o "$tmp/k.min" \
    "$tmp/k.session" -- "$xdemo" > "$tmp/v.out" 2> /dev/null &
  pid=$!
  while kill -0 $pid 2>/dev/null && ! grep -q -E "$re" "$tmp/v.out"; do sleep 0.02; done
  sleep "$delay"
  sent=$(now)
  kill -INT $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  echo "$(now) $sent" | awk '{ printf "%.2f\n", $1 - $2 }'
}
runs=${BENCH_HOSTILE_PHASE_RUNS:-3}
typed 1000000 > "$tmp/k.session"
echo "xreduce -v on 1000000 typed keys, SIGINT at each phase ($runs runs each): exit after it, s"
for p in "sandbox /tmp|0" "Xvfb .* on :|0.3" "candidate -1 \\(0 actions\\) started|0.2" \
         "candidate -1 \\(0 actions\\) started|1.5"; do
  re=${p%|*} delay=${p##*|}
  i=0 all=""
  while [ $i -lt "$runs" ]; do all="$all $(phase "$re" "$delay")"; i=$((i + 1)); done
  printf '  %-40s +%-4s %s\n' "$re" "$delay s" "$(echo $all | tr ' ' '\n' | sort -n | tr '\n' ' ')"
done
