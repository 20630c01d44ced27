# lib.sh — sourced by the benchmarks under bench/: the checks before a
# run, and the steps of the benches that record an app with xrecord and
# reduce the recording with xreduce (bench-chromium.sh, bench-firefox.sh,
# bench-python-gtk.sh). POSIX sh.
#
#   . "$(dirname "$0")/lib.sh"   # $top: the source tree
#   bench_build_dir "$@"; shift "$bench_shift"
#                            # [BUILD_DIR] [--] from the script's arguments:
#                            # $build (default $top/build), in it $xrecord,
#                            # $xreplay and $xreduce
#   bench_built PATH...      # each is built, or exit 2
#   bench_installed TOOL [HOW]   # TOOL is on PATH, or exit 2
#
# After scripts/xvfb.sh, scripts/xrecord.sh and xrecord_workdir ($tmp),
# with $DISPLAY a private Xvfb:
#   bench_record NAME APP [ARGS...]   # xrecord records APP (HOME a new
#                            # $tmp/home) into $tmp/NAME.session
#   bench_visit URL          # a browser's address bar: URL typed, Return,
#                            # a look at the page
#   bench_scroll N BUTTON    # the wheel, N notches (4 up, 5 down)
#   bench_recorded NAME SECONDS  # waits for the app to end the recording
#                            # (exit 3 if xrecord fails), stops the Xvfb,
#                            # keeps the session as $build/NAME.session
#   bench_count NAME         # "recorded: N user actions, OUTCOME"
#   bench_reduce COMMAND...  # runs xreduce's COMMAND, its output in
#                            # $tmp/xreduce.out and .err: $status, its exit
#                            # status, and $wall, its time in s
#   bench_keep_report NAME   # $tmp/NAME.min.report kept in $build, its
#                            # report.md's first 20 lines printed
#   bench_finish NAME        # how xreduce ended (its error's last lines),
#                            # its report kept if it wrote one; exits with
#                            # xreduce's status
# shellcheck shell=sh disable=SC2154  # $tmp is the script's (xrecord_workdir)

top=$(cd "$(dirname "$0")/.." && pwd)

bench_build_dir () {
  build=${1:-$top/build}
  bench_shift=0
  [ $# -ge 1 ] && bench_shift=1 && shift
  [ "${1:-}" = "--" ] && bench_shift=$((bench_shift + 1))
  # shellcheck disable=SC2034  # the scripts' own
  xrecord=$build/recorder/xrecord xreplay=$build/replayer/xreplay \
    xreduce=$build/reducer/xreduce
  return 0
}

bench_built () {
  for _b_path in "$@"; do
    [ -x "$_b_path" ] || { echo "$0: $_b_path is not built (ninja -C $build)" >&2; exit 2; }
  done
}

bench_installed () {
  command -v "$1" >/dev/null ||
    { echo "$0: $1 is not installed${2:+ ($2)}" >&2; exit 2; }
}

bench_record () {
  _b_name=$1
  shift
  mkdir "$tmp/home"
  HOME=$tmp/home xrecord_start "$tmp" "$xrecord" "$tmp/$_b_name.session" "$@"
}

bench_visit () {
  xdotool key --delay 120 ctrl+l
  xdotool type --delay 90 "$1"
  xdotool key Return
  sleep 2
}

bench_scroll () {
  for _ in $(seq "$1"); do xdotool click "$2"; sleep 0.15; done
}

bench_recorded () {
  xrecord_wait "$2" || { cat "$tmp/xrecord.err" >&2; exit 3; }
  xvfb_stop
  cp "$tmp/$1.session" "$build/$1.session"
}

bench_count () {
  _b_actions=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' \
               "$tmp/$1.session" || true)
  _b_outcome=$(grep -m1 '^outcome' "$tmp/$1.session" || echo "outcome none")
  echo "recorded: $_b_actions user actions, $_b_outcome"
}

bench_reduce () {
  _b_start=$(date +%s.%N)
  status=0
  "$@" >"$tmp/xreduce.out" 2>"$tmp/xreduce.err" || status=$?
  _b_end=$(date +%s.%N)
  wall=$(echo "$_b_end $_b_start" | awk '{printf "%.0f", $1 - $2}')
}

bench_keep_report () {
  rm -rf "$build/$1.min.report"
  cp -r "$tmp/$1.min.report" "$build/$1.min.report"
  echo "report ($build/$1.min.report/report.md), its first 20 lines:"
  head -n 20 "$tmp/$1.min.report/report.md"
}

bench_finish () {
  echo "xreduce: exit $status after $wall s on $(nproc) cores: $(head -n 1 "$tmp/xreduce.out")"
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$tmp/xreduce.err" >&2
  fi
  if [ -f "$tmp/$1.min.report/report.md" ]; then
    # What the search kept, before the user's releases went back (issue
    # 37 counts tests a kept action on those).
    _b_after=$(head -n 1 "$tmp/xreduce.out" | awk '{print $3}')
    _b_put=$(sed -n "s/^- The user's releases: \([0-9]*\) put back.*/\1/p" \
               "$tmp/$1.min.report/report.md")
    echo "kept by the search: $((_b_after - ${_b_put:-0})) actions (the user's releases put back after it: ${_b_put:-0})"
    bench_keep_report "$1"
  fi
  exit "$status"
}
