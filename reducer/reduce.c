/* reduce.c — the reducer's driver.
 *
 * reduce_run() in three parts: reduce_setup() (setup.c) loads the session,
 * decides the target failure (target.h) and starts the workers (runner.h)
 * and the verification (verify.h); reduce_search() runs
 * dd_reduce_hierarchy() over the session's phrases, gestures and actions
 * (search.h; the last phrases first) with test_candidates() as the oracle,
 * again from the best set whenever the verification's verdict changes the
 * premises; reduce_finish() (finish.c) writes the bug-report folder and
 * says the result (summary.h). Every improvement is saved atomically to
 * the output file (reducer_save_best, best.c), so Ctrl-C keeps it.
 * How many workers run at once follows what the replays' apps use
 * (pool.h, reducer_observe).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "interrupt.h"
#include "search.h"
#include "summary.h"

#include <string.h>
#include <unistd.h>
#include <sys/statvfs.h>

void
reduce_summary_clear (ReduceSummary *summary)
{
  g_clear_pointer (&summary->output_path, g_free);
  g_clear_pointer (&summary->report_path, g_free);
}

/* ---- the oracle ---- */

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

  if (reducer->options->limit_time > 0
      && reducer_elapsed_s (reducer) > reducer->options->limit_time)
    {
      reducer->timed_out = TRUE;
      runner_cancel (reducer->runner);
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                   "time limit of %.0f s reached", reducer->options->limit_time);
      return FALSE;
    }
  g_autofree guint *to_run = g_new (guint, MAX (n, 1));
  g_autofree gint *run_at = g_new (gint, MAX (n, 1));
  g_autofree RunnerBranch *branches = g_new0 (RunnerBranch, MAX (n, 1));
  g_autofree gboolean *known_fail = g_new0 (gboolean, n + 1);
  guint n_run = 0;

  if (!reducer_check_verdict (reducer, FALSE, error))
    return FALSE;
  /* What the journal knows is not run again; nothing after a failure it
   * knows in a sequence needs to be (a sequence stops at its first
   * failure, dd.h), nor a branch whose candidate it knows (it passed, or
   * the branch is run no further: rare, a resumed run). */
  for (guint i = 0; i < n; i++)
    {
      guint seq = cands[i].if_fails;
      gboolean maybe = !known_fail[seq] && (seq == 0 || run_at[seq - 1] >= 0);

      outcomes[i] = reducer->journal != NULL
                      ? journal_lookup (reducer->journal, cands[i].elems, cands[i].n_elems)
                      : DD_CANCELLED;
      if (outcomes[i] != DD_CANCELLED)
        {
          reducer->journal_hits++;
          reducer->journal_hits_speculative += cands[i].speculative;
        }
      if (outcomes[i] == DD_FAIL)
        known_fail[seq] = TRUE;
      run_at[i] = -1;
      if (outcomes[i] != DD_CANCELLED || !maybe)
        continue;
      run_at[i] = (gint) n_run;
      branches[n_run] = (RunnerBranch) { .parent = seq == 0 ? -1 : run_at[seq - 1],
                                         .speculative = cands[i].speculative };
      if (!g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
        {
          /* (Numbered from 1, as the session's words number them.) */
          g_autofree char *which = dd_elems_to_ranges (cands[i].elems, cands[i].n_elems, 1,
                                                       "none");
          g_debug ("candidate %u of the batch: actions %s", n_run, which);
        }
      to_run[n_run++] = i;
      g_ptr_array_add (sessions, session_subset (reducer->session, cands[i].elems,
                                                 cands[i].n_elems));
    }
  if (n_run == 0)
    return TRUE;

  /* One retry on an infrastructure error: a worker's Xvfb may have died
   * and been restarted. */
  for (int attempt = 0; attempt < 2 && !ok; attempt++)
    {
      g_clear_error (&local);
      ok = runner_run_batch (reducer->runner, (Session *const *) sessions->pdata, n_run,
                             branches, target_still_fails, &reducer->target, results, failed,
                             done, &local);
      if (!ok && !g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_INFRA))
        break;
    }
  for (guint r = 0; r < n_run; r++)
    {
      guint i = to_run[r];

      outcomes[i] = !done[r] ? DD_CANCELLED
                    : failed[r] ? DD_FAIL
                    : results[r].replay.verdict.kind == VERDICT_UNRESOLVED ? DD_UNRESOLVED : DD_PASS;
      run_result_clear (&results[r]);
    }
  if (ok && reducer_failures_come_late (reducer))
    ok = reducer_confirm_passes (reducer, cands, outcomes, to_run, n_run, &local);
  for (guint r = 0; r < n_run && reducer->journal != NULL; r++)
    journal_record (reducer->journal, cands[to_run[r]].elems, cands[to_run[r]].n_elems,
                    outcomes[to_run[r]]);
  if (!ok && g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
    g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
  else if (!ok)
    g_set_error (error, REDUCE_ERROR,
                 g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED)
                   ? REDUCE_ERROR_VERIFY
                   : g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_USAGE)
                   ? REDUCE_ERROR_USAGE : REDUCE_ERROR_INFRA, "%s", local->message);
  return ok;
}

