/* verify.c — the verification's replays and their verdict (see verify.h).
 *
 * Start reading at verification_start(); on_full_done() and
 * on_empty_done() count what the replays did, judge() decides once all
 * are in.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "verify.h"
#include "dd.h"
#include "reduce-options.h"
#include "quote.h"
#include "interrupt.h"

#include <unistd.h>

/* The recorded pace's gaps: at most a minute (a session's replay line
 * carries no more), and no faster than a tenth of the recorded speed. */
#define VERIFY_MAX_GAP_CEILING_MS 60000
#define VERIFY_SPEED_FLOOR 0.1

struct Verification
{
  Runner *runner;            /* borrowed */
  const Session *session;    /* borrowed */
  Target *target;            /* borrowed */
  guint verify_runs;
  gboolean quiet;
  gboolean pick_pace;        /* may try the recorded pace */
  gboolean recorded_pace;    /* ... and does */
  guint pace_stage;          /* 0: the app's pace; 1: the recorded gaps, uncapped;
                              * 2: twice as long */
  guint stage_runs[3];       /* full replays at each stage before the current one */
  guint max_gap_ms;          /* the recorded pace's cap (stages 1 and 2) */
  double speed;              /* ... and --speed */
  const ReplaySettings *settings; /* borrowed: the replays' options */

  guint runs;                /* full-session replays queued */
  guint pending;             /* replays queued or running */
  guint fails, max_replayed;
  guint n_started;           /* full replays in which the app started */
  char *empty_seen;          /* what the empty session did, if it failed */
  char *full_seen;           /* what the first full replay did */
  char *full_tail;           /* the end of its stderr */
  char *no_frames;           /* --same-crash: why a failing replay had no frames */
  GError *error;             /* a replay broke, or was interrupted */
  GError *verdict_error;     /* FAILED: why */
  VerificationState state;
  guint confirm, crash_point;
  Session *full;             /* the full session as it replays, made once; owned */
  const char *files_dir;     /* borrowed, or NULL */
  const char *home_dir;      /* borrowed, or NULL: the folder HOME starts as */
  gboolean wm_used;
};

void
verification_set_world (Verification *v, const char *files_dir, const char *home_dir,
                        gboolean wm_used)
{
  v->files_dir = files_dir;
  v->home_dir = home_dir;
  v->wm_used = wm_used;
}

/* "; the recording had what the replays did not: ..." (session-world.h),
 * or "". */
static char *
world_missing (Verification *v)
{
  g_autoptr (GPtrArray) missing = session_world_missing (v->session, v->files_dir, v->home_dir,
                                                         v->wm_used);

  if (missing->len == 0)
    return g_strdup ("");
  g_ptr_array_add (missing, NULL);
  {
    g_autofree char *all = g_strjoinv ("; ", (char **) missing->pdata);
    return g_strdup_printf ("; the recording had what the replays did not: %s", all);
  }
}

/* One of the replays is over: FALSE if it broke (the first error is kept
 * for the verdict). */
static gboolean
count (Verification *v, const GError *error)
{
  v->pending--;
  if (error != NULL && v->error == NULL)
    v->error = g_error_copy (error);
  return error == NULL;
}

static void clear_line (void);

static void
on_empty_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Verification *v = data;

  if (count (v, error) && failed && v->empty_seen == NULL)
    {
      /* Verdicts quote what the session says (a window's title): said on
       * the terminal. */
      g_autofree char *seen = target_describe_result (result);
      v->empty_seen = quote_terminal (seen);
    }
}

