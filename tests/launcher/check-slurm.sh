#!/bin/sh
# check-slurm.sh BUILD_ROOT SOURCE_ROOT: xreduce through a real Slurm.
#
# Starts a one-node Slurm on localhost from Debian's packages (munged,
# slurmctld, slurmd; scripts/bootstrap.sh installs them) in a temporary
# state directory, on free ports, and stops it at the end. Then:
#   - `salloc -n 4 xreduce --launcher 'srun -n1 --exact --quiet'` on the
#     demo gives the minimal session a reduction here gives; tests were
#     stopped early on the way (speculative ones the search no longer
#     needed), and nothing is left: no srun, job or step (squeue empty),
#     no xreplay, Xvfb, app or sandbox folder;
#   - the same after SIGINT of xreduce while a step runs (exit 130);
#   - scripts/xreduce-array.sh on three sessions (the demo, its minimal
#     session, the demo's abort variant) as a job array: a summary with
#     two crashes.
# The node says it has 4 CPUs (config_overrides: whatever the machine
# has), so that 4 tests run at once and the search has speculative ones
# to stop. The array's sessions run their recorded command "xdemo" from
# the build tree (a program found in PATH in a hidden folder such as /tmp
# is not bound into the sandbox: a known limit). Skipped, with the reason,
# where the daemons are missing or cannot run.
# TAP.
set -u
build=$1
src=$2
. "$src/tests/launcher/lib.sh"

for p in munged slurmctld slurmd salloc srun sbatch squeue sinfo python3; do
  if ! command -v "$p" > /dev/null && [ ! -x "/usr/sbin/$p" ]; then
    echo "1..0 # SKIP $p is not installed (scripts/bootstrap.sh installs munge, slurmctld, slurmd, slurm-client)"
    exit 0
  fi
done
PATH=$PATH:/usr/sbin

# ---- a one-node Slurm of our own ----
S=$T/slurm
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log"
chmod 700 "$S/munge"
head -c 1024 /dev/urandom > "$S/munge/key"
chmod 600 "$S/munge/key"
munged -F -f --socket="$S/munge/sock" --key-file="$S/munge/key" \
  --log-file="$S/log/munged.log" --pid-file="$S/munge/pid" --seed-file="$S/munge/seed" \
  > "$S/log/munged.out" 2>&1 &
daemons="$daemons $!"
user=$(id -un)
cat > "$S/slurm.conf" <<CONF
ClusterName=xreducetest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
InactiveLimit=0
KillWait=5
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$S/slurm.conf"
i=0
until [ -S "$S/munge/sock" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
slurmctld -D -i > "$S/log/slurmctld.out" 2>&1 &
daemons="$daemons $!"
slurmd -D -N localhost > "$S/log/slurmd.out" 2>&1 &
daemons="$daemons $!"
# Up when the node is idle (the daemons have registered), at most 60 s.
i=0
until [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
if [ "$(sinfo -h -o %T 2>/dev/null)" != idle ]; then
  echo "1..0 # SKIP the test's Slurm did not come up: $(tail -n 3 "$S/log/slurmd.out" "$S/log/slurmctld.out" "$S/log/munged.out" 2>/dev/null | tr '\n' ' ')"
  exit 0
fi

# No job and no step left (the controller hears of a step's end a moment
# after srun returns): TRUE once squeue is empty, at most 30 s.
squeue_empty () {
  i=0
  while [ $i -lt 300 ]; do
    [ -z "$(squeue -h 2>/dev/null; squeue -h -s 2>/dev/null)" ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  { squeue; squeue -s; } | diag
  return 1
}

echo "1..19"
reduce_locally
check test "local: $?" = "local: 0"

launcher='srun -n1 --exact --quiet'
marked salloc -n 4 --quiet "$xreduce" -v --no-report -o "$T/slurm.min" --launcher "$launcher" \
  "$src/tests/data/demo.session" -- "$T/app/xdemo" > "$T/slurm.out" 2> "$T/slurm.err"
status=$?
check test "srun: $status" = "srun: 0"
actions_of "$T/local.min" > "$T/local.actions"
actions_of "$T/slurm.min" > "$T/slurm.actions" 2>/dev/null
check cmp -s "$T/local.actions" "$T/slurm.actions"
# Speculative tests stopped on the way, through the launcher.
# (GLib's debug messages go to stdout.)
stopped=$(cat "$T/slurm.out" "$T/slurm.err" | grep -c 'stopping the test through the launcher')
check test "$stopped" -gt 0
check squeue_empty
check nothing_left
reduce_writers salloc -n 4 --quiet

# SIGINT of xreduce while a step runs: 130, and nothing left. (env
# execs salloc: $! is salloc's pid, xreduce its child.)
env "$MARK" "TMPDIR=$T/tmp" salloc -n 4 --quiet "$xreduce" -v --no-report -o "$T/int.min" --launcher "$launcher" \
  "$src/tests/data/demo.session" -- "$T/app/xdemo" > "$T/int.out" 2> "$T/int.err" &
salloc_pid=$!
i=0
until squeue -h -s -o %i 2>/dev/null | grep -q '^[0-9]*\.[0-9]' || [ $i -ge 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
xreduce_pid=$(pgrep -P $salloc_pid -x xreduce)
check test -n "$xreduce_pid"
kill -INT $xreduce_pid
wait $salloc_pid
status=$?
check test "SIGINT: $status" = "SIGINT: 130"
check squeue_empty
check nothing_left

# Three sessions as a job array: two of the demo's crash, one of another.
mkdir "$T/sessions"
cp "$src/tests/data/demo.session" "$src/tests/data/demo-abort.session" "$T/sessions/"
cp "$T/slurm.min" "$T/sessions/demo-short.session"
env "PATH=$build/tests/apps:$PATH" "$MARK" "TMPDIR=$T/tmp" "$src/scripts/xreduce-array.sh" \
  -x "--run-recorded-command --no-report -j 2" "$T/sessions" "$T/array" \
  > "$T/array.out" 2> "$T/array.err"
status=$?
check test "array: $status" = "array: 0"
groups=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["results"], len(r["groups"]), sorted(g["count"] for g in r["groups"]))' "$T/array/crashes.json" 2>&1)
check test "array: $groups" = "array: 3 2 [1, 2]"
check grep -q '^3 results, 2 distinct crashes\.' "$T/array/crashes.md"
check squeue_empty
check nothing_left

if [ $fails -gt 0 ]; then
  for f in "$T"/*.err "$T"/*.out "$T"/array/*.json "$S"/log/*; do echo "== $f"; tail -n 20 "$f"; done 2>/dev/null | diag
fi
[ $fails -eq 0 ]
