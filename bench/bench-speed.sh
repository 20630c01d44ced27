#!/bin/sh
# bench-speed.sh — figures, not a test: issue #37's table, each row beside
# its target, with the command that reproduces it.
#
#   the demo          xreduce's defaults on tests/data/demo.session (91
#                     actions), the median wall time of N runs, the report
#                     included                        target: <= 1.5 s
#   the seed's ddmin  bench-reduce.sh's baseline against the default
#                     (BENCH_BASELINE=1: minutes)     target: >= 100x faster
#   Firefox ESR       bench-firefox.sh (BENCH_BROWSERS=1: minutes)
#                                                     target: < 45 s
#   Chromium          bench-chromium.sh (BENCH_BROWSERS=1)
#                                                     target: <= 1.5 tests a kept
#                                                     action, < 60 s
#   halfempty, picire bench-others.sh: the same xreplay as their test,
#                     where found (HALFEMPTY=PATH, PICIRE=COMMAND)
#                                                     target: >= 10x faster
#
# A row whose bench is not asked for, or cannot run here, says so.
#
# Usage: bench/bench-speed.sh [BUILD_DIR] [N]   (defaults: build, 3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
n=${2:-3}
xreduce=$build/reducer/xreduce
xdemo=$build/tests/apps/xdemo
for p in "$xreduce" "$xdemo"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

row () {   # row NAME FIGURE TARGET MET COMMAND
  printf '%-18s %-40s %-28s %-4s\n    %s\n' "$1" "$2" "$3" "$4" "$5"
}

echo "issue #37's table on $(nproc) cores, $(date -u +%Y-%m-%d)"
printf '%-18s %-40s %-28s %-4s\n' "case" "now" "target" "met"

# The demo: N runs, the median wall time.
i=0
: > "$tmp/walls"
while [ "$i" -lt "$n" ]; do
  rm -rf "$tmp/demo.min" "$tmp/demo.min.report"
  start=$(date +%s.%N)
  "$xreduce" -o "$tmp/demo.min" "$top/tests/data/demo.session" -- "$xdemo" \
    >"$tmp/demo.out" 2>"$tmp/demo.err" || { cat "$tmp/demo.err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end $start" | awk '{printf "%.2f\n", $1 - $2}' >> "$tmp/walls"
  i=$((i + 1))
done
median=$(sort -n "$tmp/walls" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
line=$(head -n 1 "$tmp/demo.out")   # "91 -> 6 actions in 20 tests, 7 s"
tests=$(echo "$line" | awk '{print $6}')
met=$(echo "$median" | awk '{print ($1 <= 1.5) ? "yes" : "no"}')
row "the demo" "$(echo "$line" | awk '{print $1, $2, $3, $4}'), $tests tests, $median s (median of $n)" \
  "<= 1.5 s" "$met" "$xreduce tests/data/demo.session -- $xdemo"

if [ "${BENCH_BASELINE:-0}" = 1 ]; then
  "$top/bench/bench-reduce.sh" "$build" "$top/tests/data/demo.session" > "$tmp/reduce.out" 2>&1
  ratio=$(sed -n 's/^default vs baseline: .*fewer tests, \([0-9.]*\)x faster.*/\1/p' "$tmp/reduce.out")
  met=$(echo "${ratio:-0}" | awk '{print ($1 >= 100) ? "yes" : "no"}')
  row "the seed's ddmin" "${ratio:-?}x faster" ">= 100x" "$met" \
    "bench/bench-reduce.sh $build tests/data/demo.session"
else
  row "the seed's ddmin" "not run (BENCH_BASELINE=1)" ">= 100x" "-" \
    "BENCH_BASELINE=1 bench/bench-speed.sh $build"
fi

browser () {   # browser NAME SCRIPT TARGET_S
  if [ "${BENCH_BROWSERS:-0}" != 1 ]; then
    row "$1" "not run (BENCH_BROWSERS=1)" "$3" "-" "BENCH_BROWSERS=1 bench/bench-speed.sh $build"
    return
  fi
  if ! "$top/bench/$2" "$build" > "$tmp/$2.out" 2>&1; then
    row "$1" "failed: $(tail -n 1 "$tmp/$2.out")" "$3" "no" "bench/$2 $build"
    return
  fi
  line=$(sed -n 's/^xreduce: //p' "$tmp/$2.out" | head -n 1)   # "152 -> 34 actions in 79 tests, 149 s"
  wall=$(sed -n 's/^wall time: \([0-9]*\) s.*/\1/p' "$tmp/$2.out")
  kept=$(sed -n 's/^kept by the search: \([0-9]*\).*/\1/p' "$tmp/$2.out")
  [ -n "$kept" ] || kept=$(echo "$line" | awk '{print $3}')
  tests=$(echo "$line" | awk '{print $6}')
  echo "$1 $wall $tests $kept" > "$tmp/figures"
  met=$(awk -v name="$1" '{
          if (name == "Chromium") print ($2 < 60 && $3 <= 1.5 * $4) ? "yes" : "no";
          else print ($2 < 45) ? "yes" : "no" }' "$tmp/figures")
  row "$1" "$line, $kept kept by the search (wall $wall s)" "$3" "$met" "bench/$2 $build"
}
browser "Firefox ESR" bench-firefox.sh "< 45 s"
browser "Chromium" bench-chromium.sh "<= 1.5 tests/kept, < 60 s"

# halfempty and picire: bench-others.sh, where they are found (neither
# is in Debian 12's archive: HALFEMPTY=PATH, PICIRE=COMMAND, as there).
"$top/bench/bench-others.sh" "$build" > "$tmp/others.out" 2>&1 || true
for other in halfempty picire; do
  line=$(grep "^$other" "$tmp/others.out" | head -n 1)
  ratio=$(echo "$line" | sed -n 's/.*xreduce is \([0-9.]*\)x faster.*/\1/p')
  if [ -n "$ratio" ]; then
    met=$(echo "$ratio" | awk '{print ($1 >= 10) ? "yes" : "no"}')
    row "$other" "${ratio}x faster ($(echo "$line" | cut -d: -f2 | cut -d';' -f1 | sed 's/^ //'))" \
      ">= 10x" "$met" "bench/bench-others.sh $build"
  else
    row "$other" "${line:-not run}" ">= 10x" "-" "bench/bench-others.sh $build"
  fi
done
