/* reduce.c — the reducer's driver.
 *
 * reduce_run() in order: load the session and decide the target failure
 * (make_predicate); start the workers; verify that the full session fails
 * (several runs, to measure how reliably) and that the empty one does not;
 * drop the actions after the crash point; run dd_reduce() over the
 * gestures, with test_candidates() as the oracle; every improvement is
 * saved atomically to the output file (save_best), so Ctrl-C keeps it.
 * Then the bug-report folder (report_write): the result replayed once by
 * `xreplay --report`, and the reduction's figures appended to its
 * report.md.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce.h"
#include "child.h"
#include "report.h"
#include "runner.h"
#include "session.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xreduce-reduce-error-quark, reduce_error)

typedef struct ReportRun ReportRun;

/* The verification's replays so far (see verification_start). */
typedef struct
{
  guint runs;                /* full-session replays queued */
  guint pending;             /* replays queued or running */
  guint fails, max_replayed, n_full_done;
  guint n_full_started;      /* full replays in which the app started */
  char *empty_seen;          /* what the empty session did, if it failed */
  char *full_seen;           /* what the first full replay did */
  char *full_tail;           /* the end of its stderr */
  GError *error;             /* a replay broke, or was interrupted */
  gboolean judged;           /* verification_judge() said DONE */
} Verification;

/* Internal: the search restarts on new premises (verification_poll); the
 * code is 1 if the crash point cut the best set. */
static GQuark restart_error_quark (void);
G_DEFINE_QUARK (xreduce-restart-quark, restart_error)
#define RESTART_ERROR (restart_error_quark ())

typedef struct
{
  const ReduceOptions *options;
  Session *session;          /* the input, borrowed */
  Runner *runner;
  SessionOutcome target;     /* what "still fails" means (unless --test) */
  char **reference_frames;   /* --same-crash: top frames of the original crash */
  GRegex *stderr_regex;
  char *output_path;
  gint64 start_us;
  gboolean interrupted;
  gboolean timed_out;
  gboolean tty;
  guint n_before;
  guint *best;               /* best failing action set so far */
  guint n_best;
  DdStats last_stats;
  guint n_workers;
  guint64 earlier_tests;     /* tests before this dd_reduce() (suffix passes, restarts) */
  guint64 earlier_cache_hits;
  Verification verification;
  guint crash_point;         /* once judged: actions up to the crash (else all) */
  guint confirm;             /* once judged: runs a pass needs (else 1) */
  gboolean saved;            /* the output file holds a failing session */
  gboolean learn_wait;       /* learn --window-wait from the replays */
  gint64 window_latency_ms;  /* longest window latency seen so far, or -1 */
  guint window_wait_ms;      /* the learned wait in force, or 0 */
  ReportRun *report_run;     /* the report's replay while it runs, or NULL */
} Reducer;

void
reduce_options_init (ReduceOptions *options)
{
  memset (options, 0, sizeof *options);
  options->algorithm = DD_ALGORITHM_HDD;
  options->same_crash_frames = 3;
  options->verify_runs = 3;
  options->report = TRUE;
}

void
reduce_summary_clear (ReduceSummary *summary)
{
  g_clear_pointer (&summary->output_path, g_free);
  g_clear_pointer (&summary->report_path, g_free);
}

static double
elapsed_s (Reducer *reducer)
{
  return (g_get_monotonic_time () - reducer->start_us) / 1e6;
}

/* ---- the target failure ---- */

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

static gboolean
still_fails (const RunResult *result, gpointer data)
{
  Reducer *reducer = data;
  const ReduceOptions *options = reducer->options;

  if (options->test_argv != NULL)
    return g_strcmp0 (result->outcome, "test-failed") == 0;
  if (options->stderr_match != NULL && !result->stderr_matched)
    return FALSE;
  switch (reducer->target.kind)
    {
    case SESSION_OUTCOME_CRASHED:
      if (g_strcmp0 (result->outcome, "crashed") != 0
          || result->signal != reducer->target.signal)
        return FALSE;
      break;
    case SESSION_OUTCOME_EXITED:
      if (g_strcmp0 (result->outcome, "exited") != 0
          || result->exit_status != reducer->target.status)
        return FALSE;
      break;
    case SESSION_OUTCOME_HUNG:
      if (g_strcmp0 (result->outcome, "hung") != 0)
        return FALSE;
      break;
    case SESSION_OUTCOME_UNKNOWN:
    case SESSION_OUTCOME_NONE:
    default:
      /* Only --stderr-match decides. */
      break;
    }
  if (options->same_crash && reducer->reference_frames != NULL
      && !frames_match (result->backtrace, reducer->reference_frames,
                        options->same_crash_frames))
    return FALSE;
  return TRUE;
}

static char *
describe_result (const RunResult *result)
{
  if (g_strcmp0 (result->outcome, "crashed") == 0)
    {
      const char *name = session_signal_name (result->signal);
      return g_strdup_printf ("crashed with %s", name != NULL ? name : "a signal");
    }
  if (g_strcmp0 (result->outcome, "exited") == 0)
    return g_strdup_printf ("exited with status %d", result->exit_status);
  if (g_strcmp0 (result->outcome, "could-not-start") == 0)
    return g_strdup_printf ("could not start%s%s%s", result->detail != NULL ? " (" : "",
                            result->detail != NULL ? result->detail : "",
                            result->detail != NULL ? ")" : "");
  if (g_strcmp0 (result->outcome, "test-failed") == 0)
    return g_strdup ("the --test command said it still fails (exit 0)");
  if (g_strcmp0 (result->outcome, "test-passed") == 0)
    return g_strdup_printf ("the --test command said it passes (exit %d)", result->exit_status);
  return g_strdup (result->outcome != NULL ? result->outcome : "unknown");
}

static char *
describe_target (Reducer *reducer)
{
  const ReduceOptions *options = reducer->options;
  g_autofree char *what = NULL;

  if (options->test_argv != NULL)
    return g_strdup ("the --test command exits 0");
  what = reducer->target.kind == SESSION_OUTCOME_NONE
           || reducer->target.kind == SESSION_OUTCOME_UNKNOWN
           ? g_strdup ("the app") : session_outcome_describe (reducer->target);
  return g_strdup_printf ("%s%s%s%s", what,
                          options->stderr_match != NULL ? " and stderr matches /" : "",
                          options->stderr_match != NULL ? options->stderr_match : "",
                          options->stderr_match != NULL ? "/" : "");
}

