/* best.c — the best result of the reducer's driver (see reduce-private.h):
 * the progress line and the lines said while the search improves it
 * (reducer_on_progress, reducer_on_improved, reducer_progress_tick), the
 * minimal session made from the best set and saved atomically to the
 * output file (reducer_save_best: Ctrl-C keeps it, with the copies of the
 * files the app read), and the verification's verdict adopted
 * (reducer_check_verdict before every batch). Start reading at
 * reducer_on_improved().
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "reduce-private.h"
#include "output.h"
#include "quote.h"
#include "summary.h"

#include <errno.h>
#include <stdio.h>
#include <glib/gstdio.h>

double
reducer_elapsed_s (Reducer *reducer)
{
  return (g_get_monotonic_time () - reducer->start_us) / 1e6;
}

/* The best set's steps: counted when first said (a copy of a session of
 * a million actions is seconds of work). */
static guint
best_n_steps (Reducer *reducer)
{
  if (!reducer->steps_known)
    {
      g_autoptr (Session) best = reducer_best_session (reducer);
      g_autoptr (GPtrArray) phrases = session_get_phrases (best);

      reducer->n_best_steps = phrases->len;
      reducer->steps_known = TRUE;
    }
  return reducer->n_best_steps;
}

void
reducer_progress_line (Reducer *reducer, gboolean final)
{
  const DdStats *stats = &reducer->last_stats;
  double t = reducer_elapsed_s (reducer);
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

gboolean
reducer_progress_tick (gpointer data)
{
  Reducer *reducer = data;
  const DdStats *stats = &reducer->last_stats;
  double t = reducer_elapsed_s (reducer);
  guint workers = reducer->runner != NULL ? runner_get_active (reducer->runner) : 0;

  if (reducer->options->quiet)
    return G_SOURCE_CONTINUE;
  if (reducer->tty)
    {
      reducer_progress_line (reducer, FALSE);
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

void
reducer_on_progress (const DdStats *stats, gpointer data)
{
  Reducer *reducer = data;

  reducer->last_stats = *stats;
  reducer->last_stats.tests += reducer->earlier_tests;
  reducer->last_stats.cache_hits += reducer->earlier_cache_hits;
  reducer_progress_line (reducer, FALSE);
}

/* The minimal session's replay line: the timing options the replays had
 * (given on the command line or by the session) and the pace the
 * verification picked, so that `xreplay OUT -- APP` replays it as the
 * reduction did. */
void
reducer_update_replay_line (Reducer *reducer)
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

Session *
reducer_best_session (Reducer *reducer)
{
  return reducer_session_of (reducer, reducer->best, reducer->n_best);
}

void
reducer_drop_early_report (Reducer *reducer)
{
  g_clear_pointer (&reducer->early_report, summary_replay_free);
  g_clear_pointer (&reducer->early_set, g_array_unref);
  g_clear_pointer (&reducer->early_line, g_strfreev);
}

Session *
reducer_session_of (Reducer *reducer, const guint *set, guint n)
{
  Session *best = session_subset (reducer->session, set, n);
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

/* session_save() to the output; where its disk has no room left, the
 * result comes before what else xreduce keeps there: the report's replay
 * begun beside the last checks (its pictures: the report is made again
 * once the result is saved), then the journal (which only spares tests
 * to a run resumed after an interruption). Each goes in turn, and the
 * save is tried again. */
static gboolean
session_save_keeping (Reducer *reducer, const Session *best, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (session_save (best, reducer->output_path, &local))
    return TRUE;
  if (g_error_matches (local, SESSION_ERROR, SESSION_ERROR_NO_SPACE)
      && reducer->early_report != NULL)
    {
      g_debug ("no room on the disk for the result beside the report's early replay: "
               "that replay is dropped");
      reducer_drop_early_report (reducer);
      g_clear_error (&local);
      if (session_save (best, reducer->output_path, &local))
        return TRUE;
    }
  if (g_error_matches (local, SESSION_ERROR, SESSION_ERROR_NO_SPACE) && reducer->journal != NULL
      && journal_remove (reducer->journal))
    {
      g_printerr ("xreduce: warning: no room on the disk for both the result and the journal: "
                  "the journal is gone, so an interrupted run will start afresh\n");
      g_clear_error (&local);
      if (session_save (best, reducer->output_path, &local))
        return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
reducer_save_best (Reducer *reducer, GError **error)
{
  g_autoptr (Session) best = reducer_best_session (reducer);
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
  if (!session_save_keeping (reducer, best, error))
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
  g_autoptr (Session) best = reducer_best_session (reducer);
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

void
reducer_on_improved (const guint *elems, guint n, gpointer data)
{
  Reducer *reducer = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *steps = NULL;

  reducer_set_best (reducer, elems, n);
  /* Nothing is written before a replay has seen the full session fail
   * (the search may start beside the verification: reduce.c). */
  reducer->save_due = !reducer->judged && verification_get_fails (reducer->verification) == 0;
  if (!reducer->save_due && !reducer_save_best (reducer, &error))
    reducer_say (reducer, "cannot save the best session so far: %s", error->message);
  steps = best_steps (reducer, &reducer->n_best_steps);
  reducer->steps_known = TRUE;
  if (!reducer->tty)
    reducer_say (reducer, "%u -> %u action%s in %u step%s%s%s after %" G_GUINT64_FORMAT
                 " tests, %.0f s",
                 reducer->n_before, n, n == 1 ? "" : "s", reducer->n_best_steps,
                 reducer->n_best_steps == 1 ? "" : "s", steps != NULL ? ": " : "",
                 steps != NULL ? steps : "", reducer->last_stats.tests,
                 reducer_elapsed_s (reducer));
  reducer_progress_line (reducer, FALSE);
}

/* ---- the verdict ---- */

/* The verdict is in: the best set becomes the actions up to the crash
 * point if that is smaller, and the output file gets the best set if it
 * has nothing yet. Sets reducer->stop if the search must start again: the
 * session fails only sometimes (passes so far were trusted after one
 * run), or the crash point cuts the best set. */
gboolean
reducer_adopt_verdict (Reducer *reducer, GError **error)
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
  reducer_update_replay_line (reducer);
  /* A new pace makes every result so far the old pace's: from the start,
   * suffixes first. */
  reducer->stop = cut || verification_get_recorded_pace (reducer->verification)
                    ? STOP_RESTART_CUT
                  : verification_get_confirm (reducer->verification) > 1 ? STOP_RESTART
                  : STOP_NONE;
  return reducer->saved || reducer_save_best (reducer, error);
}

/* Before every batch: once the verdict is in, adopt it; FALSE to stop the
 * search (with an error, or reducer->stop set to restart it). */
/* An improvement found before a replay had seen the full session fail
 * is saved once one has (reducer_on_improved). */
void
reducer_save_if_due (Reducer *reducer)
{
  g_autoptr (GError) local = NULL;

  if (!reducer->save_due || reducer->verification == NULL
      || verification_get_fails (reducer->verification) == 0)
    return;
  reducer->save_due = FALSE;
  if (!reducer_save_best (reducer, &local))
    reducer_say (reducer, "cannot save the best session so far: %s", local->message);
}

gboolean
reducer_check_verdict (Reducer *reducer, gboolean wait, GError **error)
{
  reducer_save_if_due (reducer);
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
  if (!reducer_adopt_verdict (reducer, error))
    return FALSE;
  if (reducer->stop != STOP_NONE)
    {
      g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "restart");
      return FALSE;
    }
  return TRUE;
}
