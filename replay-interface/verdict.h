/* verdict.h — what became of the app in one run, typed: the verdict
 * xreplay prints (as JSON, with json-glib) and the reducer reads back.
 * X-free. Its words ("crashed with SIGSEGV") and its JSON members are
 * written here once.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "session.h"

G_BEGIN_DECLS

typedef enum
{
  VERDICT_PASSED,            /* alive (and answering pings) at the end */
  VERDICT_CRASHED,           /* killed by a signal */
  VERDICT_EXITED,            /* exited by itself, with exit_status */
  VERDICT_HUNG,              /* did not answer a ping in time */
  VERDICT_COULD_NOT_START,   /* no program, died or no window before its first window */
  VERDICT_UNRESOLVED,        /* the replay could not do what the session says (a window
                              * an action aims at never came): neither pass nor fail */
  VERDICT_INFRA_ERROR,       /* Xvfb, the X connection or the sandbox failed */
} VerdictKind;

/* What xreduce --json says became of the whole reduction: its
 * "verdict" member (xreplay's verdict of one run is VerdictKind's). */
typedef enum
{
  XREDUCE_VERDICT_REDUCED,            /* a minimal session, 1-minimal */
  XREDUCE_VERDICT_STOPPED_EARLY,      /* a smaller session, a limit came first */
  XREDUCE_VERDICT_NOTHING_TO_REDUCE,  /* the full session did not fail */
  XREDUCE_VERDICT_USAGE_ERROR,        /* the command line or the input was refused */
  XREDUCE_VERDICT_INFRA_ERROR,        /* the replays could not run */
  XREDUCE_VERDICT_INTERRUPTED,        /* a signal, or --limit-time before any failure */
} XreduceVerdict;

typedef struct
{
  VerdictKind kind;
  int signal;                /* CRASHED (or died of it before starting), else 0 */
  int exit_status;           /* EXITED (or exited before starting), else -1 */
  char *detail;              /* owned, or NULL: why COULD_NOT_START, UNRESOLVED, INFRA_ERROR */
} Verdict;

/* A verdict of @kind with no signal, no status, no detail. */
void verdict_init (Verdict *verdict, VerdictKind kind);
void verdict_clear (Verdict *verdict);
void verdict_copy (Verdict *dest, const Verdict *src);

/* What a wait status (waitpid's, of the app) says: CRASHED with its
 * signal, or EXITED with its status. The one place a wait status becomes
 * a verdict (xreplay's app, xrecord's app, xreduce's --test oracle).
 * @verdict holds no detail before. */
void verdict_from_wait_status (Verdict *verdict, int wait_status);
/* The outcome a session file records for @verdict: PASSED is NONE,
 * COULD_NOT_START, UNRESOLVED and INFRA_ERROR are UNKNOWN. */
SessionOutcome verdict_to_session_outcome (const Verdict *verdict);

/* "passed", "crashed", "exited", "hung", "could-not-start", "unresolved",
 * "infrastructure-error": the JSON "outcome". */
const char *verdict_kind_to_string (VerdictKind kind);
gboolean verdict_kind_from_string (const char *text, VerdictKind *kind);

/* "reduced", "stopped_early", "nothing_to_reduce", "usage_error",
 * "infra_error", "interrupted": xreduce --json's "verdict", one table. */
const char *xreduce_verdict_to_string (XreduceVerdict verdict);
gboolean xreduce_verdict_from_string (const char *text, XreduceVerdict *verdict);

/* "crashed with SIGSEGV", "exited with status 3", "hung", "passed",
 * "could not start: ...", "unresolved: ...", "infrastructure error: ...".
 * The one place a verdict is put in words (xreplay's words for the app's
 * end come from it); a crash, an exit and a hang in the words of
 * session_outcome_describe(), the session's. */
char *verdict_describe (const Verdict *verdict);

/* Adds the members "outcome", "signal" (name or null), "signal_number",
 * "exit_status", "detail" to the object being built. */
void verdict_to_json (const Verdict *verdict, JsonBuilder *builder);
/* Reads them back; an unknown or missing outcome is an error. */
gboolean verdict_from_json (JsonObject *object, Verdict *verdict, GError **error);

G_END_DECLS
