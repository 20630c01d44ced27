#!/bin/bash
# bench-record-all.sh — figures, not a test: what always recording costs.
# On a private Xvfb, N apps of different toolkits (xdemo, xterm, a GTK app
# on python3-gi, xclock, xeyes, a Tk app, xcalc, xlogo, a Qt app on
# python3-pyqt5, xedit; then again) are used in turn by a scripted user
# (xdotool: a click into one app, then a word typed into it, a command
# into the terminal, or pointer moves over a clock) for MINUTES without
# xrecord, then the same script for MINUTES under `xrecord --all`. Prints,
# per minute and in total: xrecord's CPU seconds (user+sys, from
# /proc/PID/stat) and its memory (VmRSS, and VmHWM: the peak), the X
# server's CPU seconds without and with xrecord; at the end, SIGUSR1 saves
# every app's buffer: how many sessions and actions that held.
#
# Usage: bench/bench-record-all.sh [--build DIR] [--apps N] [--minutes M]
#                                  [--no-baseline]
#        (defaults: build, 6 apps, 2 minutes each phase: about 5 minutes;
#        the issue's figure is --apps 10 --minutes 10, about 21 minutes;
#        N is at most 16)
# Needs: Xvfb, xdotool, xterm, x11-apps, tk, python3-gi, python3-pyqt5
# (scripts/bootstrap.sh --tests). CPU seconds, not wall time, are the
# figures: they hold on a busy machine better than wall time does, but
# not exactly (caches, frequency); run it on an idle one for the closing
# note's figures.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
n_apps=6
minutes=2
baseline=yes
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --apps) n_apps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --no-baseline) baseline=no; shift ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$0: unknown option '$1' (--build DIR, --apps N, --minutes M, --no-baseline)" >&2
       exit 2 ;;
  esac
done
case $n_apps in ''|*[!0-9]*) echo "$0: --apps: '$n_apps' is not a number (1 to 16)" >&2; exit 2 ;; esac
case $minutes in ''|*[!0-9]*) echo "$0: --minutes: '$minutes' is not a whole number of minutes" >&2; exit 2 ;; esac
[ "$n_apps" -ge 1 ] && [ "$n_apps" -le 16 ] || { echo "$0: --apps: 1 to 16" >&2; exit 2; }
[ "$minutes" -ge 1 ] || { echo "$0: --minutes: at least 1" >&2; exit 2; }
xrecord=$build/recorder/xrecord
xdemo=$build/tests/apps/xdemo
for p in "$xrecord" "$xdemo"; do
  [ -x "$p" ] || { echo "$0: $p is not built (ninja -C $build)" >&2; exit 2; }
done
for p in Xvfb xdotool xterm xclock xeyes xcalc xlogo xedit wish /usr/bin/python3; do
  command -v "$p" >/dev/null || { echo "$0: $p is missing (scripts/bootstrap.sh --tests)" >&2; exit 2; }
done

. "$top/scripts/xvfb.sh"
. "$top/scripts/xrecord.sh"
tmp=$(mktemp -d)
pids=()
xrecord_pid=
cleanup () {
  [ -z "$xrecord_pid" ] || kill -KILL "$xrecord_pid" 2>/dev/null || true
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  xvfb_stop
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
xvfb_start "$tmp" 1280x1024
export NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory HOME=$tmp

# ---- the apps: app K in the cell K of a 4x4 grid (320x256 each), mapped in
# order, so that a later app never covers an earlier one's cell ----
cat >"$tmp/tk-entry.tcl" <<'EOF'
wm title . [lindex $argv 0]
wm geometry . 300x100+[lindex $argv 1]+[lindex $argv 2]
entry .e -width 30
pack .e -side top -fill x
EOF
cat >"$tmp/qt-entry.py" <<'EOF'
import sys
from PyQt5.QtWidgets import QApplication, QLineEdit
app = QApplication(sys.argv[:1])
w = QLineEdit()
w.setWindowTitle(sys.argv[1])
w.setGeometry(int(sys.argv[2]), int(sys.argv[3]), 300, 30)
w.show()
app.exec_()
EOF
kinds=(xdemo xterm gtk xclock xeyes tk xcalc xlogo qt xedit)
titles=() wids=() app_kinds=()
for ((k = 0; k < n_apps; k++)); do
  kind=${kinds[k % ${#kinds[@]}]}
  x=$(( (k % 4) * 320 )) y=$(( (k / 4) * 256 ))
  # (One xdemo: its window's title is always "Editor".)
  [ "$kind" != xdemo ] || [ "$k" -lt ${#kinds[@]} ] || kind=xeyes
  title=bench-$k-$kind
  [ "$kind" != xdemo ] || title=Editor
  case $kind in
    xdemo) "$xdemo" --bug none --geometry "+$x+$y" >/dev/null 2>&1 & ;;
    xterm) xterm -T "$title" -geometry "40x12+$x+$y" -e bash --norc >/dev/null 2>&1 & ;;
    gtk) /usr/bin/python3 "$top/tests/apps/gtk-notes.py" "$title" "$x" "$y" >/dev/null 2>&1 & ;;
    tk) wish "$tmp/tk-entry.tcl" "$title" "$x" "$y" >/dev/null 2>&1 & ;;
    qt) /usr/bin/python3 "$tmp/qt-entry.py" "$title" "$x" "$y" >/dev/null 2>&1 & ;;
    xclock) xclock -update 1 -title "$title" -geometry "300x230+$x+$y" >/dev/null 2>&1 & ;;
    *) "$kind" -title "$title" -geometry "300x230+$x+$y" >/dev/null 2>&1 & ;;
  esac
  pids+=($!)
  wid=$(timeout 120 xdotool search --sync --onlyvisible --name "^$title\$" | head -1)
  [ -n "$wid" ] || { echo "$0: $kind ($title) showed no window in 2 minutes" >&2; exit 3; }
  titles+=("$title") wids+=("$wid") app_kinds+=("$kind")
