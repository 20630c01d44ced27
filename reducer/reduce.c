/* reduce.c — the reducer's driver.
 *
 * reduce_run() in three parts: reduce_setup() loads the session, decides
 * the target failure (target.h) and starts the workers (runner.h) and the
 * verification (verify.h); reduce_search() runs dd_reduce_hierarchy() over
 * the session's phrases, gestures and actions (search.h; the last phrases
 * first) with test_candidates() as the oracle, again from the best set
 * whenever the verification's verdict changes the premises; reduce_finish() writes the
 * bug-report folder and says the result (summary.h). Every improvement is
 * saved atomically to the output file (save_best), so Ctrl-C keeps it.
 * How many workers run at once follows what the replays' apps use
 * (pool.h, reducer_observe).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "input.h"
#include "pool.h"
#include "proc.h"
#include "interrupt.h"
#include "quote.h"
#include "replay-args.h"
#include "runner.h"
#include "sandbox.h"
#include "session.h"
#include "search.h"
#include "summary.h"
#include "journal.h"
#include "target.h"
#include "verify.h"
#include "output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

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

/* ---- progress and the best result ---- */

static Session *best_session (Reducer *reducer);

/* The best set's steps: counted when first said (a copy of a session of
 * a million actions is seconds of work). */
static guint
best_n_steps (Reducer *reducer)
{
  if (!reducer->steps_known)
    {
      g_autoptr (Session) best = best_session (reducer);
      g_autoptr (GPtrArray) phrases = session_get_phrases (best);

      reducer->n_best_steps = phrases->len;
      reducer->steps_known = TRUE;
    }
  return reducer->n_best_steps;
}

static void
progress_line (Reducer *reducer, gboolean final)
{
  const DdStats *stats = &reducer->last_stats;
  double t = elapsed_s (reducer);
  guint workers = reducer->runner != NULL ? runner_get_active (reducer->runner) : 0;

  if (reducer->options->quiet || !reducer->tty)
    return;
  best_n_steps (reducer);
  fprintf (stderr, "\r\033[Kxreduce: %" G_GUINT64_FORMAT " tests (%" G_GUINT64_FORMAT
           " cached), %u -> %u actions in %u step%s, %u worker%s, %d:%02d%s",
           stats->tests, stats->cache_hits, reducer->n_before, reducer->n_best,
           reducer->n_best_steps, reducer->n_best_steps == 1 ? "" : "s",
           workers, workers == 1 ? "" : "s", (int) t / 60, (int) t % 60, final ? "\n" : "");
  fflush (stderr);
}

/* Not on a terminal (a CI log, a job's output), a line every
 * REDUCE_PROGRESS_EVERY_S at least, so that a long reduction is never
 * silent long: the phase, the tests, the actions, the best so far; on a
 * terminal the progress line's clock goes on. */
#define REDUCE_PROGRESS_EVERY_S 10

