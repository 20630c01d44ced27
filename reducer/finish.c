/* finish.c — the end of a reduction (see reduce-private.h):
 * reduce_finish() says what the run cost, then writes the report and says
 * the result (summary.h), or says why there is none: another app than the
 * session's, stopped, or interrupted (the best session so far saved
 * again, marked so, with its own report: interrupted_report).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "interrupt.h"
#include "summary.h"

#include <string.h>

static void
fill_reduction (Reducer *reducer, Reduction *reduction, gboolean ok)
{
  memset (reduction, 0, sizeof *reduction);
  reduction->session_path = reducer->options->session_path;
  reduction->output_path = reducer->output_path;
  reduction->n_before = reducer->n_before;
  reduction->n_after = reducer->n_best;
  /* What the journal answered was run by an earlier, interrupted run. */
  reduction->tests = reducer->earlier_tests - MIN (reducer->journal_hits, reducer->earlier_tests)
                     + reducer->put_back_tests + reducer->rechecked;
  reduction->put_back = reducer->n_put_back;
  reduction->put_back_tests = reducer->put_back_tests;
  reduction->speculative = reducer->earlier_speculative
                           - MIN (reducer->journal_hits_speculative, reducer->earlier_speculative);
  reduction->cache_hits = reducer->earlier_cache_hits;
  reduction->journal_hits = reducer->journal_hits;
  reduction->seconds = reducer_elapsed_s (reducer);
  reduction->one_minimal = ok && reducer->last_stats.one_minimal_verified && !reducer->timed_out;
  reduction->stopped_early = reducer->last_stats.hit_limit || reducer->timed_out;
  reduction->inferred = reduction->one_minimal ? reducer->last_stats.inferred : 0;
  reduction->target = &reducer->target;
  if (reducer->judged)
    {
      reduction->verify_fails = verification_get_fails (reducer->verification);
      reduction->verify_runs = verification_get_runs (reducer->verification);
      reduction->confirm = verification_get_confirm (reducer->verification);
    }
  reduction->ddmin = reducer->options->algorithm == DD_ALGORITHM_DDMIN;
  reduction->replay_line = (const char *const *) reducer->replay_line;
  reduction->replay_argv = (const char *const *) reducer->replay_argv;
  reduction->recorded_pace = reducer->replay.pace == REPLAY_PACE_RECORDED
                             || (reducer->judged
                                 && verification_get_recorded_pace (reducer->verification));
  reduction->pace_picked = reducer->judged && verification_get_recorded_pace (reducer->verification);
  reduction->workers = runner_get_n_workers (reducer->runner);
  runner_get_usage (reducer->runner, &reduction->usage);
  reduction->pool_reason = reducer->pool_reason;
  reduction->window_wait_ms = reducer->window_wait_ms;
  reduction->window_latency_ms = reducer->window_latency_ms;
  reduction->settle_ms = reducer->settle_ms;
  reduction->confirmed = reducer->confirmed;
  reduction->overturned = reducer->overturned;
  reduction->failure_delay_ms = reducer->failure_delay_ms;
}

/* Ctrl-C after the verification: the best session so far is saved again,
 * its header marked "interrupted, not minimal", and gets a report marked
 * so too (one more replay; a second Ctrl-C stops it). @error becomes the
 * one message that says all of it. */
static void
interrupted_report (Reducer *reducer, Reduction *reduction, const Session *best,
                    ReduceSummary *summary, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *report_md = NULL;
  g_autofree char *where = NULL;

  if (!reducer_save_best (reducer, &local))
    g_clear_error (&local);   /* the earlier save stands */
  reduction->interrupted = TRUE;
  if (reducer->options->report)
    {
      RunResult replay = { 0 };

      runner_resume (reducer->runner);
      runner_set_window_wait (reducer->runner, 0);
      runner_set_settle (reducer->runner, 0);
      if (!summary_write_report (reducer->runner, best, reduction, NULL, &report_md, &replay,
                                 &local))
        g_clear_pointer (&report_md, g_free);
      run_result_clear (&replay);
    }
  summary->report_path = g_strdup (report_md);
  where = report_md != NULL ? g_strdup_printf (", its report in %s", report_md)
          : g_strdup (reducer->options->report ? " (no report: interrupted again)" : "");
  g_clear_error (error);
  g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
               "interrupted after %" G_GUINT64_FORMAT " tests: the best session so far "
               "(%u actions, not minimal) is in %s%s; run the same command again to resume",
               reduction->tests, reducer->n_best, reducer->output_path, where);
}

