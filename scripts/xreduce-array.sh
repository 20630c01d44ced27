#!/bin/sh
# xreduce-array.sh: reduce a folder of crash sessions as a Slurm job array
# (one xreduce per session, on whatever node Slurm gives each), then group
# the results by crash into one table.
#
#   scripts/xreduce-array.sh [-s 'SBATCH OPTIONS'] [-x 'XREDUCE OPTIONS']
#                            SESSIONS_DIR OUT_DIR [-- APP [ARGS...]]
#
# Every SESSIONS_DIR/*.session and *.log (in C-locale order) is task I of
# `sbatch --array=0-(N-1) --wait`, which runs there
#
#   xreduce --json -q --same-crash [-j 3*SLURM_CPUS_PER_TASK] XREDUCE_OPTIONS
#           -o OUT_DIR/task-I.min SESSION [-- APP ARGS] > OUT_DIR/task-I.json
#
# (without '-- APP', each session's recorded command, as xreduce allows it:
# -x --run-recorded-command runs whatever the sessions say)
# (its log in OUT_DIR/task-I.log; the files are named by the task's number,
# never by a stranger's file name). When all have ended,
# `xreduce --summarize OUT_DIR` writes OUT_DIR/crashes.md (one table: a
# row per crash, same failure and top frames) and OUT_DIR/crashes.json,
# and prints the Markdown. SESSIONS_DIR, OUT_DIR, xreduce (XREDUCE, else
# the one beside this script's build/, else PATH), the app and its files
# must be at the same paths on every node (a shared filesystem: sbatch
# writes its logs there too). Exit status: 0 when the summary is written
# (each result's own verdict is in it), 2 for bad usage, 3 if sbatch
# failed or a task left no result.
set -eu

usage () {
  echo "usage: $0 [-s 'SBATCH OPTIONS'] [-x 'XREDUCE OPTIONS'] SESSIONS_DIR OUT_DIR [-- APP [ARGS...]]" >&2
  exit 2
}

# The task, inside the array: sbatch runs a copy of this script with
# --task, its environment is the submitter's (sbatch --export=ALL).
if [ "${1:-}" = --task ]; then
  shift
  sessions=$1 out=$2
  shift 2
  i=${SLURM_ARRAY_TASK_ID:?not inside a job array}
  n=0
  for session in "$sessions"/*.session "$sessions"/*.log; do
    [ -f "$session" ] || continue
    if [ "$n" -eq "$i" ]; then
      jobs=""
      [ -n "${SLURM_CPUS_PER_TASK:-}" ] && jobs="-j $((3 * SLURM_CPUS_PER_TASK))"
      # The options are the submitter's words, split as given (no globbing).
      set -f
      # shellcheck disable=SC2086
      "$XREDUCE" --json -q --same-crash $jobs ${XREDUCE_ARRAY_OPTIONS:-} \
        -o "$out/task-$i.min" "$session" "$@" > "$out/task-$i.json.partial" || true
      mv "$out/task-$i.json.partial" "$out/task-$i.json"
      exit 0
    fi
    n=$((n + 1))
  done
  echo "xreduce-array: no session number $i in $sessions" >&2
  exit 3
fi

sbatch_options="" xreduce_options=""
while getopts s:x: opt; do
  case $opt in
    s) sbatch_options=$OPTARG ;;
    x) xreduce_options=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { [ $# -ge 4 ] && [ "$3" = -- ]; } || usage
sessions=$(cd "$1" && pwd) || usage
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${XREDUCE:-}" ]; then
  XREDUCE=$here/../build/reducer/xreduce
  [ -x "$XREDUCE" ] || XREDUCE=$(command -v xreduce) || { echo "xreduce-array: no xreduce" >&2; exit 3; }
fi
XREDUCE=$(cd "$(dirname "$XREDUCE")" && pwd)/$(basename "$XREDUCE")
export XREDUCE
export LC_ALL=C
n=0
for session in "$sessions"/*.session "$sessions"/*.log; do
  [ -f "$session" ] && n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
  echo "xreduce-array: no *.session or *.log in $sessions" >&2
  exit 2
fi
# The app's path as the nodes see it: absolute ("--" stays first).
if [ $# -gt 0 ]; then
  shift
  case $1 in
    */*) app=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift; set -- "$app" "$@" ;;
  esac
  set -- -- "$@"
fi
rm -f "$out"/task-*.json "$out"/task-*.log
XREDUCE_ARRAY_OPTIONS=$xreduce_options
export XREDUCE_ARRAY_OPTIONS
echo "xreduce-array: $n sessions, a task each" >&2
# shellcheck disable=SC2086
sbatch --array=0-$((n - 1)) --wait --quiet --job-name=xreduce-array \
  --output="$out/task-%a.log" $sbatch_options \
  "$here/xreduce-array.sh" --task "$sessions" "$out" "$@" || true
missing=0
i=0
while [ "$i" -lt "$n" ]; do
  [ -f "$out/task-$i.json" ] || { echo "xreduce-array: task $i left no result (see $out/task-$i.log)" >&2; missing=$((missing + 1)); }
  i=$((i + 1))
done
"$XREDUCE" --summarize --json "$out"/task-*.json > "$out/crashes.json"
"$XREDUCE" --summarize "$out"/task-*.json > "$out/crashes.md"
cat "$out/crashes.md"
[ "$missing" -eq 0 ] || exit 3