static gboolean
decide_target (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  SessionOutcome recorded = session_get_outcome (reducer->session);

  if (options->test_argv != NULL)
    return TRUE;
  if (options->signal > 0)
    {
      reducer->target.kind = SESSION_OUTCOME_CRASHED;
      reducer->target.signal = options->signal;
      return TRUE;
    }
  if (session_outcome_is_failure (recorded))
    {
      reducer->target = recorded;
      return TRUE;
    }
  if (options->stderr_match != NULL)
    {
      reducer->target.kind = SESSION_OUTCOME_NONE;
      return TRUE;
    }
  g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
               "%s records no failure (outcome: %s): say what to reduce for with "
               "--signal, --stderr-match or --test",
               options->session_path,
               recorded.kind == SESSION_OUTCOME_UNKNOWN ? "not recorded" : "none");
  return FALSE;
}

/* ---- progress and the best result ---- */

static void
progress_line (Reducer *reducer, gboolean final)
{
  const DdStats *stats = &reducer->last_stats;
  double t = elapsed_s (reducer);

  if (reducer->options->quiet || !reducer->tty)
    return;
  fprintf (stderr, "\r\033[Kxreduce: %" G_GUINT64_FORMAT " tests (%" G_GUINT64_FORMAT
           " cached), %u -> %u actions, %d:%02d%s",
           stats->tests, stats->cache_hits, reducer->n_before,
           reducer->n_best, (int) t / 60, (int) t % 60, final ? "\n" : "");
  fflush (stderr);
}

static void
on_progress (const DdStats *stats, gpointer data)
{
  Reducer *reducer = data;

  reducer->last_stats = *stats;
  reducer->last_stats.tests += reducer->earlier_tests;
  reducer->last_stats.cache_hits += reducer->earlier_cache_hits;
  progress_line (reducer, FALSE);
}

static gboolean
save_best (Reducer *reducer, GError **error)
{
  g_autoptr (Session) best = session_subset (reducer->session, reducer->best,
                                             reducer->n_best);
  g_autofree char *comment = g_strdup_printf (
    "reduced by xreduce from %s: %u -> %u actions", reducer->options->session_path,
    reducer->n_before, reducer->n_best);

  session_add_header_comment (best, comment);
  if (reducer->reference_frames != NULL && reducer->reference_frames[0] != NULL)
    {
      /* --same-crash: the crash kept, for whoever reads the bug report. */
      g_autofree char *frames = g_strjoinv (" < ", reducer->reference_frames);
      g_autofree char *crash = g_strdup_printf ("the crash kept: %s (top frames, gdb)", frames);
      session_add_header_comment (best, crash);
    }
  if (reducer->options->test_argv == NULL
      && reducer->target.kind != SESSION_OUTCOME_NONE)
    session_set_outcome (best, reducer->target, FALSE);
  if (!session_save (best, reducer->output_path, error))
    return FALSE;
  reducer->saved = TRUE;
  return TRUE;
}

static void
on_improved (const guint *elems, guint n, gpointer data)
{
  Reducer *reducer = data;
  g_autoptr (GError) error = NULL;

  g_free (reducer->best);
  reducer->best = g_memdup2 (elems, n * sizeof (guint));
  reducer->n_best = n;
  if (!save_best (reducer, &error))
    g_printerr ("\nxreduce: cannot save the best session so far: %s\n", error->message);
  if (!reducer->options->quiet && !reducer->tty)
    g_printerr ("xreduce: %u -> %u action%s after %" G_GUINT64_FORMAT " tests, %.0f s\n",
                reducer->n_before, n, n == 1 ? "" : "s", reducer->last_stats.tests,
                elapsed_s (reducer));
  progress_line (reducer, FALSE);
}

/* ---- how long a missing window is worth waiting for ---- */

/* xreplay's default --window-wait. */
#define REDUCE_WINDOW_WAIT_MS 2000
/* The learned wait: the longest latency seen (from an action to a window
 * of the app appearing), times the factor, plus the floor; at most
 * REDUCE_WINDOW_WAIT_MS. */
#define REDUCE_WINDOW_WAIT_FACTOR 4
#define REDUCE_WINDOW_WAIT_FLOOR_MS 250

/* A candidate without the action that opens a dialog waits for the dialog
 * in vain, for the whole --window-wait, and most candidates that pass do.
 * The replays of the full session show how fast this app, on these
 * servers, under this load, maps its windows after an action; waiting four
 * times that (plus a quarter second) is as good as waiting 2 s, and makes
 * passing candidates several times faster. Every later replay refines the
 * figure (it only grows). Not with --window-wait, nor for the baseline. */
static void
learn_window_wait (Reducer *reducer, const RunResult *results, const gboolean *done, guint n)
{
  gboolean first = reducer->window_wait_ms == 0;
  guint wait;

  if (!reducer->learn_wait)
    return;
  for (guint i = 0; i < n; i++)
    if (done[i] && results[i].window_latency_ms > reducer->window_latency_ms)
      reducer->window_latency_ms = results[i].window_latency_ms;
  /* Nothing learnt until a window has appeared after an action, or a
   * full replay has shown that none does. */
  if (reducer->window_latency_ms < 0 && reducer->verification.n_full_started == 0)
    return;
  wait = (guint) MIN ((gint64) REDUCE_WINDOW_WAIT_MS,
                      REDUCE_WINDOW_WAIT_FLOOR_MS
                        + REDUCE_WINDOW_WAIT_FACTOR * MAX (reducer->window_latency_ms, 0));
  if (wait == reducer->window_wait_ms)
    return;
  g_debug ("window latency %" G_GINT64_FORMAT " ms: window wait %u ms",
           reducer->window_latency_ms, wait);
  if (first && !reducer->options->quiet)
    {
      if (reducer->tty)
        g_printerr ("\r\033[K");
      if (reducer->window_latency_ms >= 0)
        g_printerr ("xreduce: the app's windows appear within %" G_GINT64_FORMAT " ms of an "
                    "action: a missing window is waited for %u ms (--window-wait to choose)\n",
                    reducer->window_latency_ms, wait);
      else
        g_printerr ("xreduce: the app maps no window after an action: a missing window is "
                    "waited for %u ms (--window-wait to choose)\n", wait);
    }
  reducer->window_wait_ms = wait;
  runner_set_window_wait (reducer->runner, wait);
}

