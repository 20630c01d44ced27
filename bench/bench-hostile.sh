#!/bin/sh
# bench-hostile.sh — figures, not a test: what a large or padded session
# costs xreplay's commands that need no display (--list, --export json,
# --export xdotool), in wall time and peak memory (GNU time's %e and %M),
# on generated files, all under the 64 MiB size limit:
#   - N identical clicks (default 40,000: 5.7 MB);
#   - 1,000,000 key actions (42 MB);
#   - 10 MB of blank lines, and 20 MB of '#' lines, around one action.
# Each command runs under a CPU limit (ulimit -t, default 120 s): "killed"
# means it passed it. Point it at another build to compare (issue 25's
# before and after).
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
for f in clicks keys blank comments; do
  size=$(wc -c < "$tmp/$f.session")
  echo "# $f.session: $size bytes"
  run "$f.session" --list
  run "$f.session" --export json
  run "$f.session" --export xdotool
done
