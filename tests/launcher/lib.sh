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
