/* exit-status.h — the exit statuses of xrecord, xreplay and xreduce, one
 * enum (the README's table; check-help.sh holds each program's --help to
 * it), and the one shape of their main()s: each step of a main is
 *
 *   static gboolean step (..., int *status);
 *
 * TRUE to go on; FALSE to stop, with *status the exit status (after the
 * step has said why). Only main() returns it. X-free.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  EXIT_STATUS_OK = 0,          /* recorded; passed; reduced */
  EXIT_STATUS_FAILED = 1,      /* xreplay: the app crashed, hung or exited non-zero */
  EXIT_STATUS_USAGE = 2,       /* a bad option or bad input */
  EXIT_STATUS_INFRA = 3,       /* the X server, Xvfb, xreplay, the sandbox failed */
  /* 4, each program's "nothing to work with": */
  EXIT_STATUS_NOTHING_RECORDED = 4, /* xrecord: no window of the app's was mapped */
  EXIT_STATUS_NOT_STARTED = 4, /* all three: the app could not start (no such
                                * program: 4 everywhere, never 2) */
  EXIT_STATUS_NOTHING_TO_REDUCE = 4, /* xreduce: the full session does not fail, or
                                      * the empty one does */
  EXIT_STATUS_UNRESOLVED = 5,  /* xreplay: an action's window never came */
  EXIT_STATUS_SIGNAL = 128,    /* + N: signal N ended the program, in all three
                                * (130 SIGINT, 143 SIGTERM, 129 SIGHUP) */
} ExitStatus;

/* A step's stop: *@status = @code, FALSE. */
static inline gboolean
exit_status_stop (int *status, ExitStatus code)
{
  *status = (int) code;
  return FALSE;
}

G_END_DECLS