/* ---- the oracle ---- */

static gboolean verification_poll (Reducer *reducer, GError **error);

static gboolean
test_candidates (const DdCandidate *cands, guint n, DdOutcome *outcomes,
                 gpointer data, GError **error)
{
  Reducer *reducer = data;
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func ((GDestroyNotify) session_free);
  g_autofree RunResult *results = g_new0 (RunResult, n);
  g_autofree gboolean *failed = g_new0 (gboolean, n);
  g_autofree gboolean *done = g_new0 (gboolean, n);
  g_autoptr (GError) local = NULL;
  gboolean ok = FALSE;

  if (reducer->options->limit_time > 0 && elapsed_s (reducer) > reducer->options->limit_time)
    {
      reducer->timed_out = TRUE;
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                   "time limit of %.0f s reached", reducer->options->limit_time);
      return FALSE;
    }
  if (!verification_poll (reducer, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (sessions, session_subset (reducer->session, cands[i].elems,
                                               cands[i].n_elems));

  /* One retry on an infrastructure error: a worker's Xvfb may have died
   * and been restarted. */
  for (int attempt = 0; attempt < 2 && !ok; attempt++)
    {
      g_clear_error (&local);
      ok = runner_run_batch (reducer->runner, (Session *const *) sessions->pdata, n,
                             still_fails, reducer, 0, results, failed, done, &local);
      if (!ok && g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
        break;
    }
  if (!ok)
    {
      if (g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
        g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
      else
        g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      for (guint i = 0; i < n; i++)
        run_result_clear (&results[i]);
      return FALSE;
    }
  learn_window_wait (reducer, results, done, n);
  for (guint i = 0; i < n; i++)
    {
      outcomes[i] = !done[i] ? DD_CANCELLED : failed[i] ? DD_FAIL : DD_PASS;
      run_result_clear (&results[i]);
    }
  return TRUE;
}

/* ---- the suffix pass ---- */

static gint
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* What crashes an app is most often what the user did last. Before the
 * search proper, one batch tries the session's last 1, 2, 4, 8, ...
 * gestures (up to the crash point), shortest first, in parallel; the
 * shortest that still fails is where the search starts, and the units
 * before it are dropped from @units. A failure that needs an early action
 * costs one batch of mostly short replays, whose passes are then known.
 * Only with the hierarchical algorithm: the baseline is ddmin as published.
 *
 * When the crash point is not known yet, the batch runs together with the
 * verification's replays (verify()): suffixes_new() makes the candidates,
 * suffixes_apply() takes the shortest that failed. */
typedef struct
{
  GArray *nonempty;          /* unit indices */
  GArray *cands;             /* of DdCandidate, shortest first; elems owned */
  GArray *sizes;             /* of guint: gestures in each candidate */
} Suffixes;

static void
suffixes_free (Suffixes *suffixes)
{
  for (guint i = 0; i < suffixes->cands->len; i++)
    g_free ((gpointer) g_array_index (suffixes->cands, DdCandidate, i).elems);
  g_array_unref (suffixes->cands);
  g_array_unref (suffixes->sizes);
  g_array_unref (suffixes->nonempty);
  g_free (suffixes);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Suffixes, suffixes_free)

static Suffixes *
suffixes_new (GPtrArray *units)
{
  Suffixes *suffixes = g_new0 (Suffixes, 1);
  guint n;

  suffixes->nonempty = g_array_new (FALSE, FALSE, sizeof (guint));
  suffixes->cands = g_array_new (FALSE, FALSE, sizeof (DdCandidate));
  suffixes->sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint u = 0; u < units->len; u++)
    if (((GArray *) g_ptr_array_index (units, u))->len > 0)
      g_array_append_val (suffixes->nonempty, u);
  n = suffixes->nonempty->len;
  for (guint k = 1; k < n; k *= 2)
    {
      GArray *set = g_array_new (FALSE, FALSE, sizeof (guint));
      DdCandidate cand;

      for (guint i = n - k; i < n; i++)
        {
          GArray *unit = g_ptr_array_index (units, g_array_index (suffixes->nonempty, guint, i));
          g_array_append_vals (set, unit->data, unit->len);
        }
      g_array_sort (set, (GCompareFunc) compare_guint);
      cand.n_elems = set->len;
      cand.elems = (const guint *) g_array_free (set, FALSE);
      g_array_append_val (suffixes->cands, cand);
      g_array_append_val (suffixes->sizes, k);
    }
  return suffixes;
}

/* Counts the suffix tests that ran; drops the units before the shortest
 * suffix that failed, if any, and makes it the best so far. */
static void
suffixes_apply (Reducer *reducer, Suffixes *suffixes, GPtrArray *units,
                const DdOutcome *outcomes)
{
  guint n = suffixes->nonempty->len;

  for (guint i = 0; i < suffixes->cands->len; i++)
    if (outcomes[i] != DD_CANCELLED)
      reducer->earlier_tests++;
  for (guint i = 0; i < suffixes->cands->len; i++)
    {
      const DdCandidate *cand = &g_array_index (suffixes->cands, DdCandidate, i);
      guint k = g_array_index (suffixes->sizes, guint, i);

      if (outcomes[i] != DD_FAIL)
        continue;
      for (guint j = 0; j < n - k; j++)
        g_array_set_size (g_ptr_array_index (units, g_array_index (suffixes->nonempty, guint, j)), 0);
      reducer->last_stats.tests = reducer->earlier_tests;
      on_improved (cand->elems, cand->n_elems, reducer);
      if (!reducer->options->quiet)
        g_printerr ("xreduce: the last %u gesture%s still fail%s: starting from %u actions\n",
                    k, k == 1 ? "" : "s", k == 1 ? "s" : "", cand->n_elems);
      break;
    }
}

/* The suffix pass on its own batch (the crash point cut the units). */
static gboolean
try_suffixes (Reducer *reducer, GPtrArray *units, GError **error)
{
  g_autoptr (Suffixes) suffixes = suffixes_new (units);
  g_autofree DdOutcome *outcomes = NULL;
  guint n = suffixes->cands->len;

  if (n == 0)
    return TRUE;
  outcomes = g_new (DdOutcome, n);
  for (guint i = 0; i < n; i++)
    outcomes[i] = DD_CANCELLED;
  if (!test_candidates ((const DdCandidate *) suffixes->cands->data, n, outcomes, reducer, error))
    return FALSE;
  suffixes_apply (reducer, suffixes, units, outcomes);
  return TRUE;
}

/* ---- verification ---- */

/* The verification's replays (the empty session, the full one several
 * times) run as background tests (runner.h). The baseline waits for them
 * before it starts; the hierarchical search starts beside them on the
 * other workers, and its oracle looks at them before every batch
 * (verification_poll): a verdict that changes the search's premises (the
 * session fails only sometimes, or crashes early) restarts the search
 * from the best failing set known. */
static void
verification_learn (Reducer *reducer, RunResult *result)
{
  gboolean done = TRUE;

  learn_window_wait (reducer, result, &done, 1);
}

/* One of the verification's replays is over: FALSE if it broke (the
 * first error is kept for the verdict). */
static gboolean
verification_count (Verification *v, const GError *error)
{
  v->pending--;
  if (error != NULL && v->error == NULL)
    v->error = g_error_copy (error);
  return error == NULL;
}

static void
on_empty_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Reducer *reducer = data;
  Verification *v = &reducer->verification;

  if (!verification_count (v, error))
    return;
  if (failed && v->empty_seen == NULL)
    v->empty_seen = describe_result (result);
  verification_learn (reducer, result);
}

static void
on_full_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Reducer *reducer = data;
  Verification *v = &reducer->verification;

  if (!verification_count (v, error))
    return;
  v->n_full_done++;
  if (v->full_seen == NULL)
    {
      v->full_seen = describe_result (result);
      v->full_tail = g_strdup (result->stderr_tail != NULL ? result->stderr_tail : "");
      g_strstrip (v->full_tail);
    }
  if (failed)
    {
      v->fails++;
      v->max_replayed = MAX (v->max_replayed, result->actions_replayed);
      if (reducer->options->same_crash && reducer->reference_frames == NULL)
        reducer->reference_frames = g_steal_pointer (&result->backtrace);
    }
  if (g_strcmp0 (result->outcome, "could-not-start") != 0)
    v->n_full_started++;
  verification_learn (reducer, result);
}

