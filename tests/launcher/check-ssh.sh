#!/bin/sh
# check-ssh.sh BUILD_ROOT SOURCE_ROOT: xreduce --launcher 'ssh ... localhost'
# against an sshd of the test's own (a temporary host key and
# authorized_keys, a free port, stopped at the end): the same minimal
# session as a reduction here, tests stopped on the way, and nothing left
# afterwards (no xreplay, Xvfb, app or sandbox folder where ssh ran them);
# the same after SIGINT of xreduce while remote replays run (exit 130).
# The launcher's own words set the mark and TMPDIR there (ssh passes no
# environment). Skipped, with the reason, where sshd cannot run. TAP.
set -u
build=$1
src=$2
. "$src/tests/launcher/lib.sh"

for p in /usr/sbin/sshd ssh ssh-keygen python3; do
  if ! command -v "$p" > /dev/null; then
    echo "1..0 # SKIP $p is not installed (scripts/bootstrap.sh installs openssh-server)"
    exit 0
  fi
done

K=$T/ssh
mkdir "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$K/user_key"
cp "$K/user_key.pub" "$K/authorized_keys"
chmod 600 "$K/authorized_keys"
port=$(free_port)
# SHLVL=1: the login shell reads no rc file of the machine's (bash reads
# ~/.bashrc under sshd only at the first level): the test is not at the
# mercy of what the user's shell start-up does.
cat > "$K/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $K/host_key
AuthorizedKeysFile $K/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $K/sshd.pid
SetEnv SHLVL=1
CONF
# As root, sshd wants its privilege separation folder (Debian's package
# makes it at boot).
[ "$(id -u)" -ne 0 ] || [ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd
/usr/sbin/sshd -D -e -f "$K/sshd_config" > "$K/sshd.log" 2>&1 &
daemons="$daemons $!"
ssh="ssh -T -i $K/user_key -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR 127.0.0.1"
# Up when a command runs through it, at most 30 s.
i=0
until $ssh true 2>/dev/null || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
if ! $ssh true 2> "$K/ssh.err"; then
  echo "1..0 # SKIP the test's sshd did not let us in: $(tail -n 3 "$K/sshd.log" "$K/ssh.err" | tr '\n' ' ')"
  exit 0
fi
launcher="$ssh env $MARK TMPDIR=$T/tmp PATH=$PATH"
# A sanitizer build's options (the app's SIGSEGV stays a SIGSEGV) go
# along by hand, as everything does through ssh.
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  eval "value=\${$v:-}"
  [ -z "$value" ] || launcher="$launcher $v=$value"
done

echo "1..12"
reduce_locally
check test "local: $?" = "local: 0"

# ssh joins the words for the remote shell: xreduce quotes each (an
# option's value with a quote, a space and $(...) arrives as given, or
# every test fails).
marked "$xreduce" -v --no-report -j 2 -o "$T/ssh.min" --launcher "$launcher" \
  --setenv "XREDUCE_QUOTED=it's \$(a b)" "$src/tests/data/demo.session" -- "$T/app/xdemo" > "$T/ssh.out" 2> "$T/ssh.err"
status=$?
check test "ssh: $status" = "ssh: 0"
actions_of "$T/local.min" > "$T/local.actions"
actions_of "$T/ssh.min" > "$T/ssh.actions" 2>/dev/null
check cmp -s "$T/local.actions" "$T/ssh.actions"
# (GLib's debug messages go to stdout.)
stopped=$(cat "$T/ssh.out" "$T/ssh.err" | grep -c 'stopping the test through the launcher')
check test "$stopped" -gt 0
check nothing_left
reduce_writers

# SIGINT while the remote replays run: 130, nothing left there.
# (env execs xreduce: $! is its pid.)
env "$MARK" "TMPDIR=$T/tmp" "$xreduce" -v --no-report -j 2 -o "$T/int.min" \
  --launcher "$launcher" "$src/tests/data/demo.session" -- "$T/app/xdemo" \
  > "$T/int.out" 2> "$T/int.err" &
xreduce_pid=$!
i=0
until app_runs || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
check app_runs
kill -INT $xreduce_pid
wait $xreduce_pid
status=$?
check test "SIGINT: $status" = "SIGINT: 130"
check nothing_left
if [ $fails -gt 0 ]; then
  for f in "$T"/*.err "$T"/*.out "$K"/sshd.log; do echo "== $f"; tail -n 20 "$f"; done 2>/dev/null | diag
fi
[ $fails -eq 0 ]
