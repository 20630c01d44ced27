# lib.sh — what the launcher tests share (sourced; TAP on stdout).
#
# Every test runs its programs with XREDUCE_TEST_MARK=$T in their
# environment (through srun it stays; through ssh the launcher sets it
# again), TMPDIR=$T/tmp (where xreplay's sandbox, Xvfb cookie and logs go)
# and a copy of the demo app at $T/app/xdemo: what is left afterwards is
# a process with the mark or that app, or anything in $T/tmp.
# Requires: build (the build root), src (the source root).
n=0
fails=0
ok () { n=$((n + 1)); echo "ok $n $*"; }
not_ok () { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
check () { if "$@"; then ok "$*"; else not_ok "$*"; fi; }
diag () { sed 's/^/# /'; }

xreplay=$build/replayer/xreplay
xreduce=$build/reducer/xreduce
T=$(mktemp -d "${TMPDIR:-/tmp}/xreduce-launcher-XXXXXX")
mkdir "$T/tmp" "$T/app"
cp "$build/tests/apps/xdemo" "$T/app/xdemo"
MARK="XREDUCE_TEST_MARK=$T"
daemons=""

# Run with the mark and the private TMPDIR.
marked () { env "$MARK" "TMPDIR=$T/tmp" "$@"; }
# Whether the app copy runs now.
app_runs () { pgrep -f "^$T/app/xdemo" > /dev/null; }

# What is left of the tests' processes and files, one line each.
leftovers () {
  {
    grep -lsazxF "$MARK" /proc/[0-9]*/environ
    grep -lsaF "$T/app/" /proc/[0-9]*/cmdline
  } 2>/dev/null | sed 's|^/proc/\([0-9]*\)/.*|\1|' | sort -u | while read -r pid; do
    [ "$pid" = $$ ] && continue
    cmd=$( { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null) || continue
    echo "process $pid: $cmd"
  done
  find "$T/tmp" -mindepth 1 -maxdepth 1 2>/dev/null | sed 's/^/file /'
}

# Waits (at most 20 s) until nothing is left: the last processes (a
# sandbox's cleaner) end a moment after their owner. TRUE when clean;
# else says what is left.
nothing_left () {
  i=0
  while [ $i -lt 200 ]; do
    [ -z "$(leftovers)" ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  leftovers | diag
  return 1
}

# $T/app/writes-at-exit APP: the app, and beside it, in a session of its
# own as a terminal's shell is, a process that a moment after the app is
# gone makes the folders it needs in HOME and writes there (as an app
# saving its state does, or bash its history as its terminal closes).
# Issue #34: such a write was left behind in a sandbox folder.
# The process waits for the app with `tail --pid` (a kill(2) every 20 ms),
# not a loop of `sleep`: a process started every 20 ms keeps the app's
# process tree busy, and xreplay then gives every replay that passes its
# whole --timeout more (6 s a replay instead of 1).
make_writes_at_exit () {
  cat > "$T/app/writes-at-exit" <<'APP'
#!/bin/sh
"$1" & app=$!
setsid sh -c 'tail --pid='"$app"' -s 0.02 -f /dev/null; sleep 0.3
  mkdir -p "$HOME/.local/state/app" && echo bye > "$HOME/.local/state/app/history"' \
  < /dev/null > /dev/null 2>&1 &
wait $app
status=$?
# It ends as the app did: a crash of the app is the wrapper's (else
# xreduce sees "exited with status 139", not the recorded crash).
[ $status -gt 128 ] && kill -$((status - 128)) $$
exit $status
APP
  chmod +x "$T/app/writes-at-exit"
}

# Reductions through $launcher (and the words before xreduce's, as
# salloc) of apps that write into HOME as their tests are stopped: the
# recorded xterm session with bash's history on, and the demo with
# writes-at-exit, without bubblewrap; each ends well and leaves nothing.
# bash kills its xterm at its second prompt (PROMPT_COMMAND, through
# --setenv): any Return crashes the app, bash writes its history as the
# terminal goes, and the reduction is ten tests. (The session's own
# crash, `kill -SEGV $PPID` typed, takes a test for each of its 16
# characters, and minutes under load, to show the same.)
reduce_writers () {
  marked "$@" "$xreduce" -q --no-report -j 2 -o "$T/xterm.min" --launcher "$launcher" \
    --setenv 'PROMPT_COMMAND=[ -n "$xreduce_seen" ] && kill -SEGV $PPID; xreduce_seen=1' \
    "$src/tests/data/xterm.session" -- xterm -geometry 80x24+10+10 -e bash -i \
    > /dev/null 2> "$T/xterm.err"
  status=$?
  check test "xterm with bash's history: $status" = "xterm with bash's history: 0"
  check nothing_left
  make_writes_at_exit
  marked "$@" "$xreduce" -q --no-report -j 2 --no-isolate -o "$T/writes.min" \
    --launcher "$launcher" "$src/tests/data/demo.session" -- "$T/app/writes-at-exit" \
    "$T/app/xdemo" > /dev/null 2> "$T/writes.err"
  status=$?
  check test "an app writing into HOME after it: $status" = "an app writing into HOME after it: 0"
  check nothing_left
}

# The session in a file without its comments: what two results compare by.
actions_of () { grep -v '^#' "$1"; }

# A TCP port nobody listens on now.
free_port () {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Kills what the test started (by pid), removes $T.
cleanup () {
  for pid in $daemons; do kill "$pid" 2>/dev/null; done
  for pid in $daemons; do
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The reference: the demo reduced here, without a launcher.
reduce_locally () {
  marked "$xreduce" -q --no-report -j 2 -o "$T/local.min" "$src/tests/data/demo.session" \
    -- "$T/app/xdemo" > /dev/null 2> "$T/local.err"
}