static gboolean
progress_tick (gpointer data)
{
  Reducer *reducer = data;
  const DdStats *stats = &reducer->last_stats;
  double t = elapsed_s (reducer);
  guint workers = reducer->runner != NULL ? runner_get_active (reducer->runner) : 0;

  if (reducer->options->quiet)
    return G_SOURCE_CONTINUE;
  if (reducer->tty)
    {
      progress_line (reducer, FALSE);
      return G_SOURCE_CONTINUE;
    }
  if (g_get_monotonic_time () - reducer->last_line_us < REDUCE_PROGRESS_EVERY_S * G_USEC_PER_SEC)
    return G_SOURCE_CONTINUE;
  reducer_say (reducer, "%s: %" G_GUINT64_FORMAT " tests (%" G_GUINT64_FORMAT " cached), %u -> %u "
               "actions in %u step%s so far, %u worker%s, %d:%02d", reducer->phase, stats->tests,
               stats->cache_hits, reducer->n_before, reducer->n_best, reducer->n_best_steps,
               reducer->n_best_steps == 1 ? "" : "s", workers, workers == 1 ? "" : "s", (int) t / 60,
               (int) t % 60);
  return G_SOURCE_CONTINUE;
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

/* The minimal session's replay line: the timing options the replays had
 * (given on the command line or by the session) and the pace the
 * verification picked, so that `xreplay OUT -- APP` replays it as the
 * reduction did. */
static void
update_replay_line (Reducer *reducer)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_auto (GStrv) given = reducer->options->replay_args != NULL
                           ? replay_args_to_session_options (reducer->options->replay_args)
                           : g_new0 (char *, 1);
  gboolean picked = reducer->verification != NULL
                    && verification_get_recorded_pace (reducer->verification);
  guint max_gap_ms = 0;
  double speed = 1.0;
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (picked)
    verification_get_pace (reducer->verification, &max_gap_ms, &speed);
  for (char **w = given; *w != NULL; w++)
    if (!picked || !(g_str_has_prefix (*w, "pace=") || g_str_has_prefix (*w, "max-gap=")
                     || g_str_has_prefix (*w, "speed=")))
      g_strv_builder_add (words, *w);
  if (picked)
    {
      g_autofree char *gap = g_strdup_printf ("max-gap=%u", max_gap_ms);
      g_autofree char *factor = g_strconcat ("speed=", g_ascii_formatd (number, sizeof number,
                                                                         "%g", speed), NULL);

      g_strv_builder_add (words, "pace=recorded");
      g_strv_builder_add (words, gap);
      if (speed != 1.0)
        g_strv_builder_add (words, factor);
    }
  g_strfreev (reducer->replay_line);
  reducer->replay_line = g_strv_builder_end (words);
  if (reducer->replay_line[0] == NULL)
    g_clear_pointer (&reducer->replay_line, g_strfreev);
}

static Session *
best_session (Reducer *reducer)
{
  Session *best = session_subset (reducer->session, reducer->best, reducer->n_best);
  g_autoptr (GError) error = NULL;

  /* (Each word is one a session may carry, checked: this cannot fail.) */
  if (!session_set_replay_options (best, (const char *const *) reducer->replay_line, &error))
    g_warning ("the minimal session's replay line: %s", error->message);
  return best;
}

/* The copies of the files the app read (--files, or SESSION.files) that
 * @best names, into OUT.files beside OUT, where xreplay OUT finds them:
 * the minimal session replays alone. Private, as the recording's. */
static void
save_files (Reducer *reducer, const Session *best)
{
  const char *from = reducer->options->replay.files_dir;
  g_autofree char *to = g_strconcat (reducer->output_path, ".files", NULL);
  g_autoptr (GPtrArray) files = session_get_files (best);
  g_autoptr (GError) error = NULL;

  if (from == NULL || reducer->files_saved)
    return;
  reducer->files_saved = TRUE;
  for (guint i = 0; i < files->len && error == NULL; i++)
    {
      const SessionEvent *file = g_ptr_array_index (files, i);
      g_autofree char *source = g_build_filename (from, file->sha256, NULL);
      g_autofree char *dest = g_build_filename (to, file->sha256, NULL);
      g_autofree char *data = NULL;
      gsize len = 0;

      if (!file->copied || !g_file_test (source, G_FILE_TEST_IS_REGULAR)
          || g_file_test (dest, G_FILE_TEST_EXISTS))
        continue;
      if ((g_mkdir (to, 0700) != 0 && errno != EEXIST)
          || !g_file_get_contents (source, &data, &len, &error)
          || !output_file_write (dest, data, (gssize) len, OUTPUT_FILE_MODE, &error))
        {
          if (error == NULL)
            g_set_error (&error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", to,
                         g_strerror (errno));
        }
    }
  if (error != NULL)
    {
      g_autofree char *shown = quote_message (error->message);
      g_printerr ("xreduce: warning: the copies of the files the app read are not all beside "
                  "the result: %s\n", shown);
    }
}