static void
on_full_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Verification *v = data;

  if (!count (v, error))
    return;
  if (v->full_seen == NULL)
    {
      g_autofree char *seen = target_describe_result (result);

      v->full_seen = quote_terminal (seen);
      v->full_tail = g_strstrip (g_strdup (result->replay.stderr_text != NULL ? result->replay.stderr_text : ""));
    }
  if (failed && target_is_unknown (v->target) && target_learn (v->target, result))
    {
      /* `outcome unknown`: the first failure seen is the one reduced for;
       * the later replays must show the same. */
      g_autofree char *what = session_outcome_describe (v->target->outcome);

      if (!v->quiet)
        {
          clear_line ();
          g_printerr ("xreduce: the session's outcome is unknown; its replay %s: "
                      "reducing for that\n", what);
        }
    }
  if (failed)
    {
      v->fails++;
      v->max_replayed = MAX (v->max_replayed, result->replay.n_replayed);
      if (v->target->same_crash && v->target->reference_frames == NULL
          && result->replay.crash.frames != NULL)
        v->target->reference_frames = g_steal_pointer (&result->replay.crash.frames);
      else if (v->target->same_crash && v->no_frames == NULL)
        v->no_frames = g_strdup (result->replay.crash.no_frames);
    }
  if (result->replay.verdict.kind != VERDICT_COULD_NOT_START)
    v->n_started++;
}

static void
queue (Verification *v, gboolean with_empty, guint n_full)
{
  guint n_actions = session_get_n_actions (v->session);

  /* One copy of the full session (and one candidate file) for all its
   * replays: a million actions are seconds to copy and write. */
  if (v->full == NULL && n_full > 0)
    {
      g_autofree guint *all = g_new (guint, MAX (n_actions, 1));

      for (guint i = 0; i < n_actions; i++)
        all[i] = i;
      v->full = session_subset_cancellable (v->session, all, n_actions,
                                            proc_interrupt_get_cancellable ());
      if (v->full == NULL)
        {
          /* A signal, or --limit-time: judged as interrupted. */
          if (v->error == NULL)
            v->error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "interrupted");
          return;
        }
    }
  if (with_empty)
    {
      v->pending++;
      runner_start_background (v->runner, session_subset (v->session, NULL, 0),
                               target_still_fails, v->target, on_empty_done, v);
    }
  for (guint i = 0; i < n_full; i++)
    {
      v->pending++;
      v->runs++;
      runner_start_background_shared (v->runner, v->full, target_still_fails, v->target,
                                      on_full_done, v);
    }
}

/* The longest gap between two of the session's actions, in ms. */
static guint64
longest_gap (const Session *session)
{
  g_autoptr (GArray) actions = session_get_actions (session);
  guint64 longest = 0;

  for (guint i = 1; i < actions->len; i++)
    {
      const SessionEvent *a = session_get_event (session, g_array_index (actions, guint, i - 1));
      const SessionEvent *b = session_get_event (session, g_array_index (actions, guint, i));

      longest = MAX (longest, b->time_ms - a->time_ms);
    }
  return longest;
}

/* The next way to replay a full session that never failed: the recorded
 * gaps as they were (not capped by the default --max-gap: a dialog that
 * waits two seconds), then twice as long (a person slower than the one
 * who recorded). A --max-gap or --speed given stays as given. Within the
 * bounds a session's replay line can carry (session-options.c). */
static void
next_pace (Verification *v)
{
  const ReplaySettings *settings = v->settings;
  gboolean gap_given = settings->max_gap_given;
  guint64 longest = longest_gap (v->session);

  v->stage_runs[v->pace_stage] = v->runs;
  v->pace_stage++;
  v->recorded_pace = TRUE;
  v->runs = 0;
  v->speed = settings->speed;
  v->max_gap_ms = gap_given ? settings->max_gap_ms
                            : (guint) CLAMP (longest + 1, settings->max_gap_ms,
                                             (guint64) VERIFY_MAX_GAP_CEILING_MS);
  if (v->pace_stage == 2)
    {
      v->speed = MAX (settings->speed / 2, VERIFY_SPEED_FLOOR);
      if (!gap_given)
        v->max_gap_ms = MIN (2 * v->max_gap_ms, VERIFY_MAX_GAP_CEILING_MS);
    }
  runner_set_recorded_pace (v->runner, gap_given ? 0 : v->max_gap_ms,
                            v->speed != settings->speed ? v->speed : 0);
}

