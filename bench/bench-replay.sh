#!/bin/sh
# bench-replay.sh — figures, not a test: what one replay of a session
# costs, broken down as xreplay --json reports it (starting Xvfb, the app
# to its first window, injecting the actions, settling and pinging, and
# the total, cleanup included), over N replays of the bundled demo session
# against the demo app: median, min-max spread and mean of each part, and
# the replay's median time an action. bench-long-session.sh does the same
# for a long xterm session.
#
# Usage: bench/bench-replay.sh [BUILD_DIR] [N] [-- extra xreplay options]
#        (defaults: build, 20 replays, xreplay's default timing)
# Example: bench/bench-replay.sh build 20 -- --max-gap 100 --settle 300
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-20}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
xreplay=$build/replayer/xreplay
xdemo=$build/tests/apps/xdemo
session=$top/tests/data/demo.session
for p in "$xreplay" "$xdemo"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "xreplay of $(basename "$session") against xdemo, $n replays, options: ${*:-(defaults)}"
i=0
while [ "$i" -lt "$n" ]; do
  status=0
  "$xreplay" --json "$@" "$session" -- "$xdemo" >> "$tmp/runs.json" || status=$?
  [ "$status" -le 1 ] || { echo "$0: xreplay failed (exit $status)" >&2; exit 1; }
  i=$((i + 1))
done

# One column per part; the JSON is one flat object per line.
field () {
  sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p" "$tmp/runs.json" | sort -n > "$tmp/$1"
  awk -v name="$2" '{ v[NR] = $1; sum += $1 }
    END { if (NR == 0) exit 1;
          med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          printf "%-22s median %7.0f ms   spread %6d-%-6d ms   mean %7.1f ms\n",
                 name, med, v[1], v[NR], sum / NR }' "$tmp/$1"
}
field server_start_ms "Xvfb start"
field time_to_first_window_ms "app to first window"
field replay_ms "replay (all actions)"
field app_wait_ms "waiting for the app"
field settle_ms "settle + ping"
field total_ms "total"
actions=$(sed -n 's/.*"actions": *\([0-9]*\).*/\1/p' "$tmp/runs.json" | head -n 1)
awk -v actions="$actions" '{ v[NR] = $1 }
  END { med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%-22s median %7.2f ms over %d actions\n", "replay, an action", med / actions, actions }' \
  "$tmp/replay_ms"
crashed=$(grep -c '"outcome": *"crashed"' "$tmp/runs.json" || true)
echo "outcome: crashed in $crashed of $n replays"