static gboolean
save_best (Reducer *reducer, GError **error)
{
  g_autoptr (Session) best = best_session (reducer);
  /* Interrupted, the best so far is no result: its header says so. */
  g_autofree char *comment = g_strdup_printf (
    "%sreduced by xreduce from %s: %u -> %u actions%s",
    reducer->interrupted ? "interrupted, not minimal: " : "", reducer->options->session_path,
    reducer->n_before, reducer->n_best, reducer->interrupted ? " so far" : "");
  char **frames = reducer->target.reference_frames;

  session_add_header_comment (best, comment);
  if (frames != NULL && frames[0] != NULL)
    {
      /* --same-crash: the crash kept, for whoever reads the bug report. */
      g_autofree char *top = g_strjoinv (" < ", frames);
      g_autofree char *crash = g_strdup_printf ("the crash kept: %s (its top frames)", top);
      session_add_header_comment (best, crash);
    }
  if (!reducer->target.by_test && reducer->target.outcome.kind != SESSION_OUTCOME_NONE)
    session_set_outcome (best, reducer->target.outcome, FALSE);
  if (!session_save (best, reducer->output_path, error))
    return FALSE;
  save_files (reducer, best);
  reducer->saved = TRUE;
  reducer->n_saved = reducer->n_best;
  return TRUE;
}

/* The best set's steps (phrases): how many, and in words when they are
 * few enough for one line ("Type "ls /" and press Return; Press Alt+P"),
 * else NULL. */
static char *
best_steps (Reducer *reducer, guint *n_steps)
{
  g_autoptr (Session) best = best_session (reducer);
  g_autoptr (GPtrArray) phrases = session_get_phrases (best);
  g_autoptr (GString) words = g_string_new (NULL);

  *n_steps = phrases->len;
  if (phrases->len > 3)
    return NULL;
  for (guint i = 0; i < phrases->len; i++)
    {
      g_autofree char *said = session_phrase_describe (best, g_ptr_array_index (phrases, i),
                                                       SESSION_WORDS_TERMINAL);
      g_string_append_printf (words, "%s%s", i > 0 ? "; " : "", said);
    }
  return g_string_free (g_steal_pointer (&words), FALSE);
}

static void
on_improved (const guint *elems, guint n, gpointer data)
{
  Reducer *reducer = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *steps = NULL;

  reducer_set_best (reducer, elems, n);
  if (!save_best (reducer, &error))
    reducer_say (reducer, "cannot save the best session so far: %s", error->message);
  steps = best_steps (reducer, &reducer->n_best_steps);
  reducer->steps_known = TRUE;
  if (!reducer->tty)
    reducer_say (reducer, "%u -> %u action%s in %u step%s%s%s after %" G_GUINT64_FORMAT
                 " tests, %.0f s",
                 reducer->n_before, n, n == 1 ? "" : "s", reducer->n_best_steps,
                 reducer->n_best_steps == 1 ? "" : "s", steps != NULL ? ": " : "",
                 steps != NULL ? steps : "", reducer->last_stats.tests, elapsed_s (reducer));
  progress_line (reducer, FALSE);
}

/* ---- the verdict ---- */

/* The verdict is in: the best set becomes the actions up to the crash
 * point if that is smaller, and the output file gets the best set if it
 * has nothing yet. Sets reducer->stop if the search must start again: the
 * session fails only sometimes (passes so far were trusted after one
 * run), or the crash point cuts the best set. */