Verification *
verification_start (Runner *runner, const Session *session, Target *target,
                    const ReplaySettings *settings, guint runs, gboolean pick_pace,
                    gboolean quiet)
{
  Verification *v = g_new0 (Verification, 1);

  v->runner = runner;
  v->session = session;
  v->target = target;
  v->verify_runs = MAX (runs, 1);
  v->settings = settings;
  v->speed = settings->speed;
  v->max_gap_ms = settings->max_gap_ms;
  v->quiet = quiet;
  v->pick_pace = pick_pace;
  v->confirm = 1;
  v->crash_point = session_get_n_actions (session);
  queue (v, TRUE, v->verify_runs);
  return v;
}

void
verification_free (Verification *v)
{
  if (v == NULL)
    return;
  g_clear_pointer (&v->full, session_free);
  g_free (v->empty_seen);
  g_free (v->full_seen);
  g_free (v->full_tail);
  g_free (v->no_frames);
  g_clear_error (&v->error);
  g_clear_error (&v->verdict_error);
  g_free (v);
}

static void
clear_line (void)
{
  if (isatty (STDERR_FILENO))
    g_printerr ("\r\033[K");
}

/* A replay's error as the reduction's. */
static void
set_replay_error (const GError *replay, GError **error)
{
  if (g_error_matches (replay, RUNNER_ERROR, RUNNER_ERROR_CANCELLED)
      || g_error_matches (replay, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
  else if (g_error_matches (replay, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED))
    g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY, "%s", replay->message);
  else if (g_error_matches (replay, RUNNER_ERROR, RUNNER_ERROR_USAGE))
    g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", replay->message);
  else
    g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", replay->message);
}

/* Once every queued replay is done: DONE, FAILED, or PENDING again if
 * more runs were queued to measure a flaky failure's rate. */
static VerificationState
judge (Verification *v, GError **error)
{
  const Target *target = v->target;
  guint n_actions = session_get_n_actions (v->session);

  if (v->error != NULL)
    {
      set_replay_error (v->error, error);
      return VERIFICATION_FAILED;
    }
  if (v->empty_seen != NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "the app fails even with no user action at all (%s): nothing to "
                   "reduce; check the command line and the target failure", v->empty_seen);
      return VERIFICATION_FAILED;
    }
  if (v->fails == 0 && v->pick_pace && v->pace_stage < 2)
    {
      /* Timing the app's pace does not keep (a race the user won by
       * being quick, a wait the app does not show)? The recorded gaps,
       * then; then longer ones. */
      next_pace (v);
      if (!v->quiet)
        {
          clear_line ();
          if (v->pace_stage == 1)
            g_printerr ("xreduce: the full session does not fail at the app's pace (it %s): "
                        "trying the recorded pace (gaps up to %u ms)\n", v->full_seen,
                        v->max_gap_ms);
          else
            g_printerr ("xreduce: the full session does not fail at the recorded pace either: "
                        "trying gaps twice as long (--speed %g, gaps up to %u ms)\n", v->speed,
                        v->max_gap_ms);
        }
      queue (v, FALSE, v->verify_runs);
      return VERIFICATION_PENDING;
    }
  if (v->fails == 0)
    {
      g_autofree char *want = target_describe (target);
      g_autofree char *paces = v->pace_stage == 2
        ? g_strdup_printf (" (%u at the app's pace, %u at the recorded pace, %u with gaps twice "
                           "as long)", v->stage_runs[0], v->stage_runs[1], v->runs)
        : v->pace_stage == 1
        ? g_strdup_printf (" (%u at the app's pace, %u at the recorded pace)", v->stage_runs[0],
                           v->runs)
        : g_strdup ("");
      g_autofree char *differs = world_missing (v);

      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "the full session does not fail: in %u replays%s the app %s, expected: %s%s%s%s",
                   v->runs + v->stage_runs[0] + v->stage_runs[1], paces, v->full_seen, want,
                   differs,
                   *v->full_tail ? "; its stderr ends with: " : "", v->full_tail);
      return VERIFICATION_FAILED;
    }
  if (v->recorded_pace && v->fails > 0 && v->runs == v->verify_runs && !v->quiet)
    {
      clear_line ();
      g_printerr ("xreduce: the full session fails at the recorded pace only%s: the replays "
                  "keep it, and so does the minimal session (its replay line)\n",
                  v->pace_stage == 2 ? ", with gaps twice as long" : "");
    }
  if (v->fails < v->runs && v->runs == v->verify_runs)
    {
      /* Flaky: measure the failure rate more precisely. */
      queue (v, FALSE, 3 * v->runs);
      return VERIFICATION_PENDING;
    }
  v->confirm = dd_confirmations_for ((double) v->fails / v->runs, 0.95);
  if (v->fails < v->runs && !v->quiet)
    {
      clear_line ();
      g_printerr ("xreduce: the full session fails in %u of %u replays: every candidate "
                  "that passes is replayed up to %u times, for 95%% confidence that a pass is real\n",
                  v->fails, v->runs, v->confirm);
    }
  if (target->same_crash && target->reference_frames == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "--same-crash: no backtrace could be taken of the crash: %s",
                   v->no_frames != NULL ? v->no_frames : "the app's tracer said nothing of it");
      return VERIFICATION_FAILED;
    }
  if (target->same_crash && !v->quiet)
    {
      g_autofree char *frames = g_strjoinv (" < ", target->reference_frames);
      g_printerr ("xreduce: keeping the crash in %s\n", frames);
    }
  /* The crash point: actions replayed when the failure was seen. The
   * replayer stops the moment the app dies, so nothing after it matters. */
  v->crash_point = (v->max_replayed > 0 && v->max_replayed < n_actions
                    && target->outcome.kind == SESSION_OUTCOME_CRASHED && !target->by_test)
                     ? v->max_replayed : n_actions;
  return VERIFICATION_DONE;
}