/* ---- the search ---- */

/* Speculation's share of a batch's idle slots (DdOptions.spare_slots).
 * Through a launcher the slots are elsewhere, each with its own CPU: all
 * of them. Here, the candidates share this machine's cores: a replay of
 * this app uses up to replay_cores of a core (its process tree's CPU over
 * the replay's time, the most seen), so the cores hold n_cores /
 * replay_cores replays before each runs slower; speculation takes what
 * the batch's own candidates leave of that, never more. A light app
 * (the demo: a tenth of a core) speculates on every idle worker; a
 * browser (most of a core a replay) on few or none, where more at once
 * would slow the candidates the search waits for. */
static guint
spare_slots (guint n_own, guint room, gpointer data)
{
  Reducer *reducer = data;
  guint idle = room - MIN (n_own, room), fit;

  if (reducer->options->launcher_argv != NULL || reducer->replay_cores <= 0)
    return idle;
  fit = (guint) ((double) g_get_num_processors () / CLAMP (reducer->replay_cores, 0.05, 1.0));
  return fit > n_own ? MIN (idle, fit - n_own) : 0;
}

/* DdOptions.stop: between candidates, the search asks whether a signal
 * came or --limit-time passed. The main context, which tells us both
 * (on_signal, on_deadline), does not run while the search works out its
 * next candidates: the signal's latch and the clock are read here. */
static gboolean
search_should_stop (gpointer data)
{
  Reducer *reducer = data;

  if (proc_interrupt_get_signal () != 0)
    reducer->interrupted = TRUE;
  else if (reducer->options->limit_time > 0
           && reducer_elapsed_s (reducer) > reducer->options->limit_time)
    reducer->timed_out = TRUE;
  if (!reducer->interrupted && !reducer->timed_out)
    return FALSE;
  runner_cancel (reducer->runner);
  return TRUE;
}

/* DdOptions.normalize: what a candidate really replays. */
static void
normalize_candidate (const guint *elems, guint n, GArray *out, gpointer data)
{
  Reducer *reducer = data;

  search_normalize (reducer->session, elems, n, out);
}

/* Are workers left over beside the verification's replays? */
static gboolean
workers_left_over (gpointer data)
{
  Reducer *reducer = data;
  guint active = runner_get_active (reducer->runner);
  guint background = runner_get_n_background (reducer->runner);

  if (active <= background)
    return FALSE;
  g_debug ("the search starts beside the verification: %u of %u workers are left over",
           active - background, active);
  return TRUE;
}

/* The search starts once a replay has seen the full session fail: a
 * session that does not fail (or a long one, still replaying at
 * --limit-time) costs no candidate. But where the workers outnumber the
 * verification's replays (at the start, or once the pool has grown on
 * what the first replays showed, or as those replays end), those left
 * over would wait idle for it (the first replay of a long session: a
 * third of a short reduction's time): the search starts then, on them.
 * A candidate that fails then is a failing session, written once a
 * replay has seen the full session fail too (reducer_check_verdict); one
 * that does not fail is no answer before the verdict either way (as
 * after the first failure), and a verdict that changes the premises
 * starts the search again. */
