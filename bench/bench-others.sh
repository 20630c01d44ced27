#!/bin/sh
# bench-others.sh — figures, not a test: xreduce beside two general
# reducers of files, halfempty (-P 6) and picire (-p -j 6, line atoms),
# on the bundled demo session (91 actions), each with the same xreplay
# as its test: the candidate replays and the app crashes (xreplay's exit
# status 1; a candidate xreplay refuses, exit 2, is not interesting).
# Prints each one's wall time, tests run, and the actions left, and how
# much faster xreduce is (issue #37's target: >= 10x both).
#
# Neither is in Debian 12's archive. HALFEMPTY=PATH (else `halfempty` on
# PATH; build it from https://github.com/googleprojectzero/halfempty with
# make); PICIRE="COMMAND" (else `picire` on PATH; `pip install picire`, or
# its source: PICIRE="env PYTHONPATH=SRC python3 -m picire"). A tool not
# found is said, not guessed.
#
# Each gets at most OTHERS_LIMIT seconds (default 600; halfempty works on
# bytes, and goes on for long): one stopped says so, and the ratio is then
# a lower bound.
#
# Usage: bench/bench-others.sh [BUILD_DIR]   (default: build)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)   # absolute: the tests run elsewhere
xreduce=$build/reducer/xreduce
xreplay=$build/replayer/xreplay
xdemo=$build/tests/apps/xdemo
session=$top/tests/data/demo.session
for p in "$xreduce" "$xreplay" "$xdemo"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

actions () {   # the user actions in session file $1
  grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' "$1" || true
}
now () { date +%s.%N; }
since () { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }

# The test both run: the candidate (a file) replays and crashes the demo.
# Each run counts itself in $tmp/tests.
cat > "$tmp/test.sh" <<EOF
#!/bin/sh
echo x >> "$tmp/tests"
f=\${1:-}
if [ -z "\$f" ]; then f=\$(mktemp "$tmp/cand.XXXXXX"); cat > "\$f"; fi
status=0
"$xreplay" "\$f" -- "$xdemo" >/dev/null 2>&1 || status=\$?
[ -z "\${1:-}" ] && rm -f "\$f"
[ "\$status" -eq 1 ]
EOF
chmod +x "$tmp/test.sh"

echo "the demo session ($(actions "$session") actions) on $(nproc) cores, $(date -u +%Y-%m-%d)"
start=$(now)
"$xreduce" --no-report -o "$tmp/xreduce.min" "$session" -- "$xdemo" > "$tmp/xreduce.out" \
  2> "$tmp/xreduce.err" || { cat "$tmp/xreduce.err" >&2; exit 1; }
ours=$(since "$start")
echo "xreduce:   $ours s, $(head -n 1 "$tmp/xreduce.out")"

limit=${OTHERS_LIMIT:-600}
compare () {   # compare NAME SECONDS TESTS RESULT_FILE STATUS
  if [ "$5" -eq 124 ]; then
    echo "$1: stopped after $2 s, $3 tests, not done; xreduce is at least $(echo "$2 $ours" |
         awk '{printf "%.1f", $1 / $2}')x faster (target >= 10x)"
  else
    echo "$1: $2 s, $3 tests, $(actions "$4") actions left; xreduce is $(echo "$2 $ours" |
         awk '{printf "%.1f", $1 / $2}')x faster (target >= 10x)"
  fi
}

halfempty=${HALFEMPTY:-$(command -v halfempty || true)}
if [ -n "$halfempty" ] && [ -x "$halfempty" ]; then
  : > "$tmp/tests"
  cp "$session" "$tmp/he.session"
  start=$(now)
  status=0
  (cd "$tmp" && timeout "$limit" "$halfempty" -P 6 -q -o "$tmp/he.min" "$tmp/test.sh" \
     "$tmp/he.session" > "$tmp/he.out" 2>&1) || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 124 ] || { echo "halfempty failed:"; tail -n 5 "$tmp/he.out"; }
  compare "halfempty -P 6" "$(since "$start")" "$(wc -l < "$tmp/tests")" "$tmp/he.min" "$status"
else
  echo "halfempty: not found (HALFEMPTY=PATH)"
fi

if [ -n "${PICIRE:-}" ] || command -v picire >/dev/null; then
  : > "$tmp/tests"
  cp "$session" "$tmp/pc.session"
  start=$(now)
  status=0
  # shellcheck disable=SC2086  # PICIRE is a command line
  timeout "$limit" ${PICIRE:-picire} -i "$tmp/pc.session" --test "$tmp/test.sh" -p -j 6 \
    --atom line -o "$tmp/pc.out.d" > "$tmp/pc.out" 2>&1 || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 124 ] || { echo "picire failed:"; tail -n 5 "$tmp/pc.out"; }
  compare "picire -p -j 6" "$(since "$start")" "$(wc -l < "$tmp/tests")" \
    "$(find "$tmp/pc.out.d" -name 'pc.session' | head -n 1)" "$status"
else
  echo "picire: not found (PICIRE=COMMAND)"
fi
