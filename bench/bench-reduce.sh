#!/bin/sh
# bench-reduce.sh — figures, not a test: reduces the bundled demo session
# against the demo app twice in one run, with the baseline (the seed
# paper's sequential subsets-first ddmin, a fresh Xvfb per test, -j 1, and
# the recorded pace, as the seed ran it) and
# with the default (gestures then actions, complement-first, cache,
# parallel workers reusing their Xvfb), and prints tests, wall time, result
# size and the ratios.
#
# Usage: bench/bench-reduce.sh [BUILD_DIR] [SESSION] [-- extra xreduce options]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
session=${2:-$top/tests/data/demo.session}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
xreduce=$build/reducer/xreduce
xdemo=$build/tests/apps/xdemo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

run () {
  label=$1; shift
  start=$(date +%s.%N)
  "$xreduce" --quiet -o "$tmp/$label.min" "$@" "$session" -- "$xdemo" > "$tmp/$label.out"
  end=$(date +%s.%N)
  line=$(head -n 1 "$tmp/$label.out")   # "91 -> 3 actions in 41 tests, 23 s"
  before=$(echo "$line" | awk '{print $1}')
  after=$(echo "$line" | awk '{print $3}')
  tests=$(echo "$line" | awk '{print $6}')
  wall=$(echo "$end $start" | awk '{printf "%.1f", $1 - $2}')
  printf '%-28s %6s tests %8s s %4s -> %s actions\n' "$label" "$tests" "$wall" "$before" "$after"
  eval "${label}_tests=$tests; ${label}_wall=$wall"
}

echo "xreduce on $(basename "$session"), $(nproc) cores"
run baseline --algorithm ddmin -j 1 --pace recorded "$@"
run default "$@"
echo "$baseline_tests $default_tests $baseline_wall $default_wall" |
  awk '{printf "default vs baseline: %.1fx fewer tests, %.1fx faster (targets: <= 45 tests, >= 10x faster, default under 12 s)\n", $1 / $2, $3 / $4}'
