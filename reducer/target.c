/* target.c — the failure being reduced (see target.h). */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "target.h"
#include "reduce-options.h"

gboolean
target_decide (Target *target, const Session *session, const char *session_path,
               int signal, GError **error)
{
  SessionOutcome recorded = session_get_outcome (session);

  if (target->by_test)
    return TRUE;
  if (signal > 0)
    {
      target->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_CRASHED, .signal = signal };
      return TRUE;
    }
  if (recorded.kind == SESSION_OUTCOME_LOST && target->stderr_match != NULL)
    {
      /* A wrong result, saved on demand: only stderr decides. */
      target->outcome.kind = SESSION_OUTCOME_NONE;
      return TRUE;
    }
  if (session_outcome_is_failure (recorded))
    {
      target->outcome = recorded;
      return TRUE;
    }
  if (target->stderr_match != NULL)
    {
      target->outcome.kind = SESSION_OUTCOME_NONE;
      return TRUE;
    }
  g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
               "%s records no failure (outcome: %s): say what to reduce for with "
               "--signal, --stderr-match or --test", session_path,
               recorded.kind == SESSION_OUTCOME_UNKNOWN ? "not recorded" : "none");
  return FALSE;
}

gboolean
target_is_unknown (const Target *target)
{
  return !target->by_test && target->outcome.kind == SESSION_OUTCOME_LOST;
}

gboolean
target_learn (Target *target, const RunResult *result)
{
  SessionOutcome seen = verdict_to_session_outcome (&result->replay.verdict);

  if (!target_is_unknown (target) || !session_outcome_is_failure (seen))
    return FALSE;
  target->outcome = seen;
  return TRUE;
}

void
target_clear (Target *target)
{
  g_clear_pointer (&target->reference_frames, g_strfreev);
}

static gboolean
frames_match (char **frames, char **reference, guint n)
{
  if (frames == NULL || reference == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (reference[i] == NULL)
        return frames[i] == NULL || i > 0;
      if (frames[i] == NULL || !g_str_equal (frames[i], reference[i]))
        return FALSE;
    }
  return TRUE;
}

gboolean
target_still_fails (const RunResult *result, gpointer data)
{
  const Target *target = data;
  const Verdict *verdict = &result->replay.verdict;

  if (target->by_test)
    return verdict->kind == VERDICT_EXITED && verdict->exit_status == 0;
  if (target->stderr_match != NULL && !result->replay.stderr_matched)
    return FALSE;
  switch (target->outcome.kind)
    {
    case SESSION_OUTCOME_CRASHED:
      if (verdict->kind != VERDICT_CRASHED || verdict->signal != target->outcome.signal)
        return FALSE;
      break;
    case SESSION_OUTCOME_EXITED:
      if (verdict->kind != VERDICT_EXITED || verdict->exit_status != target->outcome.status)
        return FALSE;
      break;
    case SESSION_OUTCOME_HUNG:
      if (verdict->kind != VERDICT_HUNG)
        return FALSE;
      break;
    case SESSION_OUTCOME_LOST:
      /* Not learnt yet: any failure. */
      if (!session_outcome_is_failure (verdict_to_session_outcome (verdict)))
        return FALSE;
      break;
    case SESSION_OUTCOME_UNKNOWN:
    case SESSION_OUTCOME_NONE:
    default:
      /* Only --stderr-match decides, on a run that did what the session says. */
      if (verdict->kind == VERDICT_UNRESOLVED || verdict->kind == VERDICT_COULD_NOT_START)
        return FALSE;
      break;
    }
  if (target->same_crash && target->reference_frames != NULL
      && !frames_match (result->replay.crash.frames, target->reference_frames, target->same_crash_frames))
    return FALSE;
  return TRUE;
}

char *
target_describe_result (const RunResult *result)
{
  if (result->by_test && result->replay.verdict.kind == VERDICT_EXITED)
    return result->replay.verdict.exit_status == 0
             ? g_strdup ("the --test command said it still fails (exit 0)")
             : g_strdup_printf ("the --test command said it passes (exit %d)",
                                result->replay.verdict.exit_status);
  if (result->by_test)
    {
      g_autofree char *words = verdict_describe (&result->replay.verdict);
      return g_strdup_printf ("the --test command %s", words);
    }
  if (result->replay.verdict.kind == VERDICT_UNRESOLVED)
    return g_strdup_printf ("could not be replayed as recorded (%s)",
                            result->replay.verdict.detail != NULL ? result->replay.verdict.detail
                                                           : "unresolved");
  return verdict_describe (&result->replay.verdict);
}

char *
target_describe (const Target *target)
{
  g_autofree char *what = NULL;

  if (target->by_test)
    return g_strdup ("the --test command exits 0");
  if (target->outcome.kind == SESSION_OUTCOME_LOST)
    return g_strdup ("the app fails (crashes, exits with a status other than 0 or hangs)");
  what = target->outcome.kind == SESSION_OUTCOME_NONE
           || target->outcome.kind == SESSION_OUTCOME_UNKNOWN
           ? g_strdup ("the app") : session_outcome_describe (target->outcome);
  return g_strdup_printf ("%s%s%s%s", what,
                          target->stderr_match != NULL ? " and stderr matches /" : "",
                          target->stderr_match != NULL ? target->stderr_match : "",
                          target->stderr_match != NULL ? "/" : "");
}
