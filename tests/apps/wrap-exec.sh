#!/bin/sh
# wrap-exec.sh APP [ARGS...] — a launcher script as distributions ship
# them (/usr/bin/chromium, firefox's): it sets things up and execs the
# real program. For the crash report tests (tests/x11/test-crashes.c):
# the report of a crash of APP run through it is APP's.
MALLOC_CHECK_=0
export MALLOC_CHECK_
exec "$@"
