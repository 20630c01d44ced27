#!/bin/sh
# Fuzz the session parser with libFuzzer (clang) under ASan/UBSan for
# SECONDS (default 60), adding new inputs to tests/fuzz/corpus.
# Usage: tests/fuzz/run-fuzz.sh [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${TMPDIR:-/tmp}/xreduce-fuzz
mkdir -p "$out"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$top/sessions" "$top"/sessions/session*.c "$here/fuzz-session.c" \
  $(pkg-config --cflags --libs glib-2.0 gio-2.0 xkbcommon) -o "$out/fuzz-session"
"$out/fuzz-session" -max_total_time="${1:-60}" -max_len=8192 \
  -dict="$here/session.dict" "$here/corpus"