/* The report's replay started beside the last checks, if its session is
 * the result: the actions and the replay line (else it is dropped). */
static SummaryReplay *
take_early_report (Reducer *reducer)
{
  SummaryReplay *early = NULL;

  if (reducer->early_report != NULL && reducer->early_set->len == reducer->n_best
      && memcmp (reducer->early_set->data, reducer->best, reducer->n_best * sizeof (guint)) == 0
      && ((reducer->early_line == NULL && reducer->replay_line == NULL)
          || (reducer->early_line != NULL && reducer->replay_line != NULL
              && g_strv_equal ((const char *const *) reducer->early_line,
                               (const char *const *) reducer->replay_line))))
    {
      early = g_steal_pointer (&reducer->early_report);
      g_debug ("the report's replay started beside the last checks: its session is the result");
    }
  else if (reducer->early_report != NULL)
    g_debug ("the report's replay started beside the last checks is not the result's: again");
  reducer_drop_early_report (reducer);
  return early;
}

/* A signal during the last checks (the report's replay runs beside
 * them): the search's result is saved, the report not begun; the journal
 * stays, for the same command to write it. FALSE. */
static gboolean
interrupted_checks (Reducer *reducer, const Reduction *reduction, const Session *best,
                    ReduceSummary *summary, GError **error)
{
  g_clear_error (error);
  g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
               "interrupted after the search, before the report was written; the reduced "
               "session (%u actions) is in %s; run the same command again for the report",
               reducer->n_best, reducer->output_path);
  summary->saved = reducer->saved;
  if (!reducer->options->json)
    summary_print (reduction, best, reducer->app_argv, NULL);
  return FALSE;
}

/* reduce_finish() without a result: why, said; FALSE. */
static gboolean
finish_failed (Reducer *reducer, Reduction *reduction, ReduceSummary *summary, GError **error)
{
  g_autoptr (Session) best = NULL;

  if (reducer->wrong_app != NULL)
    {
      /* Nothing reduced: the journal and the output say nothing. */
      if (reducer->journal != NULL)
        journal_remove (reducer->journal);
      g_clear_error (error);
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", reducer->wrong_app);
      return FALSE;
    }
  summary->saved = reducer->saved;
  /* Kept for the same command run again only when interrupted. */
  if (!reducer->interrupted && !reducer->timed_out && reducer->journal != NULL)
    journal_remove (reducer->journal);
  if (reducer->interrupted && reducer->saved)
    {
      best = reducer_best_session (reducer);
      interrupted_report (reducer, reduction, best, summary, error);
    }
  else if (reducer->interrupted)
    {
      g_clear_error (error);
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                   "interrupted before the verification was over: nothing written to %s; "
                   "run the same command again to resume", reducer->output_path);
    }
  else if (reducer->saved || reducer->n_saved > 0)
    g_printerr ("xreduce: stopped; %s holds an earlier result (%u actions), not the "
                "minimal one\n", reducer->output_path, reducer->n_saved);
  else
    g_printerr ("xreduce: stopped; nothing written to %s\n", reducer->output_path);
  return FALSE;
}

/* After the search (@ok) or its failure: the report, the result, the
 * summary; FALSE with @error if the reduction is not a success. */