/* Queues the empty session (with @with_empty) and @n_full replays of the
 * full session as background tests. */
static void
verification_start (Reducer *reducer, gboolean with_empty, guint n_full)
{
  Verification *v = &reducer->verification;
  guint n_actions = session_get_n_actions (reducer->session);
  g_autofree guint *all = g_new (guint, n_actions);

  for (guint i = 0; i < n_actions; i++)
    all[i] = i;
  if (with_empty)
    {
      v->pending++;
      runner_start_background (reducer->runner, session_subset (reducer->session, NULL, 0),
                               still_fails, reducer, on_empty_done, reducer);
    }
  for (guint i = 0; i < n_full; i++)
    {
      v->pending++;
      v->runs++;
      runner_start_background (reducer->runner, session_subset (reducer->session, all, n_actions),
                               still_fails, reducer, on_full_done, reducer);
    }
}

typedef enum
{
  VERDICT_ERROR,
  VERDICT_MORE,              /* flaky: more runs queued to measure the rate */
  VERDICT_DONE,
} Verdict;

/* Once every queued replay is done: the verdict, with the crash point and
 * the confirmations a pass needs (reducer->crash_point, ->confirm). */
static Verdict
verification_judge (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  Verification *v = &reducer->verification;
  guint n_actions = session_get_n_actions (reducer->session);

  g_assert (v->pending == 0);
  if (v->error != NULL)
    {
      if (g_error_matches (v->error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
        g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
      else
        g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", v->error->message);
      return VERDICT_ERROR;
    }
  if (v->empty_seen != NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "the app fails even with no user action at all (%s): nothing to "
                   "reduce; check the command line and the target failure", v->empty_seen);
      return VERDICT_ERROR;
    }
  if (v->fails == 0)
    {
      g_autofree char *want = describe_target (reducer);
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "the full session does not fail: in %u replays the app %s, expected: %s%s%s",
                   v->runs, v->full_seen, want, *v->full_tail ? "; its stderr ends with: " : "",
                   v->full_tail);
      return VERDICT_ERROR;
    }
  if (v->fails < v->runs && v->runs == MAX (options->verify_runs, 1))
    {
      /* Flaky: measure the failure rate more precisely. */
      verification_start (reducer, FALSE, 3 * v->runs);
      return VERDICT_MORE;
    }
  reducer->confirm = dd_confirmations_for ((double) v->fails / v->runs, 0.95);
  if (v->fails < v->runs && !options->quiet)
    {
      if (reducer->tty)
        g_printerr ("\r\033[K");
      g_printerr ("xreduce: the full session fails in %u of %u replays: every candidate "
                  "that passes is replayed up to %u times, for 95%% confidence that a pass is real\n",
                  v->fails, v->runs, reducer->confirm);
    }
  if (options->same_crash && reducer->reference_frames == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_VERIFY,
                   "--same-crash: no backtrace could be taken of the crash (is gdb installed?)");
      return VERDICT_ERROR;
    }
  if (options->same_crash && !options->quiet)
    {
      g_autofree char *frames = g_strjoinv (" < ", reducer->reference_frames);
      g_printerr ("xreduce: keeping the crash in %s\n", frames);
    }
  /* The crash point: actions replayed when the failure was seen. The
   * replayer stops the moment the app dies, so nothing after it matters. */
  reducer->crash_point = (v->max_replayed > 0 && v->max_replayed < n_actions
                          && reducer->target.kind == SESSION_OUTCOME_CRASHED
                          && options->test_argv == NULL) ? v->max_replayed : n_actions;
  v->judged = TRUE;
  return VERDICT_DONE;
}

/* Waits for the verification's replays and judges them. */
static gboolean
verification_wait (Reducer *reducer, GError **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      Verdict verdict;

      if (!runner_wait_background (reducer->runner, &local))
        {
          g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
          return FALSE;
        }
      verdict = verification_judge (reducer, error);
      if (verdict != VERDICT_MORE)
        return verdict == VERDICT_DONE;
    }
}

/* Does what the search knows so far still hold after the verdict? Not if
 * the session fails only sometimes (passes so far were trusted after one
 * run), nor if the crash point cuts the best set known. */
static gboolean
verification_restarts (Reducer *reducer)
{
  return reducer->confirm > 1 || reducer->crash_point < reducer->n_best;
}

/* After the verdict: the best set becomes the actions up to the crash
 * point if that is smaller (*@cut), and the output file gets the best
 * set if it has nothing yet. */