static gboolean
adopt_verdict (Reducer *reducer, GError **error)
{
  guint crash_point = verification_get_crash_point (reducer->verification);
  guint n_actions = session_get_n_actions (reducer->session);
  gboolean cut = crash_point < reducer->n_best;

  reducer->judged = TRUE;
  reducer->phase = "searching";
  if (cut)
    {
      g_autofree guint *upto = g_new (guint, MAX (crash_point, 1));

      for (guint i = 0; i < crash_point; i++)
        upto[i] = i;
      reducer_set_best (reducer, upto, crash_point);
      reducer->saved = FALSE;
      reducer_say (reducer, "the app crashed after action %u: the %u actions after it are dropped",
                   crash_point, n_actions - crash_point);
    }
  update_replay_line (reducer);
  /* A new pace makes every result so far the old pace's: from the start,
   * suffixes first. */
  reducer->stop = cut || verification_get_recorded_pace (reducer->verification)
                    ? STOP_RESTART_CUT
                  : verification_get_confirm (reducer->verification) > 1 ? STOP_RESTART
                  : STOP_NONE;
  return reducer->saved || save_best (reducer, error);
}

/* Before every batch: once the verdict is in, adopt it; FALSE to stop the
 * search (with an error, or reducer->stop set to restart it). */
static gboolean
check_verdict (Reducer *reducer, gboolean wait, GError **error)
{
  if (reducer->judged)
    return TRUE;
  if (wait)
    {
      if (!verification_wait (reducer->verification, error))
        return FALSE;
    }
  else
    switch (verification_poll (reducer->verification, error))
      {
      case VERIFICATION_PENDING:
        return TRUE;
      case VERIFICATION_FAILED:
        return FALSE;
      case VERIFICATION_DONE:
      default:
        break;
      }
  if (!adopt_verdict (reducer, error))
    return FALSE;
  if (reducer->stop != STOP_NONE)
    {
      g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "restart");
      return FALSE;
    }
  return TRUE;
}

/* ---- the journal: resuming an interrupted reduction ---- */

/* OUT.journal, for this reduction: what decides the outcomes (the
 * session's bytes, the app, the replay options, the failure sought, the
 * algorithm) is its key; an earlier run's outcomes with the same key are
 * reused. */
static gboolean
open_journal (Reducer *reducer, const char *want, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autofree char *bytes = NULL;
  g_autofree char *app = g_strjoinv ("\x1f", reducer->app_argv);
  g_autofree char *replay = g_strjoinv ("\x1f", reducer->xreplay_args);
  g_autofree char *test = options->test_argv != NULL ? g_strjoinv ("\x1f", options->test_argv)
                                                     : g_strdup ("");
  g_autofree char *how = g_strdup_printf ("%d %d %u %d", (int) options->algorithm,
                                          options->same_crash, options->same_crash_frames,
                                          options->signal);
  g_autofree char *path = g_strconcat (reducer->output_path, ".journal", NULL);
  g_autofree char *key = NULL;
  g_autoptr (GError) local = NULL;
  gsize len = 0;
  gsize lengths[6];
  const char *parts[6];

  if (!g_file_get_contents (options->session_path, &bytes, &len, &local))
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
      return FALSE;
    }
  parts[0] = bytes, lengths[0] = len;
  parts[1] = app, parts[2] = replay, parts[3] = test, parts[4] = want, parts[5] = how;
  for (guint i = 1; i < G_N_ELEMENTS (parts); i++)
    lengths[i] = strlen (parts[i]);
  key = journal_make_key (parts, G_N_ELEMENTS (parts), lengths);
  reducer->journal = journal_open (path, key, &local);
  if (reducer->journal == NULL)
    {
      /* No resuming then, but the reduction itself can go on. */
      reducer_say (reducer, "warning: %s: an interruption cannot be resumed", local->message);
      return TRUE;
    }
  if (journal_get_n_loaded (reducer->journal) > 0)
    reducer_say (reducer, "resuming: %u outcomes known from an interrupted run (%s)",
                 journal_get_n_loaded (reducer->journal), path);
  return TRUE;
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

  if (reducer->options->limit_time > 0 && elapsed_s (reducer) > reducer->options->limit_time)
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

  if (!check_verdict (reducer, FALSE, error))
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
  else if (reducer->options->limit_time > 0 && elapsed_s (reducer) > reducer->options->limit_time)
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

  /* Nothing to search before a replay has seen the full session fail: a
   * session that does not fail (or a long one, still replaying at
   * --limit-time) costs no candidate. */
  if (!reducer->judged && !verification_wait_failure (reducer->verification, error))
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
  dd_options.normalize = normalize_candidate;
  dd_options.spare_slots = spare_slots;
  dd_options.progress = on_progress;
  dd_options.improved = on_improved;
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