gboolean
reduce_finish (Reducer *reducer, gboolean ok, ReduceSummary *summary, GError **error)
{
  /* Made only where a result is written: a copy of a long session costs
   * a second, which an interrupt before the verification is over must
   * not wait for. */
  g_autoptr (Session) best = NULL;
  g_autoptr (GError) report_error = NULL;
  g_autofree char *report_md = NULL;
  g_autofree char *pool_reason = NULL;
  RunResult report_replay = { 0 };
  Reduction reduction;

  reducer_progress_line (reducer, TRUE);
  /* Interrupted (or stopped) between the first failure and the next
   * batch: the improvement found beside the verification is kept. */
  reducer_save_if_due (reducer);
  fill_reduction (reducer, &reduction, ok);
  /* The report's replay is a result too (on_result): it may replace
   * reducer->pool_reason while the summary still points to it. */
  pool_reason = g_strdup (reduction.pool_reason);
  reduction.pool_reason = pool_reason;
  summary->n_before = reduction.n_before;
  summary->n_after = reduction.n_after;
  summary->tests = reduction.tests;
  summary->cache_hits = reduction.cache_hits;
  summary->seconds = reduction.seconds;
  summary->one_minimal = reduction.one_minimal;
  summary->stopped_early = reduction.stopped_early;
  summary->output_path = g_strdup (reducer->output_path);
  {
    const char *last = NULL;
    guint n_infra = runner_get_n_infra (reducer->runner, &last);

    /* Said even with --quiet: the figures of a run that fought its
     * infrastructure are not those of a quiet one. */
    if (n_infra > 0)
      g_printerr ("xreduce: %u test%s ran again after an infrastructure failure (an X server%s "
                  "or xreplay that died, stopped or passed its time limit); the last: %s\n",
                  n_infra, n_infra == 1 ? "" : "s",
                  reducer->options->launcher_argv != NULL ? ", the launcher" : "",
                  last != NULL ? last : "?");
  }
  if (!ok)
    return finish_failed (reducer, &reduction, summary, error);
  best = reducer_best_session (reducer);
  /* (The signal's latch: its callback may not have run yet.) */
  if (reducer->interrupted || proc_interrupt_get_signal () != 0)
    return interrupted_checks (reducer, &reduction, best, summary, error);
  if (reducer->journal != NULL && !reduction.stopped_early)
    journal_remove (reducer->journal);
  summary->saved = TRUE;
  if (reducer->options->report)
    {
      reducer->phase = "replaying the result for the report";
      /* The report's replay waits the full --window-wait and --settle;
       * at --limit-time too (the tests stopped: one replay more, for the
       * best result). */
      runner_resume (reducer->runner);
      runner_set_window_wait (reducer->runner, 0);
      runner_set_settle (reducer->runner, 0);
      if (!summary_write_report (reducer->runner, best, &reduction, take_early_report (reducer),
                                 &report_md, &report_replay, &report_error)
          && g_error_matches (report_error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED))
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                       "interrupted while writing the report; the minimal session "
                       "(%u actions) is in %s", reducer->n_best, reducer->output_path);
          if (!reducer->options->json)
            summary_print (&reduction, best, reducer->app_argv, NULL);
          run_result_clear (&report_replay);
          return FALSE;
        }
      /* Never exit 0 without the report asked for (a full disk): the
       * minimal session is complete in OUT, the report is not there. */
      if (report_error != NULL)
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                       "cannot write the report %s.report: %s; the minimal session (%u "
                       "actions) is in %s (--no-report: none)", reducer->output_path,
                       report_error->message, reducer->n_best, reducer->output_path);
          if (!reducer->options->json)
            summary_print (&reduction, best, reducer->app_argv, NULL);
          run_result_clear (&report_replay);
          return FALSE;
        }
    }
  summary->report_path = g_strdup (report_md);
  if (reducer->options->json)
    {
      g_autofree char *json = summary_json (&reduction, best, report_md,
                                            report_md != NULL ? &report_replay : NULL);
      g_print ("%s\n", json);
    }
  else
    summary_print (&reduction, best, reducer->app_argv, report_md);
  run_result_clear (&report_replay);
  return TRUE;
}

