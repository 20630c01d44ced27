#!/bin/sh
# Fuzz with libFuzzer (clang) under ASan/UBSan for SECONDS (default 60),
# adding new inputs to the target's corpus:
#   session: the parser (fuzz-session.c, corpus/);
#   export: what a parsed session becomes, with the injection oracle
#           (fuzz-export.c, corpus-export/; slower: every input runs the
#           exported script under sh with stub commands).
# Usage: tests/fuzz/run-fuzz.sh [session|export] [SECONDS] [-- libFuzzer options]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
target=${1:-session}
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
case $target in
  session) corpus=$here/corpus ;;
  export) corpus=$here/corpus-export ;;
  *) echo "$0: unknown target '$target' (session or export)" >&2; exit 2 ;;
esac
out=${TMPDIR:-/tmp}/xreduce-fuzz
mkdir -p "$out"
# shellcheck disable=SC2046
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$top/sessions" "$top"/sessions/*.c "$here/fuzz-$target.c" \
  $(pkg-config --cflags --libs glib-2.0 gio-2.0 xkbcommon json-glib-1.0) \
  -o "$out/fuzz-$target"
"$out/fuzz-$target" -max_total_time="$seconds" -max_len=8192 \
  -dict="$here/session.dict" "$@" "$corpus"
