#!/bin/sh
# check-stdin.sh BUILD_ROOT SOURCE_ROOT: xreplay's SESSION "-" (what
# xreduce --launcher sends through srun or ssh): a plain session on stdin
# replays; a framed one whose stdin closes while the app runs is cancelled
# (exit 129) and leaves nothing, no Xvfb, no app, no sandbox folder; so
# does SIGUSR1 (138, what srun passes on); so do, 20 times each, xterm
# with bash's history and an app whose process writes into HOME after
# the app is gone (stopped, or not); empty input, a frame over
# --max-session-size, and xreduce's bad --launcher and --summarize
# arguments are usage errors (2), said before anything starts. TAP.
set -u
build=$1
src=$2
. "$src/tests/launcher/lib.sh"
session=$src/tests/data/demo.session

echo "1..23"
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

# Apps that write into their HOME as they go (issue #34: through srun and
# ssh, a sandbox folder was left holding an xterm's .bash_history). Each
# replay is stopped as xreduce --launcher stops a test, by closing its
# stdin, once the app runs (or left to its end); every time, nothing may
# be left.
#   - xterm with bash, its history on (bash writes it when its terminal
#     closes), typing the recorded commands that end with a crash;
#   - without bubblewrap (--no-isolate; or where it cannot work): xdemo,
#     and beside it, in a session of its own as a terminal's shell is, a
#     process that a moment after xdemo is gone makes the folders it needs
#     in HOME and writes there (as an app saving its state does).
make_writes_at_exit
# One replay, framed on stdin, stopped after $1 s of the app (-1: not
# stopped); $2: the app's pattern; the rest: xreplay's arguments. TRUE if
# nothing is left.
stopped_replay () {
  after=$1; pattern=$2; shift 2
  rm -f "$T/in"; mkfifo "$T/in"
  marked "$xreplay" --json "$@" < "$T/in" > /dev/null 2> "$T/writes.err" &
  pid=$!
  exec 3> "$T/in"
  printf 'xreduce-session-frame %s\n' "$(wc -c < "$sess" | tr -d ' ')" >&3
  cat "$sess" >&3
  if [ "$after" != -1 ]; then
    i=0
    until pgrep -f "$pattern" > /dev/null || [ $i -ge 300 ]; do sleep 0.05; i=$((i + 1)); done
    sleep "$after"
  fi
  exec 3>&-
  wait $pid
  nothing_left
}
left=0
sess=$src/tests/data/xterm.session
for r in $(seq 1 20); do
  case $((r % 4)) in 0) after=-1 ;; 1) after=0.2 ;; 2) after=0.6 ;; *) after=1.0 ;; esac
  stopped_replay $after "^xterm -geometry 80x24\+10\+10 -e bash -i" - -- \
    xterm -geometry 80x24+10+10 -e bash -i || left=$((left + 1))
done
check test "xterm with bash's history, stopped or not: $left of 20 left something" = \
  "xterm with bash's history, stopped or not: 0 of 20 left something"
left=0
sess=$session
for r in $(seq 1 20); do
  stopped_replay 0.$((r % 5)) "^$T/app/xdemo" --no-isolate - -- "$T/app/writes-at-exit" \
    "$T/app/xdemo" || left=$((left + 1))
done
check test "an app whose process writes into HOME after it: $left of 20 left something" = \
  "an app whose process writes into HOME after it: 0 of 20 left something"

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

# A launcher that dies of a signal is said to, not xreplay (issue #34:
# "xreplay was killed by signal 9" when srun was).
printf '#!/bin/sh\nkill -9 $$\n' > "$T/app/dying-launcher"
chmod +x "$T/app/dying-launcher"
marked "$xreduce" --no-report -o "$T/dying.min" --launcher "$T/app/dying-launcher" "$session" \
  -- "$T/app/xdemo" > /dev/null 2> "$T/dying.err"
status=$?
check test "a launcher killed: $status" = "a launcher killed: 3"
check grep -q 'the last: the launcher dying-launcher was killed by signal 9' "$T/dying.err"
check_not () { if "$@"; then not_ok "not $*"; else ok "not $*"; fi; }
check_not grep -q 'xreplay was killed' "$T/dying.err"
[ $fails -eq 0 ]
