#!/bin/sh
# bench-long-session.sh — figures, not a test: the per-action cost of a
# long session. Records the long xterm session of record-long-session.sh
# (30 typed commands among 1,800 pointer motions, about 2,600 actions,
# the last command crashing xterm), unless LONG_SESSION names one; then
#   1. replays it N times with xreplay --json at each pace (the app's,
#      the default, and the recorded gaps): the replay's time, the time an
#      action, the waits for the app, and how many replays crashed;
#   2. reduces it once with xreduce's defaults: tests, wall time, result.
# Targets of issue #24 (2 cores): full replay <= 3 s, reduction <= 20 s.
#
# Usage: bench/bench-long-session.sh [BUILD_DIR] [N]   (defaults: build, 5)
#        LONG_SESSION=FILE bench/bench-long-session.sh   (skip the recording)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-5}
xreplay=$build/replayer/xreplay
xreduce=$build/reducer/xreduce
for p in "$xreplay" "$xreduce"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
command -v xterm >/dev/null || { echo "$0: xterm is not installed (apt-get install xterm)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

session=${LONG_SESSION:-}
if [ -z "$session" ]; then
  session=$tmp/long.session
  "$top/bench/record-long-session.sh" -o "$session" "$build" >&2
fi
# The recorded command (xterm and its arguments), as xreplay would run it.
app=$(sed -n 's/^command //p' "$session" | head -n 1 | tr -d '"')
[ -n "$app" ] || { echo "$0: $session has no command line" >&2; exit 2; }
echo "session: $(basename "$session"), app: $app"

# One JSON member's number, from a flat object on one line.
member () { sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p"; }

for pace in app recorded; do
  : > "$tmp/$pace.json"
  i=0
  while [ "$i" -lt "$n" ]; do
    status=0
    # shellcheck disable=SC2086  # $app is the recorded words, none with spaces
    "$xreplay" --json --pace "$pace" "$session" -- $app >> "$tmp/$pace.json" || status=$?
    [ "$status" -le 1 ] || { echo "$0: xreplay failed (exit $status)" >&2; exit 1; }
    i=$((i + 1))
  done
  member replay_ms < "$tmp/$pace.json" | sort -n > "$tmp/$pace.ms"
  actions=$(member actions < "$tmp/$pace.json" | head -n 1)
  waits=$(member app_waits < "$tmp/$pace.json" | head -n 1)
  crashed=$(grep -c '"outcome": *"crashed"' "$tmp/$pace.json" || true)
  awk -v pace="$pace" -v n="$n" -v actions="$actions" -v waits="$waits" -v crashed="$crashed" \
    '{ v[NR] = $1 }
     END { med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
           printf "replay, %-8s pace: median %6.0f ms (%d-%d), %.2f ms an action, %s waits for the app, crashed %d of %d\n",
                  pace, med, v[1], v[NR], med / actions, waits, crashed, n }' "$tmp/$pace.ms"
done

start=$(date +%s.%N)
# shellcheck disable=SC2086
"$xreduce" -o "$tmp/long.min" "$session" -- $app > "$tmp/reduce.out" 2> "$tmp/reduce.err" || {
  echo "$0: xreduce failed:" >&2; cat "$tmp/reduce.err" >&2; exit 1; }
end=$(date +%s.%N)
wall=$(echo "$end $start" | awk '{printf "%.1f", $1 - $2}')
echo "reduction: $(head -n 1 "$tmp/reduce.out") (wall $wall s)"
grep -q "1-minimal: verified" "$tmp/long.min.report/report.md" 2>/dev/null \
  && echo "result: 1-minimal, verified" || echo "result: not verified 1-minimal"