static gboolean
search_may_start (Reducer *reducer, GError **error)
{
  return workers_left_over (reducer)
         || verification_wait_failure_or (reducer->verification, workers_left_over, reducer,
                                          error);
}

/* One pass of the search (search.h): phrases (the last ones first, if
 * asked), gestures, actions, from the best set; the result becomes the
 * best set. */
static gboolean
search_once (Reducer *reducer, gboolean with_suffixes, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autoptr (SearchLevels) levels = NULL;
  g_autofree guint *result = NULL;
  const DdLevel *level;
  DdOptions dd_options;
  DdStats stats = { 0 };
  guint n_result = 0, n_levels;
  gboolean ok;

  if (!reducer->judged && !search_may_start (reducer, error))
    return FALSE;
  levels = search_levels_new (reducer->session, reducer->best, reducer->n_best, TRUE);
  dd_options_init (&dd_options);
  dd_options.algorithm = options->algorithm;
  dd_options.parallel = options->algorithm == DD_ALGORITHM_DDMIN
                          ? 1 : runner_get_n_workers (reducer->runner);
  dd_options.confirm_passes = reducer->judged
                                ? verification_get_confirm (reducer->verification) : 1;
  if (options->limit_tests > 0)
    dd_options.limit_tests = options->limit_tests > reducer->earlier_tests
                               ? options->limit_tests - reducer->earlier_tests : 1;
  dd_options.last_units_first = with_suffixes;
  dd_options.no_inference = options->no_inference;
  dd_options.normalize = normalize_candidate;
  dd_options.spare_slots = spare_slots;
  dd_options.progress = reducer_on_progress;
  dd_options.improved = reducer_on_improved;
  dd_options.stop = search_should_stop;
  dd_options.user_data = reducer;
  level = search_levels_get (levels, &n_levels);
  ok = dd_reduce_hierarchy (level, n_levels, test_candidates, reducer, &dd_options, &result,
                            &n_result, &stats, error);
  if (!ok && error != NULL && g_error_matches (*error, DD_ERROR, DD_ERROR_STOPPED))
    {
      g_clear_error (error);
      g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                           reducer->timed_out ? "time limit reached" : "interrupted");
    }
  reducer->earlier_tests += stats.tests;
  reducer->earlier_speculative += stats.speculative;
  reducer->earlier_cache_hits += stats.cache_hits;
  reducer->last_stats = stats;
  reducer->last_stats.tests = reducer->earlier_tests;
  reducer->last_stats.cache_hits = reducer->earlier_cache_hits;
  if (ok)
    reducer_set_best (reducer, result, n_result);
  return ok;
}

/* ---- the user's own steps ---- */

/* Putting the user's releases back one by one (below) takes at most
 * this many tests, and leaving each out in turn is tried for at most this
 * many releases. */
#define REDUCE_PUT_BACK_MAX_TESTS 7

/* The best set with @extra (ascending action numbers) added, in order. */
static GArray *
best_with (Reducer *reducer, const guint *extra, guint n_extra)
{
  GArray *set = g_array_sized_new (FALSE, FALSE, sizeof (guint), reducer->n_best + n_extra);
  guint i = 0, j = 0;

  while (i < reducer->n_best || j < n_extra)
    if (j >= n_extra || (i < reducer->n_best && reducer->best[i] < extra[j]))
      g_array_append_val (set, reducer->best[i++]);
    else
      g_array_append_val (set, extra[j++]);
  return set;
}

/* Tests the best set with each of @n extras added (@extras[k], @n_extras[k]
 * actions), as one batch: the first that fails, in their order, becomes
 * the best set (*@taken its index), or none does (*@taken -1). The batch
 * runs as many at once as the workers do, and its answer is the one its
 * candidates in sequence would give: the same at any -j. */