done
echo "apps: ${app_kinds[*]} ($n_apps on Xvfb $DISPLAY)"

# ---- the scripted user: one step an xdotool call (a click and a word typed,
# or pointer moves); as fast as xdotool goes, several times a human pace:
# the figures are an upper bound ----
words=(hello crash report window menu print save quit undo redo paste copy)
step () {   # step K: the user's turn in app K
  local k=$1 wid=${wids[$1]} w=${words[RANDOM % ${#words[@]}]}
  case ${app_kinds[k]} in
    xdemo) xdotool mousemove --window "$wid" 100 58 click 1 type --delay 40 "$w " ;;
    xterm) xdotool mousemove --window "$wid" 60 60 click 1 type --delay 40 "echo $w" \
             key Return ;;
    gtk) xdotool mousemove --window "$wid" 100 40 click 1 type --delay 40 "$w " ;;
    tk|qt) xdotool mousemove --window "$wid" 60 12 click 1 type --delay 40 "$w " ;;
    xedit) xdotool mousemove --window "$wid" 100 150 click 1 type --delay 40 "$w " ;;
    xcalc) xdotool mousemove --window "$wid" $((20 + RANDOM % 150)) $((80 + RANDOM % 140)) \
             click 1 ;;
    *) xdotool mousemove --window "$wid" 20 20 mousemove --window "$wid" 150 60 \
         mousemove --window "$wid" 250 120 mousemove --window "$wid" 80 200 click 1 ;;
  esac
}