static gboolean
verification_adopt (Reducer *reducer, gboolean *cut, GError **error)
{
  guint n_actions = session_get_n_actions (reducer->session);

  *cut = reducer->crash_point < reducer->n_best;
  if (*cut)
    {
      g_free (reducer->best);
      reducer->best = g_new (guint, reducer->crash_point);
      reducer->n_best = reducer->crash_point;
      for (guint i = 0; i < reducer->crash_point; i++)
        reducer->best[i] = i;
      reducer->saved = FALSE;
      if (!reducer->options->quiet)
        {
          if (reducer->tty)
            g_printerr ("\r\033[K");
          g_printerr ("xreduce: the app crashed after action %u: the %u actions after it "
                      "are dropped\n", reducer->crash_point, n_actions - reducer->crash_point);
        }
    }
  return reducer->saved || save_best (reducer, error);
}

/* From the oracle, before every batch: if the verification is over (or
 * needs more runs: then it waits), judges it; FALSE with an error to
 * abort the search, or RESTART_ERROR to restart it on the new premises. */
static gboolean
verification_poll (Reducer *reducer, GError **error)
{
  Verification *v = &reducer->verification;
  gboolean restart, cut;

  if (v->judged || v->pending > 0)
    return TRUE;
  if (!verification_wait (reducer, error))
    return FALSE;
  restart = verification_restarts (reducer);
  if (!verification_adopt (reducer, &cut, error))
    return FALSE;
  if (restart)
    {
      g_set_error_literal (error, RESTART_ERROR, cut, "restart");
      return FALSE;
    }
  return TRUE;
}

static void
verification_clear (Verification *v)
{
  g_clear_pointer (&v->empty_seen, g_free);
  g_clear_pointer (&v->full_seen, g_free);
  g_clear_pointer (&v->full_tail, g_free);
  g_clear_error (&v->error);
}

/* ---- the bug-report folder ---- */

/* How long xreplay gets to stop its app and Xvfb after SIGTERM. */
#define REPORT_KILL_GRACE_MS 3000

/* The replay that writes OUT.report/: xreplay as a child in its own
 * process group (and dying with us), which on_signal() takes down. */
struct ReportRun
{
  GSubprocess *process;      /* owned */
  gboolean done;             /* exited and reaped, its stderr read */
  GBytes *err;               /* what it said on stderr */
  guint kill_source;         /* SIGKILL if SIGTERM was not enough, or 0 */
};

static void
report_run_signal (ReportRun *run, int signum)
{
  /* NULL once it has been reaped: the pid may be someone else's by then. */
  const char *id = g_subprocess_get_identifier (run->process);

  if (id != NULL)
    {
      pid_t pid = (pid_t) g_ascii_strtoll (id, NULL, 10);
      /* xreplay stops its app and Xvfb on SIGTERM (they are in groups of
       * their own, and die with it on SIGKILL); the group kill reaches
       * anything else it started. */
      kill (pid, signum);
      kill (-pid, signum);
    }
}

static gboolean
on_report_kill_timeout (gpointer data)
{
  ReportRun *run = data;

  run->kill_source = 0;
  report_run_signal (run, SIGKILL);
  return G_SOURCE_REMOVE;
}

static void
report_run_kill (ReportRun *run)
{
  report_run_signal (run, SIGTERM);
  if (run->kill_source == 0)
    run->kill_source = g_timeout_add (REPORT_KILL_GRACE_MS, on_report_kill_timeout, run);
}

static void
on_report_done (GObject *source, GAsyncResult *res, gpointer data)
{
  ReportRun *run = data;

  /* A failure to read the pipe leaves the exit status to judge by. */
  g_subprocess_communicate_finish (G_SUBPROCESS (source), res, NULL, &run->err, NULL);
  run->done = TRUE;
}

/* Removes what an earlier report in @dir left that this one may not
 * overwrite (it may have fewer steps, or no pictures): only the pictures
 * report.c writes, nothing else of the folder. */
static void
report_remove_pictures (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if ((g_str_has_prefix (name, "step-") && g_str_has_suffix (name, ".png"))
        || g_str_equal (name, "steps.png") || g_str_equal (name, "last-screen.png"))
      g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  for (guint i = 0; i < names->len; i++)
    g_unlink (g_ptr_array_index (names, i));
}

/* Replays the minimal session once with `xreplay --report @dir`, as the
 * tests were run (@xreplay_args); *@status is xreplay's exit status:
 * 1 the app failed, 0 or 4 it did not. Ctrl-C kills the replay and
 * returns REDUCE_ERROR_INTERRUPTED. */
static gboolean
report_replay (Reducer *reducer, const char *xreplay, char *const *xreplay_args,
               char *const *app_argv, const char *dir, int *status, GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) local = NULL;
  g_autofree char *said = NULL;
  ReportRun run = { 0 };

  if (reducer->interrupted)
    {
      g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
      return FALSE;
    }
  /* @xreplay_args start with --quiet. */
  g_ptr_array_add (argv, (char *) xreplay);
  g_ptr_array_add (argv, (char *) "--report");
  g_ptr_array_add (argv, (char *) dir);
  for (char *const *a = xreplay_args; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, reducer->output_path);
  g_ptr_array_add (argv, (char *) "--");
  for (char *const *a = app_argv; *a != NULL; a++)
    g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup_own_group,
                                         GINT_TO_POINTER ((int) getpid ()), NULL);
  run.process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                              &local);
  if (run.process == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "cannot run %s: %s",
                   xreplay, local->message);
      return FALSE;
    }
  g_subprocess_communicate_async (run.process, NULL, NULL, on_report_done, &run);
  /* on_signal() kills it from here on (signals are only dispatched in
   * this loop). */
  reducer->report_run = &run;
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);
  reducer->report_run = NULL;
  if (run.kill_source != 0)
    g_source_remove (run.kill_source);

  if (run.err != NULL)
    {
      gsize len = 0;
      const char *data = g_bytes_get_data (run.err, &len);
      said = g_utf8_make_valid (data != NULL ? data : "", (gssize) len);
      g_strstrip (said);
      g_bytes_unref (run.err);
    }
  if (reducer->interrupted)
    {
      g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
      g_object_unref (run.process);
      return FALSE;
    }
  *status = g_subprocess_get_if_exited (run.process)
              ? g_subprocess_get_exit_status (run.process)
              : 128 + g_subprocess_get_term_sig (run.process);
  g_object_unref (run.process);
  if (*status != 0 && *status != 1 && *status != 4)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                   "xreplay --report failed (exit status %d)%s%s", *status,
                   said != NULL && *said != '\0' ? ": " : "", said != NULL ? said : "");
      return FALSE;
    }
  return TRUE;
}