static gboolean
first_failing_with (Reducer *reducer, guint *const *extras, const guint *n_extras, guint n,
                    gint *taken, GError **error)
{
  g_autoptr (GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree DdCandidate *cands = g_new0 (DdCandidate, n);
  g_autofree DdOutcome *outcomes = g_new (DdOutcome, n);

  for (guint k = 0; k < n; k++)
    {
      GArray *set = best_with (reducer, extras[k], n_extras[k]);

      g_ptr_array_add (sets, set);
      cands[k] = (DdCandidate) { .elems = (const guint *) set->data, .n_elems = set->len };
      outcomes[k] = DD_CANCELLED;
    }
  if (!test_candidates (cands, n, outcomes, reducer, error))
    return FALSE;
  *taken = -1;
  for (guint k = 0; k < n; k++)
    {
      reducer->put_back_tests += outcomes[k] != DD_CANCELLED;
      if (*taken < 0 && outcomes[k] == DD_FAIL)
        *taken = (gint) k;
    }
  if (*taken >= 0)
    {
      GArray *set = g_ptr_array_index (sets, *taken);
      reducer_set_best (reducer, (const guint *) set->data, set->len);
    }
  return TRUE;
}

/* After the search: the user's releases that the failure does without go
 * back in, so that the steps read as the person did them ("Press Alt+P;
 * click Print", not Alt+P held through the click). All at once first (one
 * test). If the failure needs something held, most often it is one key
 * or button: every release but one, each of them left out in turn, as one
 * batch (as many at once as the workers run: one round, not one a
 * release). If the failure needs more than one held, one by one, each test
 * from the last result, as long as that is cheap. A test that cannot run
 * leaves the result as it is. */
static void
put_back_releases (Reducer *reducer)
{
  g_autoptr (GArray) releases = search_dropped_releases (reducer->session, reducer->best,
                                                         reducer->n_best);
  g_autoptr (GError) error = NULL;
  guint before = reducer->n_best, n = releases->len, one_by_one = 0;
  gint taken = -1;

  if (n == 0)
    return;
  reducer->phase = "putting back the user's releases";
  {
    guint *all = (guint *) releases->data;

    if (!first_failing_with (reducer, &all, &n, 1, &taken, &error))
      goto out;
  }
  if (taken < 0 && n > 1 && n <= REDUCE_PUT_BACK_MAX_TESTS)
    {
      /* All but release k, for each k. */
      g_autofree guint *buf = g_new (guint, n * (n - 1));
      g_autofree guint **extras = g_new (guint *, n);
      g_autofree guint *n_extras = g_new (guint, n);

      for (guint k = 0; k < n; k++)
        {
          guint m = 0;

          extras[k] = buf + k * (n - 1);
          for (guint i = 0; i < n; i++)
            if (i != k)
              extras[k][m++] = g_array_index (releases, guint, i);
          n_extras[k] = m;
        }
      if (!first_failing_with (reducer, extras, n_extras, n, &taken, &error))
        goto out;
    }
  /* (With two releases, all but one is one: tried already.) */
  for (guint i = 0; taken < 0 && n > 2 && i < n && one_by_one < REDUCE_PUT_BACK_MAX_TESTS;
       i++, one_by_one++)
    {
      guint *one = &g_array_index (releases, guint, i);
      guint n_one = 1;
      gint ignored;

      if (!first_failing_with (reducer, &one, &n_one, 1, &ignored, &error))
        goto out;
    }
out:
  reducer->n_put_back = reducer->n_best - before;
  if (reducer->n_put_back > 0)
    reducer_say (reducer, "%u of the user's releases put back: the failure holds with them "
                 "(%u test%s)", reducer->n_put_back, reducer->put_back_tests,
                 reducer->put_back_tests == 1 ? "" : "s");
  else if (error == NULL)
    reducer_say (reducer, "the user's releases stay out: with them the failure did not happen (%u "
                 "test%s)", reducer->put_back_tests, reducer->put_back_tests == 1 ? "" : "s");
  else
    reducer_say (reducer, "the user's releases stay out: %s", error->message);
}

/* Does OUT's disk have room for the report's pictures beside the last
 * checks' results? On one nearly full, the report's replay started early
 * would take the room the result needs: its xreplay holds its files open
 * until it ends, so removing its folder frees nothing in time (xreduce
 * kept an earlier result, /reduce/full-disk). It is made after the
 * result then, as without the early start. */
#define REDUCE_EARLY_REPORT_ROOM_MB 64

static gboolean
room_for_early_report (const char *output_path)
{
  g_autofree char *dir = g_path_get_dirname (output_path);
  struct statvfs disk;
  guint64 free_mb;

  if (statvfs (dir, &disk) != 0)
    return TRUE;
  free_mb = (guint64) disk.f_bavail * disk.f_frsize / (1024 * 1024);
  if (free_mb >= REDUCE_EARLY_REPORT_ROOM_MB)
    return TRUE;
  g_debug ("the report's replay does not start early: %" G_GUINT64_FORMAT " MiB free beside "
           "the output", free_mb);
  return FALSE;
}

/* The search is over: the report's replay starts now, beside the last
 * checks (each step left out once more, the releases put back), of the
 * session they most likely leave: the best set with every release the
 * search dropped (the first thing put_back_releases() tries, and what it
 * keeps when the failure holds). reduce_finish() takes it if the result
 * is that session, else drops it: a replay's time saved at the end of
 * every reduction (a browser's start), at the cost of one replay when
 * the guess was wrong. */
static void
start_report_early (Reducer *reducer)
{
  g_autoptr (GArray) releases = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (GError) error = NULL;

  reducer_drop_early_report (reducer);
  if (!reducer->options->report || reducer->runner == NULL)
    return;
  if (!room_for_early_report (reducer->output_path))
    return;
  releases = reducer->options->algorithm == DD_ALGORITHM_HDD
             ? search_dropped_releases (reducer->session, reducer->best, reducer->n_best)
             : g_array_new (FALSE, FALSE, sizeof (guint));
  reducer->early_set = best_with (reducer, (const guint *) releases->data, releases->len);
  reducer->early_line = g_strdupv (reducer->replay_line);
  session = reducer_session_of (reducer, (const guint *) reducer->early_set->data,
                                reducer->early_set->len);
  reducer->early_report = summary_start_replay (reducer->runner, session, reducer->output_path,
                                                &error);
  if (reducer->early_report == NULL)
    {
      /* The report finds out again, and says so. */
      g_debug ("the report's replay does not start early: %s", error->message);
      reducer_drop_early_report (reducer);
    }
}

/* The search, again from the best set each time the verdict changes the
 * premises; at the end, the verdict is in, each step rechecked and the
 * best set saved. */
static gboolean
reduce_search (Reducer *reducer, GError **error)
{
  gboolean with_suffixes = reducer->options->algorithm == DD_ALGORITHM_HDD;

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      gboolean ok;

      reducer->stop = STOP_NONE;
      ok = search_once (reducer, with_suffixes, &local);
      /* Done before the verdict: wait for it, it may change the premises. */
      if (ok && !reducer->judged && !reducer_check_verdict (reducer, TRUE, &local))
        ok = FALSE;
      if (reducer->stop != STOP_NONE)
        {
          with_suffixes = reducer->stop == STOP_RESTART_CUT;
          reducer_say (reducer, "the search starts again from %u action%s, on the verification's "
                       "findings", reducer->n_best, reducer->n_best == 1 ? "" : "s");
          continue;
        }
      if (ok)
        start_report_early (reducer);
      if (ok && reducer->options->algorithm == DD_ALGORITHM_HDD
          && reducer->options->test_argv == NULL && reducer->rechecks < REDUCE_RECHECK_ROUNDS)
        {
          gboolean smaller = FALSE;
          g_autoptr (GError) recheck_error = NULL;

          reducer->rechecks++;
          reducer->phase = "checking each step once more";
          if (reducer_recheck_steps (reducer, &smaller, &recheck_error) && smaller)
            continue;
        }
      if (ok)
        {
          if (reducer->options->algorithm == DD_ALGORITHM_HDD)
            put_back_releases (reducer);
          return reducer_save_best (reducer, error);
        }
      if (reducer->timed_out && !reducer->interrupted)
        {
          /* --limit-time: every test was stopped at the limit, the
           * verification's too. A result, maybe not minimal, if a failing
           * session is known: the verdict, or a candidate that failed. */
          /* The full session failed in a verification replay already:
           * the best known so far. */
          if (!reducer->judged && !reducer->saved
              && verification_get_fails (reducer->verification) > 0
              && !reducer_save_best (reducer, error))
            return FALSE;
          if (reducer->judged || reducer->saved)
            {
              if (!reducer->judged)
                reducer_say (reducer, "time limit of %.0f s reached during the verification: "
                             "%s holds the best session so far (%u actions), one that failed",
                             reducer->options->limit_time, reducer->output_path, reducer->n_best);
              return TRUE;
            }
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                       "time limit of %.0f s reached before the full session was seen to fail: "
                       "nothing written to %s", reducer->options->limit_time,
                       reducer->output_path);
          return FALSE;
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
}

static void
reducer_clear (Reducer *reducer)
{
  /* (Its replay is the runner's.) */
  reducer_drop_early_report (reducer);
  if (reducer->deadline != 0)
    g_source_remove (reducer->deadline);
  if (reducer->ticker != 0)
    g_source_remove (reducer->ticker);
  /* Stops every test, app and Xvfb before the files go. */
  g_clear_pointer (&reducer->runner, runner_free);
  g_clear_pointer (&reducer->workdir, proc_tempdir_free);
  g_clear_pointer (&reducer->verification, verification_free);
  g_clear_pointer (&reducer->journal, journal_free);
  target_clear (&reducer->target);
  g_clear_pointer (&reducer->session, session_free);
  g_strfreev (reducer->app_argv);
  g_strfreev (reducer->xreplay_args);
  g_strfreev (reducer->replay_line);
  g_strfreev (reducer->replay_argv);
  g_free (reducer->xreplay);
  g_free (reducer->output_path);
  g_free (reducer->best);
  g_free (reducer->pool_reason);
  g_free (reducer->wrong_app);
  /* Last: a second Ctrl-C while the tests stop does not cut that short. */
  proc_interrupt_unwatch ();
}

gboolean
reduce_run (const ReduceOptions *options, ReduceSummary *summary, GError **error)
{
  Reducer reducer = { .options = options };
  g_autoptr (GError) local = NULL;
  gboolean ok;

  memset (summary, 0, sizeof *summary);
  reducer.start_us = reducer.last_line_us = g_get_monotonic_time ();
  reducer.tty = isatty (STDERR_FILENO);
  reducer.phase = "verifying that the session fails";
  reducer.ticker = g_timeout_add_seconds (1, reducer_progress_tick, &reducer);
  proc_interrupt_watch (reducer_on_signal, &reducer);
  /* The time limit also holds while the main context is busy (reading
   * a large session): proc_interrupt_get_cancellable(). */
  if (options->limit_time > 0)
    proc_interrupt_set_deadline (reducer.start_us + (gint64) (options->limit_time * G_USEC_PER_SEC));
  if (!reduce_setup (&reducer, &local))
    {
      ok = FALSE;
      /* A signal while a worker's Xvfb started, before the verification
       * was done: nothing to keep. */
      if (proc_interrupt_get_signal () != 0 && reducer.runner == NULL
          && !g_error_matches (local, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED))
        {
          g_clear_error (&local);
          g_set_error (&local, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                       "interrupted before the reduction started: nothing written");
        }
    }
  else
    ok = reduce_search (&reducer, &local);
  if (reducer.runner != NULL)
    ok = reduce_finish (&reducer, ok, summary, &local) && local == NULL;
  if (!ok && local != NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  else if (!ok && error != NULL && *error == NULL)
    g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
  /* Before reducer_clear() forgets it: main() exits 128 + it. */
  summary->signal = proc_interrupt_get_signal ();
  reducer_clear (&reducer);
  return ok;
}