/* At most this many tests put back the user's releases one by one, when
 * putting them all back at once loses the failure. */
#define REDUCE_PUT_BACK_MAX_TESTS 8

/* Does the best set with @extra (ascending action numbers) added still
 * fail? One test. */
static gboolean
fails_with (Reducer *reducer, const guint *extra, guint n_extra, gboolean *fails, GError **error)
{
  g_autoptr (GArray) set = g_array_sized_new (FALSE, FALSE, sizeof (guint),
                                              reducer->n_best + n_extra);
  DdCandidate candidate = { 0 };
  DdOutcome outcome = DD_CANCELLED;
  guint i = 0, j = 0;

  while (i < reducer->n_best || j < n_extra)
    if (j >= n_extra || (i < reducer->n_best && reducer->best[i] < extra[j]))
      g_array_append_val (set, reducer->best[i++]);
    else
      g_array_append_val (set, extra[j++]);
  candidate.elems = (const guint *) set->data;
  candidate.n_elems = set->len;
  if (!test_candidates (&candidate, 1, &outcome, reducer, error))
    return FALSE;
  reducer->put_back_tests++;
  *fails = outcome == DD_FAIL;
  if (*fails)
    reducer_set_best (reducer, (const guint *) set->data, set->len);
  return TRUE;
}

/* After the search: the user's releases that the failure does without go
 * back in, so that the steps read as the person did them ("Press Alt+P;
 * click Print", not Alt+P held through the click). All at once first (one
 * test); if the failure needs something held, one by one, as long as that
 * is cheap. A test that cannot run leaves the result as it is. */