/* The "Reduction" section of report.md, in Markdown. */
static char *
describe_reduction (Reducer *reducer, const ReduceSummary *summary, guint n_in_file,
                    int replay_status)
{
  const ReduceOptions *options = reducer->options;
  GString *md = g_string_new (NULL);
  g_autofree char *want = describe_target (reducer);
  int seconds = (int) (summary->seconds + 0.5);

  g_string_append_printf (md, "- Original session: `%s`, %u user actions\n",
                          options->session_path, summary->n_before);
  g_string_append_printf (md, "- Minimal session: `%s`, %u user actions\n", summary->output_path,
                          n_in_file);
  g_string_append_printf (md, "- Actions: %u before, %u after", summary->n_before,
                          summary->n_after);
  if (n_in_file > summary->n_after)
    g_string_append_printf (md, " (and %u release%s added at the end, so that nothing "
                            "stays pressed)", n_in_file - summary->n_after,
                            n_in_file - summary->n_after == 1 ? "" : "s");
  g_string_append_printf (md, "\n- Failure kept: %s\n", want);
  g_string_append_printf (md, "- Verification: the full session failed in %u of %u replays, "
                          "the empty session passed", reducer->verification.fails,
                          reducer->verification.runs);
  if (reducer->confirm > 1)
    g_string_append_printf (md, "; flaky: every pass confirmed %u times (95%% confidence)",
                            reducer->confirm);
  g_string_append (md, "\n");
  g_string_append_printf (md, "- Tests run: %" G_GUINT64_FORMAT " (and %" G_GUINT64_FORMAT
                          " answered from the cache)\n", summary->tests, summary->cache_hits);
  g_string_append_printf (md, "- Wall time: %d:%02d (%.1f s)\n", seconds / 60, seconds % 60,
                          summary->seconds);
  g_string_append_printf (md, "- Algorithm: %s, %u worker%s\n",
                          options->algorithm == DD_ALGORITHM_DDMIN
                            ? "ddmin (the original sequential ddmin)"
                            : "hdd (gestures, then single actions; complement-first)",
                          reducer->n_workers, reducer->n_workers == 1 ? "" : "s");
  if (reducer->window_wait_ms > 0)
    g_string_append_printf (md, "- Window wait: %u ms, learnt from the replays (the app's windows "
                            "appeared within %" G_GINT64_FORMAT " ms of an action); this report's "
                            "replay waited the full --window-wait\n", reducer->window_wait_ms,
                            MAX (reducer->window_latency_ms, 0));
  if (summary->one_minimal)
    g_string_append (md, "- 1-minimal: verified (removing any one remaining action makes the "
                         "failure go away)\n");
  else
    g_string_append_printf (md, "- 1-minimal: not verified%s\n",
                            summary->stopped_early ? " (stopped early at a limit)" : "");
  if (replay_status != 1)
    g_string_append_printf (md, "\nNote: in the replay for this report the app did not fail "
                                "(xreplay exit status %d)%s.\n", replay_status,
                            options->test_argv != NULL
                              ? "; the --test command is what decides the failure"
                              : ": the failure may be flaky");
  return g_string_free (md, FALSE);
}

/* Writes OUT.report/: the replay's report.md and pictures, then the
 * reduction's figures; sets summary->report_path. FALSE: there is no
 * (complete) report, a warning for the caller; or REDUCE_ERROR_INTERRUPTED. */
static gboolean
report_write (Reducer *reducer, const char *xreplay, char *const *xreplay_args,
              char *const *app_argv, ReduceSummary *summary, GError **error)
{
  g_autofree char *dir = g_strconcat (reducer->output_path, ".report", NULL);
  g_autofree char *section = NULL;
  g_autoptr (Session) best = session_subset (reducer->session, reducer->best, reducer->n_best);
  g_autoptr (GError) local = NULL;
  int status = -1;

  if (xreplay == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  report_remove_pictures (dir);
  if (!report_replay (reducer, xreplay, xreplay_args, app_argv, dir, &status, error))
    return FALSE;
  if (status != 1)
    {
      if (reducer->options->test_argv != NULL)
        g_printerr ("xreduce: note: replayed by xreplay for the report, the app %s; "
                    "the --test command is what decides the failure\n",
                    status == 4 ? "could not start" : "did not fail");
      else
        g_printerr ("xreduce: warning: replayed for the report, %s no longer reproduces the "
                    "failure (the app %s): it may be flaky; the report says what happened\n",
                    reducer->output_path, status == 4 ? "could not start" : "did not fail");
    }
  section = describe_reduction (reducer, summary, session_get_n_actions (best), status);
  if (!report_append_section (dir, "Reduction", section, &local))
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  summary->report_path = g_build_filename (dir, "report.md", NULL);
  return TRUE;
}

/* ---- the whole run ---- */

/* The search's units: the gestures, each cut to the actions in @best. */
static GPtrArray *
units_of (GPtrArray *gestures, const guint *best, guint n_best, guint n_actions)
{
  g_autofree gboolean *in = g_new0 (gboolean, n_actions);
  GPtrArray *units = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < n_best; i++)
    in[best[i]] = TRUE;
  for (guint g = 0; g < gestures->len; g++)
    {
      SessionGesture *gesture = g_ptr_array_index (gestures, g);
      GArray *unit = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint a = 0; a < gesture->actions->len; a++)
        if (in[g_array_index (gesture->actions, guint, a)])
          g_array_append_val (unit, g_array_index (gesture->actions, guint, a));
      g_ptr_array_add (units, unit);
    }
  return units;
}

static char *
find_xreplay (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self != NULL ? g_path_get_dirname (self) : NULL;
  const char *env = g_getenv ("XREPLAY");
  const char *candidates[] = { "xreplay", "../replayer/xreplay" };

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  for (gsize i = 0; dir != NULL && i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
    }
  return g_find_program_in_path ("xreplay");
}