VerificationState
verification_poll (Verification *v, GError **error)
{
  if (v->state == VERIFICATION_PENDING && v->pending == 0)
    v->state = judge (v, &v->verdict_error);
  if (v->state == VERIFICATION_FAILED && error != NULL)
    *error = g_error_copy (v->verdict_error);
  return v->state;
}

/* Runs the background tests until the verdict is in, or (@first_failure)
 * until a replay has seen the full session fail. */
static gboolean
wait_until (Verification *v, gboolean first_failure, gboolean (*enough) (gpointer data),
            gpointer data, GError **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;

      switch (verification_poll (v, error))
        {
        case VERIFICATION_DONE:
          return TRUE;
        case VERIFICATION_FAILED:
          return FALSE;
        case VERIFICATION_PENDING:
        default:
          break;
        }
      if (first_failure && (v->fails > 0 || (enough != NULL && enough (data))))
        return TRUE;
      if (!(first_failure ? runner_step_background (v->runner, &local)
                          : runner_wait_background (v->runner, &local)))
        {
          g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
          return FALSE;
        }
    }
}

gboolean
verification_wait (Verification *v, GError **error)
{
  return wait_until (v, FALSE, NULL, NULL, error);
}

gboolean
verification_wait_failure (Verification *v, GError **error)
{
  return wait_until (v, TRUE, NULL, NULL, error);
}

gboolean
verification_wait_failure_or (Verification *v, gboolean (*enough) (gpointer data),
                              gpointer data, GError **error)
{
  return wait_until (v, TRUE, enough, data, error);
}

guint
verification_get_runs (const Verification *v)
{
  return v->runs;
}

guint
verification_get_fails (const Verification *v)
{
  return v->fails;
}

guint
verification_get_confirm (const Verification *v)
{
  return v->confirm;
}

guint
verification_get_crash_point (const Verification *v)
{
  return v->crash_point;
}

gboolean
verification_get_recorded_pace (const Verification *v)
{
  return v->recorded_pace;
}

void
verification_get_pace (const Verification *v, guint *max_gap_ms, double *speed)
{
  *max_gap_ms = v->max_gap_ms;
  *speed = v->speed;
}

guint
verification_get_n_started (const Verification *v)
{
  return v->n_started;
}
