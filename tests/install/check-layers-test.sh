#!/bin/bash
# check-layers-test.sh CHECK_LAYERS CC...: check-layers.sh finds what it is
# for, on object files made here: two files that call each other, a
# folder that calls up, one that calls across, and an exception listed
# that no longer occurs. TAP.
set -u
check=$1
cc=("${@:2}")
[ ${#cc[@]} -gt 0 ] || cc=(cc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok () { n=$((n + 1)); echo "ok $n $*"; }
not_ok () { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }

# obj FOLDER FILE CODE: BUILD/FOLDER/libFOLDER.a.p/FILE.c.o from CODE.
obj () {
  mkdir -p "$tmp/build/$1/lib$1.a.p"
  printf '%s\n' "$3" > "$tmp/$2.c"
  "${cc[@]}" -c -o "$tmp/build/$1/lib$1.a.p/$2.c.o" "$tmp/$2.c"
}
obj sessions a 'void b (void); void a (void) { b (); }'
obj sessions b 'void a (void); void b (void) { a (); }'
obj sessions c 'void x (void); void c (void) { x (); }'
obj xapp x 'void x (void) {}'
obj proc p 'void c (void); void p (void) { c (); }'
obj recorder r 'void a (void); void r (void) { a (); }'
mkdir -p "$tmp/src/tests/install"

out=$("$check" "$tmp/build" "$tmp/src"); status=$?
[ $status != 0 ] && ok "fails" || not_ok "fails (exit $status)"
grep -q '^not ok .* sessions/a.c and sessions/b.c call each other' <<< "$out" \
  && ok "two files that call each other" || not_ok "two files that call each other: $out"
grep -q '^not ok .* sessions -> xapp calls up or across (sessions/c.c xapp/x.c)' <<< "$out" \
  && ok "a folder that calls up" || not_ok "a folder that calls up: $out"
grep -q '^not ok .* proc -> sessions calls up or across' <<< "$out" \
  && ok "a folder that calls across" || not_ok "a folder that calls across: $out"
grep -q '^ok .* recorder -> sessions' <<< "$out" \
  && ok "a folder that calls down" || not_ok "a folder that calls down: $out"

printf '# why\nsessions/a.c sessions/b.c\nsessions -> xapp\nproc -> sessions\nsessions/b.c sessions/c.c\n' \
  > "$tmp/src/tests/install/check-layers.allow"
out=$("$check" "$tmp/build" "$tmp/src"); status=$?
[ $status != 0 ] && ok "a stale exception fails" || not_ok "a stale exception fails (exit $status)"
grep -q '^not ok .* no longer occurs.*sessions/b.c sessions/c.c' <<< "$out" \
  && ok "the stale exception is named" || not_ok "the stale exception is named: $out"
[ "$(grep -c '^not ok' <<< "$out")" = 1 ] && ok "listed exceptions pass" || not_ok "listed exceptions pass: $out"

sed -i '$d' "$tmp/src/tests/install/check-layers.allow"
"$check" "$tmp/build" "$tmp/src" > /dev/null && ok "passes with every exception listed" \
  || not_ok "passes with every exception listed"
"$check" "$tmp/nothing" "$tmp/src" > /dev/null && not_ok "no objects fails" || ok "no objects fails"

echo "1..$n"
[ $fails = 0 ]