static gboolean
on_signal (gpointer data)
{
  Reducer *reducer = data;

  reducer->interrupted = TRUE;
  if (reducer->runner != NULL)
    runner_cancel (reducer->runner);
  if (reducer->report_run != NULL)
    report_run_kill (reducer->report_run);
  return G_SOURCE_CONTINUE;
}

static void
remove_dir (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      g_unlink (file);
    }
  g_rmdir (path);
}

static void
print_result (Reducer *reducer, ReduceSummary *summary, char **app_argv)
{
  g_autoptr (Session) best = session_subset (reducer->session, reducer->best, reducer->n_best);
  g_autoptr (GArray) actions = session_get_actions (best);
  g_autoptr (GString) command = g_string_new ("xreplay ");
  g_autofree char *quoted = g_shell_quote (reducer->output_path);

  g_print ("%u -> %u actions in %" G_GUINT64_FORMAT " tests, %.0f s%s\n",
           summary->n_before, summary->n_after, summary->tests, summary->seconds,
           summary->stopped_early ? " (stopped early: the result may not be minimal)" : "");
  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (best, g_array_index (actions, guint, i));
      g_autofree char *words = session_event_describe (ev);
      /* session_subset() releases what the kept actions leave pressed,
       * after the last of them: say so, not to count them as kept. */
      g_print ("  %2u. %s%s\n", i + 1, words,
               i >= reducer->n_best ? " (added: released at the end)" : "");
    }
  g_string_append (command, quoted);
  g_string_append (command, " --");
  for (char **a = app_argv; *a != NULL; a++)
    {
      g_autofree char *q = g_shell_quote (*a);
      g_string_append_printf (command, " %s", q);
    }
  g_print ("minimal session: %s\nreplay it: %s\n", reducer->output_path, command->str);
  if (summary->report_path != NULL)
    g_print ("report: %s\n", summary->report_path);
}

