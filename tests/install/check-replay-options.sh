#!/bin/bash
# check-replay-options.sh BUILD_ROOT: xreduce takes every option of
# xreplay's that says how a replay runs, and passes it on. The options
# come from `xreplay --help` (all of them, not the shared group's list);
# the few that only mean something to one replay of xreplay's own (where
# it prints, a display to watch, a report folder) are named below with the
# reason. For each of the others, with a value made from its metavariable
# (MS, F, N, DIR, ...), xreduce runs with that option alone through
# `--launcher env` against a stand-in xreplay (XREPLAY) that writes down
# its arguments and says "crashed": the option must reach every replay
# with its value. No display, no app. TAP.
set -u
build=$1
xreplay=$build/replayer/xreplay
xreduce=$build/reducer/xreduce
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export LC_ALL=C.UTF-8
n=0
fails=0
ok () { n=$((n + 1)); echo "ok $n $*"; }
not_ok () { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }

# xreplay's own, with why xreduce does not pass them on.
declare -A own=(
  [--help]="help" [--help-all]="help" [--help-replay]="help" [--version]="xreduce's own"
  [--display]="xreduce runs every replay on a server of its own"
  [--json]="xreduce always asks for JSON; its own --json prints its result"
  [--quiet]="xreduce always asks for it; its own -q hides its progress line"
  [--verbose]="its own -v says what every test does"
  [--report]="one folder per replay; xreduce writes OUT.report itself"
  [--backtrace]="xreduce asks for it with --same-crash"
  [--list]="prints, does not replay" [--list-actions]="prints, does not replay"
  [--export]="prints, does not replay"
  [--run-recorded-command]="xreduce has its own: the command is chosen once, by xreduce"
)

# A session with one action, and a stand-in xreplay: it notes its
# arguments, reads its framed session (xreduce --launcher sends it so)
# and says the app crashed, whatever it is given.
cat > "$T/one.session" <<'EOF'
xreduce-session 1
screen 640x480
outcome crashed SIGSEGV
10 KeyPress keysym=a keycode=38 state=0
20 KeyRelease keysym=a keycode=38 state=0
EOF
mkdir "$T/home"
cat > "$T/fake-xreplay" <<'EOF'
#!/bin/bash
printf '%s\n' "$@" > "$FAKE_LOG.$$"
read -r _ len || exit 3
head -c "$len" > /dev/null
echo '{"outcome": "crashed", "signal": "SIGSEGV", "signal_number": 11, "exit_status": null, "detail": null, "actions": 2, "actions_replayed": 2}'
exit 1
EOF
chmod +x "$T/fake-xreplay"

# Every long option xreplay's --help-all lists, and its metavariable.
options=$("$xreplay" --help-all | grep -oE '^  (-[a-zA-Z?], )?--[a-z-]+(=[^ ]+)?' \
          | sed -E 's/^  (-., )?//')
count=$(printf '%s\n' "$options" | grep -c .)
echo "1..$((count + 1))"
if [ "$count" -ge 20 ]; then ok "xreplay --help-all lists $count options"
else not_ok "xreplay --help-all lists only $count options"; fi

value_for () {
  case $1 in
    MS) echo 800 ;;
    F) echo 2 ;;
    N) echo 5000 ;;
    MIB) echo 10 ;;
    WxH) echo 4000x4000 ;;
    DIR) echo "$T/home" ;;
    CMD) echo true ;;
    NAME) echo XREDUCE_TEST_VAR ;;
    NAME=VALUE) echo XREDUCE_TEST_VAR=1 ;;
    'app|recorded') echo recorded ;;
    'auto|require') echo auto ;;
    REGEX) echo 'Segmentation' ;;
    *) return 1 ;;
  esac
}

while read -r spec; do
  name=${spec%%=*}
  meta=
  [ "$name" != "$spec" ] && meta=${spec#*=}
  if [ -n "${own[$name]:-}" ]; then
    ok "$name: xreplay's own (${own[$name]})"
    continue
  fi
  args=("$name")
  if [ -n "$meta" ]; then
    if ! value=$(value_for "$meta"); then
      not_ok "$name: no value for its metavariable $meta here: add one"
      continue
    fi
    args+=("$value")
  fi
  rm -f "$T"/log.*
  FAKE_LOG=$T/log XREPLAY=$T/fake-xreplay "$xreduce" --launcher env -q --no-report \
    "${args[@]}" -o "$T/out.session" "$T/one.session" -- /bin/true \
    > "$T/out" 2> "$T/err"
  status=$?
  if grep -q "Unknown option" "$T/err"; then
    not_ok "$name: xreduce does not take it: $(head -1 "$T/err")"
    continue
  fi
  logs=("$T"/log.*)
  if [ ! -e "${logs[0]}" ]; then
    not_ok "$name: no replay ran (xreduce exit $status: $(head -1 "$T/err"))"
    continue
  fi
  missing=0
  for log in "${logs[@]}"; do
    if [ -z "$meta" ]; then
      grep -qxF -- "$name" "$log" || missing=$((missing + 1))
    else
      want=$value
      [ "$meta" = DIR ] && want=$(cd "$value" && pwd -P)
      grep -A1 -xF -- "$name" "$log" | tail -1 | grep -qxF -- "$want" \
        || missing=$((missing + 1))
    fi
  done
  if [ "$missing" -eq 0 ]; then
    ok "$name${meta:+ $value}: xreduce passed it on to all ${#logs[@]} replays"
  else
    not_ok "$name${meta:+ $value}: missing from $missing of ${#logs[@]} replays' arguments"
  fi
done <<< "$options"
[ "$fails" -eq 0 ]
