#!/bin/bash
# check-help.sh BUILD_ROOT SOURCE_ROOT: one help style for the three
# programs: --help exits 0, every line within 80 columns, exit statuses
# and examples in it; the same short options for the same things; the exit
# statuses --help documents are the README's table's, and the ones the
# programs give for a bad option, a missing file and a missing DISPLAY
# are documented as such. TAP.
set -u
build=$1
src=$2
export LC_ALL=C.UTF-8
n=0
fails=0
ok () { n=$((n + 1)); echo "ok $n $*"; }
not_ok () { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
check () { if "$@"; then ok "$*"; else not_ok "$*"; fi; }

declare -A path=([xrecord]=recorder/xrecord [xreplay]=replayer/xreplay [xreduce]=reducer/xreduce)

# The codes 0-5 an "Exit status:" section lists, one a line ("  2  ...").
help_codes () {
  sed -n '/^Exit status:/,/^$/p' | grep -oE '^  [0-9]+ ' | tr -d ' ' | sort -n | tr '\n' ' '
}
# The codes the README's exit-status table fills for program $1.
readme_codes () {
  grep -E "^\| \`$1\` \|" "$src/README.md" | awk -F'|' '{
    out = ""
    for (i = 3; i <= 7; i++) { c = $i; gsub(/^ +| +$/, "", c); if (c != "") out = out (i - 3) " " }
    print out }'
}
# Prints the line of "Exit status:" for code $2 in the help of $1.
help_line () {
  sed -n '/^Exit status:/,/^$/p' | awk -v code="$1" '
    $1 == code { on = 1; print; next } on && /^      / { print; next } { on = 0 }'
}

echo "1..41"
for p in xrecord xreplay xreduce; do
  exe=$build/${path[$p]}
  help=$("$exe" --help); status=$?
  check test "$status" -eq 0
  long=0
  while IFS= read -r line; do [ ${#line} -le 80 ] || long=$((long + 1)); done <<< "$help"
  check test "$p: $long lines over 80 columns" = "$p: 0 lines over 80 columns"
  check grep -q '^Exit status:' <<< "$help"
  check grep -q '^Examples\?:' <<< "$help"
  check grep -qE -- '--version' <<< "$help"
  # Codes 0-4, the README table's columns (5, 128+N and 130 it says apart).
  codes=$(help_codes <<< "$help" | tr ' ' '\n' | awk '$1 != "" && $1 <= 4' | tr '\n' ' ')
  check test "$p help: $codes" = "$p help: $(readme_codes "$p")"
  # A bad option is exit 2, documented as usage.
  "$exe" --no-such-option >/dev/null 2>&1; status=$?
  check test "$p --no-such-option: $status" = "$p --no-such-option: 2"
  check sh -c "printf '%s\n' \"\$1\" | grep -q '^  2 .*usage'" sh "$(help_line 2 <<< "$help")"
done

# The same short options for the same things.
check sh -c "'$build/replayer/xreplay' --help | grep -q -- '-d, --display'"
check sh -c "'$build/recorder/xrecord' --help | grep -q -- '-d, --display'"
check sh -c "'$build/reducer/xreduce' --help | grep -q -- '-v, --verbose'"
check sh -c "'$build/replayer/xreplay' --help | grep -q -- '-v, --verbose'"
check sh -c "'$build/reducer/xreduce' --help | grep -q -- '--json'"
check sh -c "'$build/reducer/xreduce' --help | grep -q -- '-q, --quiet'"

# What they do is what the help says: a missing session is usage (2),
# xrecord without DISPLAY is usage (2) and its help says so.
"$build/replayer/xreplay" /nonexistent/session -- true >/dev/null 2>&1; status=$?
check test "xreplay missing session: $status" = "xreplay missing session: 2"
"$build/reducer/xreduce" /nonexistent/session -- true >/dev/null 2>&1; status=$?
check test "xreduce missing session: $status" = "xreduce missing session: 2"
env -u DISPLAY "$build/recorder/xrecord" -o /dev/null -- true >/dev/null 2>&1; status=$?
check test "xrecord without DISPLAY: $status" = "xrecord without DISPLAY: 2"
check sh -c "'$build/recorder/xrecord' --help | sed -n '/^Exit status:/,\$p' | grep -A1 '^  2 ' | grep -q DISPLAY"

# One cause, one status in all three: an app that is no program is 4
# (xreplay and xreduce find it so when it does not start; xrecord before
# anything starts), and every --help says so under 4; a signal is 128+N.
out=$(mktemp -d "${TMPDIR:-/tmp}/check-help-XXXXXX")
"$build/recorder/xrecord" --headless -o "$out/s.log" -- /nonexistent/app >/dev/null 2>&1; status=$?
rm -rf "$out"
check test "xrecord missing app: $status" = "xrecord missing app: 4"
for p in xrecord xreplay xreduce; do
  check sh -c "'$build/${path[$p]}' --help | sed -n '/^Exit status:/,\$p' | awk '\$1 == 4 { on = 1 } \$1 == 5 || /^  128/ { on = 0 } on' | tr -s '\n ' '  ' | grep -q 'no such program'"
  check sh -c "'$build/${path[$p]}' --help | sed -n '/^Exit status:/,\$p' | grep -A1 '^  128+N' | tr -s '\n ' '  ' | grep -q '143 SIGTERM'"
done
[ "$fails" -eq 0 ]
