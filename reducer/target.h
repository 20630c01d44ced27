/* target.h — the failure being reduced, and whether a run shows it.
 *
 * The target comes from the options (--signal, --stderr-match, --test,
 * --same-crash) and the session's recorded outcome; target_still_fails()
 * is the runner's predicate: it compares typed verdicts, never strings.
 */
#pragma once

#include <glib.h>
#include "runner.h"
#include "session.h"

G_BEGIN_DECLS

typedef struct
{
  SessionOutcome outcome;    /* what "still fails" means (kind NONE: only stderr decides;
                              * LOST, the session's `outcome unknown`: any failure, until
                              * target_learn() takes the one a full replay showed) */
  gboolean by_test;          /* --test: the command's exit status 0 decides */
  const char *stderr_match;  /* --stderr-match REGEX, or NULL (borrowed) */
  gboolean same_crash;       /* --same-crash: also the top frames */
  guint same_crash_frames;
  char **reference_frames;   /* owned: the original crash's top frames, once known */
} Target;

/* From @signal (> 0: --signal), the other options and @session's
 * recorded outcome; FALSE with a usage message when nothing says what
 * to reduce for. */
gboolean target_decide (Target *target, const Session *session, const char *session_path,
                        int signal, GError **error);
void target_clear (Target *target);

/* The session says `outcome unknown` (xrecord --all saved it when the app
 * vanished): the failure is still to be learnt from a full replay. */
gboolean target_is_unknown (const Target *target);
/* A full replay failed (by target_still_fails) while the target is
 * unknown: it becomes what the replay showed; TRUE if it changed. */
gboolean target_learn (Target *target, const RunResult *result);

/* A RunnerPredicate: does @result show the target failure? */
gboolean target_still_fails (const RunResult *result, gpointer target);

/* "crashed with SIGSEGV and stderr matches /x/", "the --test command exits 0". */
char *target_describe (const Target *target);
/* What one run did, in words: "crashed with SIGSEGV", "the --test command
 * said it passes (exit 1)", "could not be replayed as recorded (action 5
 * ...: its window 1 (class X) did not appear within 500 ms)". It may quote
 * the session (a window's title): quote it for where it goes. */
char *target_describe_result (const RunResult *result);

G_END_DECLS