static void
put_back_releases (Reducer *reducer)
{
  g_autoptr (GArray) releases = search_dropped_releases (reducer->session, reducer->best,
                                                         reducer->n_best);
  g_autoptr (GError) error = NULL;
  gboolean fails = FALSE;
  guint before = reducer->n_best;

  if (releases->len == 0)
    return;
  reducer->phase = "putting back the user's releases";
  if (!fails_with (reducer, (const guint *) releases->data, releases->len, &fails, &error))
    goto out;
  for (guint i = 0; !fails && releases->len > 1 && i < releases->len
                    && reducer->put_back_tests < REDUCE_PUT_BACK_MAX_TESTS; i++)
    {
      gboolean one = FALSE;

      if (!fails_with (reducer, &g_array_index (releases, guint, i), 1, &one, &error))
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
      if (ok && !reducer->judged && !check_verdict (reducer, TRUE, &local))
        ok = FALSE;
      if (reducer->stop != STOP_NONE)
        {
          with_suffixes = reducer->stop == STOP_RESTART_CUT;
          reducer_say (reducer, "the search starts again from %u action%s, on the verification's "
                       "findings", reducer->n_best, reducer->n_best == 1 ? "" : "s");
          continue;
        }
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
          return save_best (reducer, error);
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
              && !save_best (reducer, error))
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

/* ---- set-up ---- */

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

/* --limit-time: the whole run, the verification included, stops here. */
static gboolean
on_deadline (gpointer data)
{
  Reducer *reducer = data;

  reducer->deadline = 0;
  reducer->timed_out = TRUE;
  g_debug ("the time limit, %.1f s into the run", elapsed_s (reducer));
  if (reducer->runner != NULL)
    runner_cancel (reducer->runner);
  return G_SOURCE_REMOVE;
}

/* The session, the app, the target, the output: everything that can be
 * wrong with the user's input, checked before anything starts. */
static gboolean
check_input (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  g_autoptr (GError) local = NULL;
  gboolean recorded;

  reducer->session = session_load_cancellable (options->session_path,
                                               options->replay.max_session_size,
                                               options->replay.max_actions,
                                               proc_interrupt_get_cancellable (), &local);
  if (reducer->session == NULL && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* A signal, or --limit-time, while a large session was read. */
      reducer->timed_out = proc_interrupt_get_signal () == 0;
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED,
                   reducer->timed_out ? "time limit of %.0f s reached while reading the session: "
                                        "nothing written"
                                      : "interrupted while reading the session: nothing written",
                   options->limit_time);
      return FALSE;
    }
  if (reducer->session == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", local->message);
      return FALSE;
    }
  if (session_get_warning (reducer->session) != NULL)
    reducer_say (reducer, "warning: %s", session_get_warning (reducer->session));
  if (session_get_n_actions (reducer->session) == 0)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE,
                   "%s has no user actions: nothing to reduce", options->session_path);
      return FALSE;
    }
  /* What the session says it needs to fail (a reduced session's replay
   * line), where the command line is silent. */
  reducer->replay = options->replay;
  if (options->replay_args != NULL)
    {
      SandboxIsolate isolate = options->replay.isolate;

      if (!replay_args_take_session (options->replay_args, reducer->session, &local))
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s: %s", options->session_path,
                       local->message);
          return FALSE;
        }
      reducer->replay = *replay_args_get_settings (options->replay_args);
      reducer->replay.isolate = isolate;
      reducer->replay_argv = replay_args_to_argv_not_in_session (options->replay_args);
    }
  update_replay_line (reducer);
  if (!input_check_screen (options, reducer->session, error))
    return FALSE;
  if (!input_choose_app (options, reducer->session, &reducer->app_argv, &recorded, error))
    return FALSE;
  if (recorded)
    {
      g_autofree char *shown = quote_command_line ((const char *const *) reducer->app_argv);
      reducer_say (reducer, "running the recorded command: %s", shown);
    }
  reducer->target.by_test = options->test_argv != NULL;
  reducer->target.stderr_match = options->stderr_match;
  reducer->target.same_crash = options->same_crash;
  reducer->target.same_crash_frames = options->same_crash_frames;
  if (!target_decide (&reducer->target, reducer->session, options->session_path,
                      options->signal, error))
    return FALSE;
  if (options->stderr_match != NULL)
    {
      g_autoptr (GRegex) regex = g_regex_new (options->stderr_match, 0, 0, &local);
      if (regex == NULL)
        {
          g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "--stderr-match: %s",
                       local->message);
          return FALSE;
        }
    }
  return input_check_output (options, &reducer->output_path, error);
}

/* Every replay makes a sandbox (sandbox.h): one made here first says at
 * once, before any server starts, what would stop them all (a --home that
 * cannot be copied, no dbus-daemon); with --share-home and parallel
 * workers, a warning. */
