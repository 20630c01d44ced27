#!/bin/bash
# check-layers.sh BUILD_ROOT SOURCE_ROOT: the layering of the code, from the
# object files (nm), as HACKING.md's Architecture section draws it. TAP.
#
# 1. No two .c files call each other both ways: of two files, one stands on
#    the other (an object file's undefined symbol that another one defines
#    is a call, or a use of its data).
# 2. No folder calls up, nor across to a sibling: the floors are
#      0  output/ proc/         (X-free, each on its own)
#      1  sessions/ xapp/       (the session, on output/ and proc/'s signal names;
#                               the X layer, on proc/)
#      2  replay-interface/     (the replay options, the verdict; on sessions/, proc/)
#      3  recorder/ replayer/ reducer/   (one program each)
#    and a folder uses only folders on floors below its own. main.c of
#    each program counts as its folder's.
#
# Known exceptions are listed, with the reason, in check-layers.allow
# beside this script ("a.c b.c" for a pair, "folder -> folder" for a
# dependency): they are reported as TODO, not failures, and an exception
# that no longer occurs fails (so that the list does not rot).
set -u
build=$1
src=$2
allow=$src/tests/install/check-layers.allow
export LC_ALL=C

declare -A floor=([output]=0 [proc]=0 [sessions]=1 [xapp]=1 [replay-interface]=2
                  [recorder]=3 [replayer]=3 [reducer]=3)

# "folder/file.c SYMBOL" for every defined (D) and undefined (U) global
# symbol of the production objects.
defs=$(mktemp) uses=$(mktemp)
trap 'rm -f "$defs" "$uses"' EXIT
objs=()
for folder in "${!floor[@]}"; do
  for obj in "$build/$folder"/*.p/*.c.o; do
    [ -e "$obj" ] && objs+=("$obj")
  done
done
# nm -A: "BUILD/folder/lib.a.p/file.c.o:ADDRESS TYPE symbol" (no address
# for an undefined one): "folder/file.c symbol".
name_file='{ o = $1; sub(/:[^:]*$/, "", o); n = split(o, p, "/"); f = p[n - 2] "/" p[n]; sub(/\.o$/, "", f) }'
if [ ${#objs[@]} -gt 0 ]; then
  nm -A -g --defined-only "${objs[@]}" | awk "$name_file"' $3 != "" && $3 != "main" { print f, $3 }' > "$defs"
  nm -A -g --undefined-only "${objs[@]}" | awk "$name_file"' { print f, $3 }' > "$uses"
fi

# "user.c definer.c" for every call between two files.
edges=$(awk 'NR == FNR { def[$2] = $1; next }
             ($2 in def) && def[$2] != $1 { print $1, def[$2] }' "$defs" "$uses" | sort -u)

# "a.c calls f, g of b.c"
calls () {
  echo "$1 calls $(awk -v u="$1" -v d="$2" 'NR == FNR { if ($1 == d) def[$2] = 1; next }
    $1 == u && ($2 in def) { print $2 }' "$defs" "$uses" | sort -u | tr '\n' ' ' | sed 's/ $//') of $2"
}

allowed () {
  [ -f "$allow" ] && grep -v '^#' "$allow" | grep -qxF -- "$1"
}

n=0
fails=0
used_allow=()
result () {   # result OK|FAIL|TODO TEXT
  n=$((n + 1))
  case $1 in
    OK) echo "ok $n $2" ;;
    TODO) echo "ok $n $2 (a known exception, see check-layers.allow)" ;;
    *) echo "not ok $n $2"; fails=$((fails + 1)) ;;
  esac
}

[ -s "$defs" ] || { echo "1..1"; echo "not ok 1 no object files under $build"; exit 1; }

# 1. Pairs of files that call each other.
pairs=$(echo "$edges" | awk '{ e[$1 " " $2] = 1 }
  END { for (k in e) { split(k, p, " "); if (p[1] < p[2] && ((p[2] " " p[1]) in e)) print k } }' | sort)
while read -r a b; do
  [ -n "$a" ] || continue
  pair="$a $b"
  if allowed "$pair"; then
    used_allow+=("$pair")
    result TODO "$a and $b call each other"
  else
    result FAIL "$a and $b call each other ($(calls "$a" "$b"); $(calls "$b" "$a"))"
  fi
done <<< "$pairs"

# 2. Folders that call up or across.
deps=$(echo "$edges" | awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1] }' | sort -u)
while read -r from to; do
  [ -n "$from" ] || continue
  if [ "${floor[$to]}" -lt "${floor[$from]}" ]; then
    result OK "$from -> $to (floor ${floor[$from]} on floor ${floor[$to]})"
  elif allowed "$from -> $to"; then
    used_allow+=("$from -> $to")
    result TODO "$from -> $to calls up or across"
  else
    what=$(echo "$edges" | awk -v f="$from/" -v t="$to/" 'index($1, f) == 1 && index($2, t) == 1' | tr '\n' ',')
    result FAIL "$from -> $to calls up or across (${what%,})"
  fi
done <<< "$deps"

# 3. Every exception still occurs.
if [ -f "$allow" ]; then
  while read -r line; do
    case $line in ''|'#'*) continue ;; esac
    found=0
    for u in "${used_allow[@]}"; do [ "$u" = "$line" ] && found=1; done
    if [ $found = 1 ]; then
      result OK "exception still needed: $line"
    else
      result FAIL "exception no longer occurs, remove it from check-layers.allow: $line"
    fi
  done < "$allow"
fi

echo "1..$n"
[ $fails = 0 ]
