#!/bin/bash
# record-demo-session.sh — records a demo session for real: xrecord
# records xdemo on a private Xvfb while xdotool performs, one by one and
# with the script's pauses between them, the user actions of the script
# that make-demo-session.py writes (95 for the print variant). The result
# is what xrecord writes for that user: the same actions (but the pointer
# moves over the bare desktop, which are not aimed at the app), with the
# server events, window ids and timing of a real run.
#
# The bundled tests/data/demo.session is this script's output for the
# print variant:
#
#   tests/data/record-demo-session.sh -o tests/data/demo.session
#
# xdemo is run from PATH, so the session records the command "xdemo" (give
# the path after `--` when replaying). The abort and drag variants stay
# generated (make-demo-session.py): they check the replayer against the
# generator's exact positions.
#
# Synchronisation: xrecord prints a line once it records and xdemo has a
# window; before an action aimed at a window, the script waits (xdotool
# search --sync) until the window is visible; the recording ends when
# xdemo crashes at the last action (or, if it does not, on SIGTERM).
#
# Usage: tests/data/record-demo-session.sh [-o OUT] [--variant print|abort|drag]
#                                          [BUILD_DIR]
#   OUT defaults to tests/data/demo-VARIANT.recorded.session.
#   BUILD_DIR defaults to build/, then build-record/.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
variant=print
out=
build=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) build=$1; shift ;;
  esac
done
case $variant in
  print) bug=print ;;
  abort) bug=abort ;;
  drag) bug=drag ;;
  *) echo "$0: unknown variant '$variant'" >&2; exit 2 ;;
esac
out=${out:-$here/demo-$variant.recorded.session}
if [ -z "$build" ]; then
  for candidate in "$top/build" "$top/build-record"; do
    [ -x "$candidate/recorder/xrecord" ] && { build=$candidate; break; }
  done
fi
xrecord=${build:-$top/build}/recorder/xrecord
xdemo=${build:-$top/build}/tests/apps/xdemo
for p in "$xrecord" "$xdemo"; do
  [ -x "$p" ] || { echo "$0: $p is not built" >&2; exit 2; }
done
for tool in Xvfb xdotool timeout python3; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done

. "$here/../../scripts/xvfb.sh"
. "$here/../../scripts/xrecord.sh"
xrecord_workdir

python3 "$here/make-demo-session.py" --variant "$variant" >"$tmp/script.session" \
  || { echo "$0: make-demo-session.py failed" >&2; exit 3; }

xvfb_start "$tmp"
# Where the generated user's pointer rests before the first action.
xdotool mousemove 1000 700

# xdemo from PATH: the session records the command "xdemo" (and the bug
# only if it is not the default one, print).
bug_args=()
[ "$bug" = print ] || bug_args=(--bug "$bug")
PATH=$(dirname "$xdemo"):$PATH xrecord_start "$tmp" "$xrecord" "$tmp/out.session" \
  xdemo "${bug_args[@]}"

# The user actions as "TIME|TITLE|xdotool words" (as check-demo-session.sh
# does), TIME in ms from the script's start.
actions () {
  awk '
    /^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) / {
      title = ""; root = ""; keysym = ""; button = ""
      for (i = 3; i <= NF; i++) {
        if ($i ~ /^title="/) { title = $i; sub(/^title="/, "", title); sub(/"$/, "", title) }
        else if ($i ~ /^root=/) { root = substr($i, 6); sub(/,/, " ", root) }
        else if ($i ~ /^keysym=/) keysym = substr($i, 8)
        else if ($i ~ /^button=/) button = substr($i, 8)
      }
      # With Shift held, the key of "H" is the key of "h".
      if (keysym ~ /^[A-Z]$/) keysym = tolower(keysym)
      if ($2 == "MotionNotify") cmd = "mousemove " root
      else if ($2 == "ButtonPress") cmd = "mousemove " root " mousedown " button
      else if ($2 == "ButtonRelease") cmd = "mousemove " root " mouseup " button
      else if ($2 == "KeyPress") cmd = (root != "" ? "mousemove " root " " : "") "keydown " keysym
      else cmd = (root != "" ? "mousemove " root " " : "") "keyup " keysym
      print $1 "|" title "|" cmd
    }' "$1"
}

sent=0
total=$(actions "$tmp/script.session" | wc -l)
prev=
while IFS="|" read -r time title cmd; do
  kill -0 "$xrecord_pid" 2>/dev/null || break
  # The script's pause before this action (the user's pace).
  [ -n "$prev" ] && sleep "$(awk -v a="$prev" -v b="$time" 'BEGIN { printf "%.3f", (b - a) / 1000 }')"
  prev=$time
  if [ -n "$title" ] && ! timeout 5 xdotool search --sync --onlyvisible --name "^$title\$" \
       >/dev/null 2>&1; then
    echo "$0: no window \"$title\" for action $((sent + 1))" >&2
    break
  fi
  # shellcheck disable=SC2086  # cmd is a list of xdotool words
  xdotool $cmd
  sent=$((sent + 1))
done < <(actions "$tmp/script.session")

# The last action crashes xdemo, which ends the recording; if it did not
# (wrong xdemo), stop it.
xrecord_wait 10
status=$?
{
  echo "# Recorded by tests/data/record-demo-session.sh --variant $variant: xrecord"
  echo "# recorded xdemo on a private Xvfb while xdotool performed, at the script's"
  echo "# pace, the user actions make-demo-session.py writes for this variant."
  echo "# Do not edit by hand: record it again."
  case $variant in
    print) echo "# It ends with a click on Print: xdemo --bug print (the default), twin and"
           echo "# flaky crash there, --bug hang hangs; --bug order crashes earlier, at F5." ;;
    abort) echo "# xdemo --bug abort aborts at the Options dialog's OK, with Bold checked." ;;
    drag) echo "# xdemo --bug drag crashes at the drop on Trash." ;;
  esac
  cat "$tmp/out.session"
} >"$out"
recorded=$(grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' "$out")
# Motion over the bare root is not aimed at xdemo: xrecord keeps motion
# over the app's windows only, the generator writes it with window -1.
expected=$(actions "$tmp/script.session" | grep -c -v '^[0-9]*||')
echo "$0: $sent of $total actions performed, $recorded recorded" \
     "($expected aimed at xdemo's windows), $(tail -n 1 "$out") -> $out"
[ "$status" -eq 0 ] && [ "$recorded" -eq "$expected" ]