static gboolean
check_sandbox (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  SandboxOptions sandbox_options = { .home_seed = options->replay.home_seed };
  g_autoptr (GError) local = NULL;
  g_autoptr (Sandbox) sandbox = NULL;

  if (options->test_argv != NULL)
    return TRUE;
  if (options->replay.share_home)
    {
      if (options->jobs != 1 && options->algorithm == DD_ALGORITHM_HDD)
        reducer_say (reducer, "warning: --share-home with parallel workers: the replays share your "
                     "HOME and session bus, and a single-instance app or a profile lock makes them "
                     "fail each other (-j 1 avoids it)");
      return TRUE;
    }
  sandbox = sandbox_new (&sandbox_options, &local);
  if (sandbox == NULL)
    {
      g_set_error (error, REDUCE_ERROR,
                   g_error_matches (local, SANDBOX_ERROR, SANDBOX_ERROR_BAD_HOME)
                     ? REDUCE_ERROR_USAGE : REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
reduce_setup (Reducer *reducer, GError **error)
{
  const ReduceOptions *options = reducer->options;
  RunnerOptions runner_options = { 0 };
  g_autoptr (GError) local = NULL;
  g_autofree char *want = NULL;
  guint n_actions, max_workers;

  if (!check_input (reducer, error))
    return FALSE;
  reducer->xreplay = options->xreplay != NULL ? g_strdup (options->xreplay) : find_xreplay ();
  if (reducer->xreplay == NULL && options->test_argv == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  if (!check_sandbox (reducer, error))
    return FALSE;
  reducer->xreplay_args = replay_args_common ((const char *const *) options->xreplay_args,
                                             options->stderr_match, options->same_crash);
  reducer->workdir = proc_tempdir_new ("xreduce-XXXXXX", &local);
  if (reducer->workdir == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }

  /* At most three workers a core by default: a replay of a small app
   * mostly waits, using a few per cent of a core; the pool (pool.h) runs
   * fewer at once when the app is heavier. */
  max_workers = options->algorithm == DD_ALGORITHM_DDMIN ? 1
                : options->launcher_argv != NULL ? pool_launcher_slots (options->jobs, g_getenv ("SLURM_NTASKS"))
                : options->jobs > 0 ? options->jobs : 3 * g_get_num_processors ();
  /* A window manager (--wm) runs on each replay's own Xvfb, which xreplay
   * starts with it: a worker's server, reused, would keep the last one's
   * properties on its root (and xreplay takes --wm or --display). */
  runner_options.fresh_server = options->algorithm == DD_ALGORITHM_DDMIN
                                || reducer->replay.wm_argv != NULL;
  session_get_screen (reducer->session, &runner_options.screen_width,
                      &runner_options.screen_height);
  /* Every worker's Xvfb holds its screen from the start: no more workers
   * than half the available memory holds (a 8192x8192 screen is some
   * 500 MB a worker). */
  pool_init (&reducer->pool, max_workers, g_get_num_processors (),
             pool_read_mem_available_kb ());
  /* Through a launcher the screens are held where the replays run. */
  if (options->launcher_argv == NULL)
    pool_set_screen (&reducer->pool, runner_options.screen_width, runner_options.screen_height);
  if (reducer->pool.max_workers < max_workers)
    reducer_say (reducer, "%u worker%s at most: each one's X server holds %" G_GUINT64_FORMAT
                 " MB for its %dx%d screen", reducer->pool.max_workers,
                 reducer->pool.max_workers == 1 ? "" : "s", reducer->pool.screen_kb / 1024,
                 runner_options.screen_width, runner_options.screen_height);
  max_workers = reducer->pool.max_workers;
  runner_options.workers = max_workers;
  runner_options.xreplay = reducer->xreplay;
  runner_options.xreplay_args = reducer->xreplay_args;
  runner_options.app_argv = reducer->app_argv;
  runner_options.test_argv = options->test_argv;
  runner_options.workdir = proc_tempdir_get_path (reducer->workdir);
  runner_options.launcher_argv = options->launcher_argv;
  reducer->runner = runner_new (&runner_options, &local);
  if (reducer->runner == NULL)
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      return FALSE;
    }
  if (options->test_timeout_ms > 0)
    runner_set_test_timeout (reducer->runner, options->test_timeout_ms);
  pool_read_busy (reducer->cpu_jiffies);
  if (options->launcher_argv != NULL)
    {
      g_free (reducer->pool_reason);
      reducer->pool_reason = g_strdup_printf ("%u launcher slot%s (%s)", max_workers,
                                              max_workers == 1 ? "" : "s",
                                              options->jobs > 0 ? "-j"
                                              : g_getenv ("SLURM_NTASKS") != NULL
                                              ? "SLURM_NTASKS" : "the default; -j N for more");
    }
  else if (options->algorithm == DD_ALGORITHM_HDD && options->test_argv == NULL)
    runner_set_active (reducer->runner, pool_fit (&reducer->pool, NULL));
  runner_set_observer (reducer->runner, reducer_observe, reducer);
  /* From the start of the run, not from here: the workers' X servers
   * took their time already. */
  if (options->limit_time > 0)
    reducer->deadline = g_timeout_add ((guint) CLAMP ((options->limit_time - elapsed_s (reducer))
                                                      * 1000, 0, G_MAXUINT),
                                       on_deadline, reducer);

  n_actions = session_get_n_actions (reducer->session);
  want = target_describe (&reducer->target);
  if (options->launcher_argv != NULL)
    reducer_say (reducer, "%u actions; reducing for: %s; %s", n_actions, want,
                 reducer->pool_reason);
  else
    reducer_say (reducer, "%u actions; reducing for: %s; up to %u worker%s", n_actions, want,
                 max_workers, max_workers == 1 ? "" : "s");
  if (!open_journal (reducer, want, error))
    return FALSE;
  reducer_start_learning (reducer);
  reducer->n_before = n_actions;
  {
    g_autofree guint *all = g_new (guint, n_actions);

    for (guint i = 0; i < n_actions; i++)
      all[i] = i;
    reducer_set_best (reducer, all, n_actions);
  }
  /* The verification starts; the baseline, and --same-crash (whose
   * oracle needs the original crash's frames), wait for its verdict, the
   * hierarchical search starts beside it. Until then the best set is the
   * whole session, not written anywhere: it may not fail. */
  reducer->verification = verification_start (reducer->runner, reducer->session,
                                              &reducer->target, &reducer->replay,
                                              options->verify_runs,
                                              !reducer->replay.pace_given && options->test_argv == NULL,
                                              options->quiet);
  verification_set_world (reducer->verification, options->replay.files_dir,
                          options->replay.wm_argv != NULL);
  /* `outcome unknown`: the search waits for the failure to reduce for. */
  if (options->algorithm == DD_ALGORITHM_DDMIN || options->same_crash
      || target_is_unknown (&reducer->target))
    {
      if (!verification_wait (reducer->verification, error)
          || !adopt_verdict (reducer, error))
        return FALSE;
      reducer->stop = STOP_NONE;
    }
  return TRUE;
}

/* ---- the end ---- */

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
  reduction->seconds = elapsed_s (reducer);
  reduction->one_minimal = ok && reducer->last_stats.one_minimal_verified && !reducer->timed_out;
  reduction->stopped_early = reducer->last_stats.hit_limit || reducer->timed_out;
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

  if (!save_best (reducer, &local))
    g_clear_error (&local);   /* the earlier save stands */
  reduction->interrupted = TRUE;
  if (reducer->options->report)
    {
      RunResult replay = { 0 };

      runner_resume (reducer->runner);
      runner_set_window_wait (reducer->runner, 0);
      runner_set_settle (reducer->runner, 0);
      if (!summary_write_report (reducer->runner, best, reduction, &report_md, &replay, &local))
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

/* After the search (@ok) or its failure: the report, the result, the
 * summary; FALSE with @error if the reduction is not a success. */
static gboolean
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

  progress_line (reducer, TRUE);
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
  if (!ok && reducer->wrong_app != NULL)
    {
      /* Nothing reduced: the journal and the output say nothing. */
      if (reducer->journal != NULL)
        journal_remove (reducer->journal);
      g_clear_error (error);
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_USAGE, "%s", reducer->wrong_app);
      return FALSE;
    }
  if (!ok)
    {
      summary->saved = reducer->saved;
      /* Kept for the same command run again only when interrupted. */
      if (!reducer->interrupted && !reducer->timed_out && reducer->journal != NULL)
        journal_remove (reducer->journal);
      if (reducer->interrupted && reducer->saved)
        {
          best = best_session (reducer);
          interrupted_report (reducer, &reduction, best, summary, error);
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
  best = best_session (reducer);
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
      if (!summary_write_report (reducer->runner, best, &reduction, &report_md, &report_replay,
                                 &report_error)
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

static void
reducer_clear (Reducer *reducer)
{
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
  reducer.ticker = g_timeout_add_seconds (1, progress_tick, &reducer);
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
