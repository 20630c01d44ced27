#!/bin/sh
# bench-reduce.sh — figures, not a test: what a reduction costs.
#
# 1. The bundled demo session (91 actions) against the demo app, twice:
#    the baseline (the seed paper's sequential subsets-first ddmin, a fresh
#    Xvfb per test, -j 1, and the recorded pace, as the seed ran it) and
#    the default (phrases, gestures, then actions, complement-first, cache,
#    parallel workers reusing their Xvfb). Target: at most 30 tests.
# 2. A typed session: tests/data/xterm.session (117 actions, five commands
#    typed into bash in an xterm, the last one kill -SEGV $PPID), with the
#    default. Target: at most 120 tests for a 1-minimal result. Installs
#    xterm with apt-get if it is missing.
#
# Prints tests, wall time, result size and whether it is 1-minimal.
#
# Usage: bench/bench-reduce.sh [BUILD_DIR] [SESSION] [-- extra xreduce options]
#   (a SESSION replaces the demo session in part 1; part 2 then is skipped)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
session=${2:-$top/tests/data/demo.session}
typed=yes
[ $# -ge 2 ] && typed=
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
xreduce=$build/reducer/xreduce
xdemo=$build/tests/apps/xdemo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# run LABEL SESSION APP... -- XREDUCE_OPTIONS...
run () {
  label=$1 file=$2; shift 2
  app=
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do app="$app $1"; shift; done
  [ "${1:-}" = "--" ] && shift
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # $app is a list of words without spaces
  "$xreduce" -o "$tmp/$label.min" "$@" "$file" -- $app > "$tmp/$label.out" 2>/dev/null
  end=$(date +%s.%N)
  line=$(head -n 1 "$tmp/$label.out")   # "91 -> 3 actions in 41 tests, 23 s"
  before=$(echo "$line" | awk '{print $1}')
  after=$(echo "$line" | awk '{print $3}')
  tests=$(echo "$line" | awk '{print $6}')
  wall=$(echo "$end $start" | awk '{printf "%.1f", $1 - $2}')
  minimal=$(grep -q "1-minimal: verified" "$tmp/$label.min.report/report.md" 2>/dev/null \
            && echo "1-minimal" || echo "not verified 1-minimal")
  printf '%-28s %6s tests %8s s %4s -> %s actions, %s\n' "$label" "$tests" "$wall" "$before" \
    "$after" "$minimal"
  eval "${label}_tests=$tests; ${label}_wall=$wall"
}

echo "xreduce on $(basename "$session"), $(nproc) cores"
run baseline "$session" "$xdemo" -- --algorithm ddmin -j 1 --pace recorded "$@"
run default "$session" "$xdemo" -- "$@"
echo "$baseline_tests $default_tests $baseline_wall $default_wall" |
  awk '{printf "default vs baseline: %.1fx fewer tests, %.1fx faster (target: <= 30 tests)\n", $1 / $2, $3 / $4}'
[ -n "$typed" ] || exit 0

if ! command -v xterm >/dev/null; then
  echo "$0: installing xterm" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    xterm >/dev/null
fi
echo
echo "xreduce on xterm.session (typed commands), $(nproc) cores"
run typed "$top/tests/data/xterm.session" xterm -geometry 80x24+10+10 -e bash --norc --noprofile \
  -- "$@"
sed -n '2,$p' "$tmp/typed.out" | sed -n '/^minimal session/q;p'
echo "typed session: $typed_tests tests (target: <= 120 for a 1-minimal result)"