ticks=$(getconf CLK_TCK)
cpu () {   # user+sys seconds of process $1
  awk -v hz="$ticks" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"
}
kib () {   # a /proc/PID/status field in KiB
  awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

# phase NAME: the script for $minutes minutes, a line of figures a minute:
# the X server's CPU seconds in it, and xrecord's CPU and RSS if it runs.
# Sets phase_steps, phase_xvfb (CPU s), phase_xrecord (CPU s).
phase () {
  local name=$1 start end next minute=1 k=0 x0 x1 r0 r1 xs rs s0=0
  RANDOM=42
  phase_steps=0
  x0=$(cpu "$xvfb_pid") xs=$x0
  if [ -n "$xrecord_pid" ]; then r0=$(cpu "$xrecord_pid"); rs=$r0; fi
  start=$(date +%s) end=$((start + minutes * 60)) next=$((start + 60))
  while :; do
    step $((k % n_apps))
    k=$((k + 1)) phase_steps=$((phase_steps + 1))
    if [ "$(date +%s)" -ge "$next" ]; then
      x1=$(cpu "$xvfb_pid")
      if [ -n "$xrecord_pid" ]; then
        r1=$(cpu "$xrecord_pid")
        printf "%-18s minute %2d: %3d steps; Xvfb %5.2f s CPU; xrecord %5.2f s CPU, RSS %5.1f MiB (peak %5.1f MiB)\n" \
          "$name" "$minute" "$((phase_steps - s0))" "$(echo "$x1 - $x0" | bc)" "$(echo "$r1 - $r0" | bc)" \
          "$(echo "scale=1; $(kib "$xrecord_pid" VmRSS) / 1024" | bc)" \
          "$(echo "scale=1; $(kib "$xrecord_pid" VmHWM) / 1024" | bc)"
        r0=$r1
      else
        printf "%-18s minute %2d: %3d steps; Xvfb %5.2f s CPU\n" "$name" "$minute" \
          "$((phase_steps - s0))" "$(echo "$x1 - $x0" | bc)"
      fi
      x0=$x1 s0=$phase_steps minute=$((minute + 1)) next=$((next + 60))
      [ "$next" -le "$end" ] || break
    fi
  done
  phase_xvfb=$(echo "$(cpu "$xvfb_pid") - $xs" | bc)
  [ -z "$xrecord_pid" ] || phase_xrecord=$(echo "$(cpu "$xrecord_pid") - $rs" | bc)
}

if [ "$baseline" = yes ]; then
  phase "without xrecord"
  base_steps=$phase_steps base_xvfb=$phase_xvfb
fi

# ---- the same under xrecord --all ----
xrecord_start_argv "$tmp" "$xrecord" --all --save-dir "$tmp/saved"
drain=$_xr_drain
idle_rss=$(kib "$xrecord_pid" VmRSS)
phase "with xrecord --all"
with_steps=$phase_steps with_xvfb=$phase_xvfb with_xrecord=$phase_xrecord
peak=$(kib "$xrecord_pid" VmHWM) rss=$(kib "$xrecord_pid" VmRSS)

# Every app's buffer saved: what the memory held.
kill -USR1 "$xrecord_pid"
for ((i = 0; i < 300; i++)); do
  [ "$(grep -c '(SIGUSR1): its last' "$tmp/xrecord.err" || true)" -lt "$n_apps" ] || break
  sleep 0.1
done
kill -TERM "$xrecord_pid"
wait "$xrecord_pid" || true
xrecord_pid=
wait "$drain" || true
saved=$(grep -c '(SIGUSR1): its last' "$tmp/xrecord.err" || true)
actions=$(cat "$tmp"/saved/*.log 2>/dev/null \
          | grep -c -E '^[0-9]+ (KeyPress|KeyRelease|ButtonPress|ButtonRelease|MotionNotify) ' || true)
bytes=$(cat "$tmp"/saved/*.log 2>/dev/null | wc -c)

echo
echo "summary ($n_apps apps, $minutes min a phase, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)):"
printf "  xrecord --all CPU:   %.2f s in %d min = %.2f s a minute (%.2f%% of one core), %d steps, %.2f ms a step\n" \
  "$with_xrecord" "$minutes" "$(echo "scale=3; $with_xrecord / $minutes" | bc)" \
  "$(echo "scale=3; 100 * $with_xrecord / ($minutes * 60)" | bc)" "$with_steps" \
  "$(echo "scale=3; 1000 * $with_xrecord / $with_steps" | bc)"
printf "  xrecord --all RSS:   %.1f MiB at the start, %.1f MiB at the end, peak (VmHWM) %.1f MiB\n" \
  "$(echo "scale=1; $idle_rss / 1024" | bc)" "$(echo "scale=1; $rss / 1024" | bc)" \
  "$(echo "scale=1; $peak / 1024" | bc)"
if [ "$baseline" = yes ]; then
  printf "  Xvfb CPU a minute:   %.2f s without xrecord (%d steps), %.2f s with (%d steps)\n" \
    "$(echo "scale=3; $base_xvfb / $minutes" | bc)" "$base_steps" \
    "$(echo "scale=3; $with_xvfb / $minutes" | bc)" "$with_steps"
  # (A loaded machine runs fewer steps in a minute: per step is the fair figure.)
  printf "  Xvfb CPU a step:     %.1f ms without xrecord, %.1f ms with: %+.0f%%\n" \
    "$(echo "scale=3; 1000 * $base_xvfb / $base_steps" | bc)" \
    "$(echo "scale=3; 1000 * $with_xvfb / $with_steps" | bc)" \
    "$(echo "scale=3; 100 * ($with_xvfb / $with_steps) / ($base_xvfb / $base_steps) - 100" | bc)"
else
  printf "  Xvfb CPU a minute:   %.2f s with xrecord (%d steps)\n" \
    "$(echo "scale=3; $with_xvfb / $minutes" | bc)" "$with_steps"
fi
echo "  saved on SIGUSR1:    $saved sessions of $n_apps apps, $actions actions, $bytes bytes"
