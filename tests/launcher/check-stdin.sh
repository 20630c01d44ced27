#!/bin/sh
# check-stdin.sh BUILD_ROOT SOURCE_ROOT: xreplay's SESSION "-" (what
# xreduce --launcher sends through srun or ssh): a plain session on stdin
# replays; a framed one whose stdin closes while the app runs is cancelled
# (exit 129) and leaves nothing, no Xvfb, no app, no sandbox folder; so
# does SIGUSR1 (138, what srun passes on); empty input, a frame over
# --max-session-size, and xreduce's bad --launcher and --summarize
# arguments are usage errors (2), said before anything starts. TAP.
set -u
build=$1
src=$2
. "$src/tests/launcher/lib.sh"
session=$src/tests/data/demo.session

echo "1..18"
marked "$xreplay" --json - -- "$T/app/xdemo" < "$session" > "$T/plain.json" 2> "$T/plain.err"
status=$?
check test "plain stdin: $status" = "plain stdin: 1"
check grep -q '"outcome" *: *"crashed"' "$T/plain.json"
check nothing_left

# Framed, from a FIFO we hold open: closed once the app is up.
mkfifo "$T/in"
marked "$xreplay" --json - -- "$T/app/xdemo" < "$T/in" > "$T/framed.json" 2> "$T/framed.err" &
pid=$!
exec 3> "$T/in"
printf 'xreduce-session-frame %s\n' "$(wc -c < "$session" | tr -d ' ')" >&3
cat "$session" >&3
i=0
until app_runs || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
check app_runs
exec 3>&-
wait $pid
status=$?
check test "stdin closed: $status" = "stdin closed: 129"
check grep -q 'the sender closed stdin' "$T/framed.err"
check nothing_left

# SIGUSR1 (srun passes it on) while the app runs, the frame's stdin open.
marked "$xreplay" --json - -- "$T/app/xdemo" < "$T/in" > /dev/null 2> "$T/usr1.err" &
pid=$!
exec 3> "$T/in"
printf 'xreduce-session-frame %s\n' "$(wc -c < "$session" | tr -d ' ')" >&3
cat "$session" >&3
i=0
until app_runs || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -USR1 $pid
wait $pid
status=$?
exec 3>&-
check test "SIGUSR1: $status" = "SIGUSR1: 138"
check nothing_left

"$xreplay" --json - -- "$T/app/xdemo" < /dev/null > /dev/null 2> "$T/empty.err"
status=$?
check test "empty stdin: $status $(cat "$T/empty.err")" = \
  "empty stdin: 2 xreplay: stdin: empty input: no session to read"
printf 'xreduce-session-frame 2000000\n' | "$xreplay" --max-session-size 1 --json - \
  -- "$T/app/xdemo" > /dev/null 2> "$T/big.err"
status=$?
check test "frame over the limit: $status" = "frame over the limit: 2"
check grep -q 'a frame of 2000000 bytes is too large' "$T/big.err"

# xreduce's usage errors, before any replay.
usage () {
  "$xreduce" "$@" > /dev/null 2> "$T/usage.err"
  status=$?
  if [ $status -eq 2 ] && [ -z "$(leftovers)" ]; then ok "xreduce $*: 2"; else
    not_ok "xreduce $*: $status"; diag < "$T/usage.err"; fi
}
usage --launcher no-such-launcher-xr "$session" -- "$T/app/xdemo"
usage --launcher "'unbalanced" "$session" -- "$T/app/xdemo"
usage --launcher env --test true "$session" -- "$T/app/xdemo"
usage --launcher env -j 0 "$session" -- "$T/app/xdemo"
usage --summarize
usage --summarize "$T/no-such-result.json"
[ $fails -eq 0 ]