gboolean
reduce_run (const ReduceOptions *options, ReduceSummary *summary, GError **error)
{
  Reducer reducer_ = { .options = options };
  Reducer *reducer = &reducer_;
  g_autoptr (Session) session = NULL;
  g_autoptr (Runner) runner = NULL;
  g_autoptr (GPtrArray) gestures = NULL;
  g_auto (GStrv) app_argv = NULL;
  g_auto (GStrv) xreplay_args = NULL;
  g_autofree char *xreplay = NULL;
  g_autofree char *workdir = NULL;
  g_autofree guint *result = NULL;
  g_autoptr (GError) local = NULL;
  RunnerOptions runner_options = { 0 };
  DdOptions dd_options;
  DdStats stats = { 0 };
  guint n_result = 0, sigint = 0, sigterm = 0;
  guint n_actions;
  gboolean ok = FALSE, with_suffixes;
  GStrvBuilder *builder;

  memset (summary, 0, sizeof *summary);
  reducer->start_us = g_get_monotonic_time ();
  reducer->tty = isatty (STDERR_FILENO);

  session = session_load (options->session_path, &local);
  if (session == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
      return FALSE;
    }
  reducer->session = session;
  n_actions = session_get_n_actions (session);
  if (n_actions == 0)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                   "%s has no user actions: nothing to reduce", options->session_path);
      return FALSE;
    }
  if (options->app_argv != NULL && options->app_argv[0] != NULL)
    app_argv = g_strdupv (options->app_argv);
  else if (session_get_command (session) != NULL)
    app_argv = g_strdupv ((char **) session_get_command (session));
  else
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                   "%s records no command: give it after '--'", options->session_path);
      return FALSE;
    }
  if (!decide_target (reducer, error))
    return FALSE;
  if (options->stderr_match != NULL)
    {
      reducer->stderr_regex = g_regex_new (options->stderr_match, 0, 0, &local);
      if (reducer->stderr_regex == NULL)
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                       "--stderr-match: %s", local->message);
          return FALSE;
        }
      g_regex_unref (reducer->stderr_regex);
      reducer->stderr_regex = NULL;
    }
  xreplay = options->xreplay != NULL ? g_strdup (options->xreplay) : find_xreplay ();
  if (xreplay == NULL && options->test_argv == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  reducer->output_path = options->output_path != NULL
                           ? g_strdup (options->output_path)
                           : g_strconcat (options->session_path, ".min", NULL);
  /* Fail early, before minutes of work, if the output cannot be written. */
  {
    g_autofree char *dir = g_path_get_dirname (reducer->output_path);
    if (access (dir, W_OK) != 0)
      {
        int saved = errno;
        g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                     "cannot write the result to %s: %s", reducer->output_path,
                     g_strerror (saved));
        g_free (reducer->output_path);
        return FALSE;
      }
  }

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, "--quiet");
  if (options->stderr_match != NULL)
    {
      g_strv_builder_add (builder, "--stderr-match");
      g_strv_builder_add (builder, options->stderr_match);
    }
  if (options->same_crash)
    g_strv_builder_add (builder, "--backtrace");
  for (char **a = options->xreplay_args; a != NULL && *a != NULL; a++)
    g_strv_builder_add (builder, *a);
  xreplay_args = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  workdir = g_dir_make_tmp ("xreduce-XXXXXX", &local);
  if (workdir == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      g_free (reducer->output_path);
      return FALSE;
    }

  /* Three workers a core by default: a replay mostly waits (on the
   * recorded gaps, on the app), using a few per cent of a core; the
   * verification's replays take some of them at first (see
   * verification_start), the search the others. */
  runner_options.workers = options->algorithm == DD_ALGORITHM_DDMIN ? 1
                           : options->jobs > 0 ? options->jobs : 3 * g_get_num_processors ();
  runner_options.fresh_server = options->algorithm == DD_ALGORITHM_DDMIN;
  session_get_screen (session, &runner_options.screen_width, &runner_options.screen_height);
  runner_options.xreplay = xreplay;
  runner_options.xreplay_args = xreplay_args;
  runner_options.app_argv = app_argv;
  runner_options.test_argv = options->test_argv;
  runner_options.workdir = workdir;
  runner = runner_new (&runner_options, &local);
  if (runner == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      goto out;
    }
  reducer->runner = runner;
  reducer->n_workers = runner_get_n_workers (runner);
  sigint = g_unix_signal_add (SIGINT, on_signal, reducer);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, reducer);

  if (!options->quiet)
    {
      g_autofree char *want = describe_target (reducer);
      g_printerr ("xreduce: %u actions; reducing for: %s; %u worker%s\n", n_actions, want,
                  runner_get_n_workers (runner), runner_get_n_workers (runner) == 1 ? "" : "s");
    }
  /* The verification starts; the baseline, and --same-crash (whose
   * oracle needs the original crash's frames), wait for its verdict, the
   * hierarchical search starts beside it. Until then the best set is the
   * whole session, not written anywhere: it may not fail. */
  reducer->learn_wait = options->algorithm == DD_ALGORITHM_HDD && !options->window_wait_given
                        && options->test_argv == NULL;
  reducer->window_latency_ms = -1;
  reducer->confirm = 1;
  reducer->crash_point = n_actions;
  reducer->n_before = n_actions;
  reducer->best = g_new (guint, n_actions);
  reducer->n_best = n_actions;
  for (guint i = 0; i < n_actions; i++)
    reducer->best[i] = i;
  verification_start (reducer, TRUE, MAX (options->verify_runs, 1));
  if (options->algorithm == DD_ALGORITHM_DDMIN || options->same_crash)
    {
      gboolean cut;
      if (!verification_wait (reducer, error) || !verification_adopt (reducer, &cut, error))
        goto out;
    }

  gestures = session_get_gestures (session);
  with_suffixes = options->algorithm == DD_ALGORITHM_HDD;
  for (;;)
    {
      g_autoptr (GPtrArray) units = units_of (gestures, reducer->best, reducer->n_best, n_actions);
      gboolean restart = FALSE;

      g_clear_error (&local);
      if (with_suffixes && !try_suffixes (reducer, units, &local))
        ok = FALSE;
      else
        {
          dd_options_init (&dd_options);
          dd_options.algorithm = options->algorithm;
          dd_options.parallel = options->algorithm == DD_ALGORITHM_DDMIN
                                  ? 1 : runner_get_n_workers (runner);
          dd_options.confirm_passes = reducer->confirm;
          if (options->limit_tests > 0)
            dd_options.limit_tests = options->limit_tests > reducer->earlier_tests
                                       ? options->limit_tests - reducer->earlier_tests : 1;
          dd_options.progress = on_progress;
          dd_options.improved = on_improved;
          dd_options.user_data = reducer;
          memset (&stats, 0, sizeof stats);
          ok = dd_reduce ((const GArray *const *) units->pdata, units->len, test_candidates,
                          reducer, &dd_options, &result, &n_result, &stats, &local);
          reducer->earlier_tests += stats.tests;
          reducer->earlier_cache_hits += stats.cache_hits;
          if (ok)
            {
              g_free (reducer->best);
              reducer->best = g_steal_pointer (&result);
              reducer->n_best = n_result;
              /* Done before the verdict: wait for it, it may change the
               * premises. */
              if (!reducer->verification.judged)
                {
                  gboolean cut = FALSE;

                  if (!verification_wait (reducer, &local))
                    ok = FALSE;
                  else
                    {
                      restart = verification_restarts (reducer);
                      if (!verification_adopt (reducer, &cut, &local))
                        ok = FALSE;
                      with_suffixes = cut;
                    }
                }
              if (ok && !restart && !save_best (reducer, &local))
                ok = FALSE;
            }
        }
      if (!ok && g_error_matches (local, RESTART_ERROR, 0))
        restart = TRUE, with_suffixes = FALSE;
      else if (!ok && g_error_matches (local, RESTART_ERROR, 1))
        restart = TRUE, with_suffixes = TRUE;
      if (restart)
        {
          if (!options->quiet)
            {
              if (reducer->tty)
                g_printerr ("\r\033[K");
              g_printerr ("xreduce: the search starts again from %u action%s, on the "
                          "verification's findings\n", reducer->n_best,
                          reducer->n_best == 1 ? "" : "s");
            }
          continue;
        }
      if (!ok && g_error_matches (local, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED)
          && reducer->timed_out)
        ok = TRUE;   /* --limit-time: a result, just maybe not minimal */
      else if (!ok)
        g_propagate_error (error, g_steal_pointer (&local));
      break;
    }
  stats.tests = reducer->earlier_tests;
  stats.cache_hits = reducer->earlier_cache_hits;
  reducer->last_stats = stats;
  if (ok && !reducer->verification.judged)
    {
      /* --limit-time before the verdict: the verdict still decides
       * whether there is a result at all. */
      gboolean cut;
      if (!verification_wait (reducer, error) || !verification_adopt (reducer, &cut, error))
        ok = FALSE;
    }

  progress_line (reducer, TRUE);
  summary->n_before = n_actions;
  summary->n_after = reducer->n_best;
  summary->tests = stats.tests;
  summary->cache_hits = stats.cache_hits;
  summary->seconds = elapsed_s (reducer);
  summary->one_minimal = ok && stats.one_minimal_verified;
  summary->stopped_early = stats.hit_limit || reducer->timed_out;
  summary->output_path = g_strdup (reducer->output_path);
  if (ok && options->report)
    {
      g_autoptr (GError) report_error = NULL;

      /* The workers' Xvfbs are done with: the report's replay starts its
       * own, at the session's screen size. */
      reducer->runner = NULL;
      g_clear_pointer (&runner, runner_free);
      if (!report_write (reducer, xreplay, xreplay_args, app_argv, summary, &report_error))
        {
          if (g_error_matches (report_error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED))
            {
              g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                           "interrupted while writing the report; the minimal session "
                           "(%u actions) is in %s", reducer->n_best, reducer->output_path);
              print_result (reducer, summary, app_argv);
              ok = FALSE;
              goto out;
            }
          g_printerr ("xreduce: warning: no report: %s\n", report_error->message);
        }
    }
  if (ok)
    print_result (reducer, summary, app_argv);
  else if (reducer->interrupted && reducer->saved)
    g_printerr ("xreduce: interrupted; the best session so far (%u actions) is in %s\n",
                reducer->n_best, reducer->output_path);
  else if (reducer->interrupted)
    g_printerr ("xreduce: interrupted before the verification was over: nothing written "
                "to %s\n", reducer->output_path);

out:
  if (sigint != 0)
    g_source_remove (sigint);
  if (sigterm != 0)
    g_source_remove (sigterm);
  /* Stops every test, app and Xvfb before the files go. */
  g_clear_pointer (&runner, runner_free);
  remove_dir (workdir);
  verification_clear (&reducer->verification);
  g_strfreev (reducer->reference_frames);
  g_free (reducer->best);
  g_free (reducer->output_path);
  return ok;
}
