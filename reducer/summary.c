/* summary.c — the result and the bug-report folder (see summary.h).
 *
 * Start reading at summary_write_report().
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "summary.h"
#include "jsonio.h"
#include "output.h"
#include "plaintext.h"
#include "proc.h"
#include "quote.h"
#include "reduce-options.h"
#include "signame.h"

#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>

char *
summary_relative_path (const char *from_dir, const char *path)
{
  return output_relative_path (from_dir, path);
}

/* The sessions, before and after, the failure kept and the user's
 * releases put back. */
static void
append_sessions (GString *md, const Reduction *r, const char *report_dir, guint n_in_file)
{
  g_autofree char *want = target_describe (r->target);
  g_autofree char *original = summary_relative_path (report_dir, r->session_path);
  g_autofree char *minimal = summary_relative_path (report_dir, r->output_path);
  g_autofree char *original_md = quote_markdown_code (original);
  g_autofree char *minimal_md = quote_markdown_code (minimal);

  /* Paths as seen from the report: it is read where it is attached. */
  g_string_append_printf (md, "- Original session: %s, %u user actions\n", original_md,
                          r->n_before);
  g_string_append_printf (md, "- Minimal session: %s (the same as session.log here)\n",
                          minimal_md);
  g_string_append_printf (md, "- Actions: %u before, %u after", r->n_before, r->n_after);
  if (n_in_file > r->n_after)
    g_string_append_printf (md, " (and %u release%s that xreduce added, so that nothing "
                            "stays pressed)", n_in_file - r->n_after,
                            n_in_file - r->n_after == 1 ? "" : "s");
  g_string_append_printf (md, "\n- Failure kept: %s\n", want);
  if (r->put_back_tests > 0 && r->put_back > 0)
    g_string_append_printf (md, "- The user's releases: %u put back after the search, as the "
                            "failure holds with them, so that the steps read as done (%u "
                            "test%s)\n", r->put_back, r->put_back_tests,
                            r->put_back_tests == 1 ? "" : "s");
  else if (r->put_back_tests > 0)
    g_string_append_printf (md, "- The user's releases: none put back after the search: with "
                            "them the failure did not happen (%u test%s)\n",
                            r->put_back_tests, r->put_back_tests == 1 ? "" : "s");
}

/* What the search cost: the verification, the tests, the wall time, the
 * algorithm and its workers. */
static void
append_costs (GString *md, const Reduction *r)
{
  int seconds = (int) (r->seconds + 0.5);

  g_string_append_printf (md, "- Verification: the full session failed in %u of %u replays, "
                          "the empty session passed", r->verify_fails, r->verify_runs);
  if (r->confirm > 1)
    g_string_append_printf (md, "; flaky: every pass confirmed %u times (95%% confidence)",
                            r->confirm);
  g_string_append (md, "\n");
  g_string_append_printf (md, "- Tests run: %" G_GUINT64_FORMAT " (and %" G_GUINT64_FORMAT
                          " answered from the cache)\n", r->tests, r->cache_hits);
  if (r->workers > 1)
    g_string_append_printf (md, "- Speculative tests: %" G_GUINT64_FORMAT " of the %"
                            G_GUINT64_FORMAT " (what the next rounds of the search would ask, "
                            "run on workers it left idle)\n", r->speculative, r->tests);
  if (r->journal_hits > 0)
    g_string_append_printf (md, "- Resumed: %" G_GUINT64_FORMAT " outcomes from the journal of "
                            "an interrupted run, not run again\n", r->journal_hits);
  g_string_append_printf (md, "- Wall time: %d:%02d (%.1f s)\n", seconds / 60, seconds % 60,
                          r->seconds);
  g_string_append_printf (md, "- Algorithm: %s, %u worker%s%s%s\n",
                          r->ddmin ? "ddmin (the original sequential ddmin)"
                                   : "hdd (phrases, gestures, then single actions; "
                                     "complement-first)",
                          r->workers, r->workers == 1 ? "" : "s",
                          r->pool_reason != NULL ? "; at the end " : "",
                          r->pool_reason != NULL ? r->pool_reason : "");
  if (r->workers > 1 && r->usage.batches > 0)
    g_string_append_printf (md, "- Workers busy: %u%% of the time; in %u of %u rounds the "
                            "search had fewer candidates than workers, speculative ones "
                            "included%s\n",
                            r->usage.busy_percent, r->usage.short_batches, r->usage.batches,
                            2 * r->usage.short_batches > r->usage.batches
                              ? " (more workers would not have made it faster)" : "");
}

/* The replays' timing: the pace, the replay options the failure needs,
 * the waits learnt, the late failures. */
static void
append_timing (GString *md, const Reduction *r)
{
  if (r->recorded_pace)
    g_string_append_printf (md, "- Pace: recorded (the gaps of the recording)%s\n",
                            r->pace_picked ? ": the full session failed only so, not at the "
                                             "app's pace" : "");
  if (r->replay_line != NULL)
    {
      g_autofree char *words = g_strjoinv (" ", (char **) r->replay_line);
      g_autofree char *code = quote_markdown_code (words);

      g_string_append_printf (md, "- Replay options the failure needs: %s, in the minimal "
                              "session's `replay` line (xreplay takes them from it)\n", code);
    }
  else
    g_string_append (md, "- Pace: the app's (each action once the app had taken the one "
                         "before)\n");
  if (r->window_wait_ms > 0)
    g_string_append_printf (md, "- Window wait: %u ms, learnt from the replays (the app's windows "
                            "appeared within %" G_GINT64_FORMAT " ms of an action); this report's "
                            "replay waited the full --window-wait\n", r->window_wait_ms,
                            MAX (r->window_latency_ms, 0));
  if (r->settle_ms > 0)
    g_string_append_printf (md, "- Settle: %u ms, learnt from the replays (the app failed within "
                            "%" G_GINT64_FORMAT " ms of its last action); this report's replay "
                            "settled the full --settle\n", r->settle_ms,
                            MAX (r->failure_delay_ms, 0));
  if (r->confirmed > 0)
    g_string_append_printf (md, "- Late failures: the app failed seconds after its last action, "
                            "so %" G_GUINT64_FORMAT " candidate%s that passed %s replayed once "
                            "more with the whole --settle; %" G_GUINT64_FORMAT " failed then\n",
                            r->confirmed, r->confirmed == 1 ? "" : "s",
                            r->confirmed == 1 ? "was" : "were", r->overturned);
}

char *
summary_markdown (const Reduction *r, const char *report_dir, guint n_in_file,
                  const RunResult *replay, gboolean replay_failed)
{
  GString *md = g_string_new (NULL);

  append_sessions (md, r, report_dir, n_in_file);
  append_costs (md, r);
  append_timing (md, r);
  if (r->one_minimal)
    {
      g_string_append (md, r->put_back > 0
                             ? "- 1-minimal: verified before the releases were put back (removing "
                               "any one action but those makes the failure go away)"
                             : "- 1-minimal: verified (removing any one remaining action makes the "
                               "failure go away)");
      if (r->inferred > 0)
        g_string_append_printf (md, "; %" G_GUINT64_FORMAT " of those removals, of typed keys, "
                                "were inferred, not replayed again: a replay had shown the key "
                                "needed before a later removal (`--no-inference` replays them)",
                                r->inferred);
      g_string_append_c (md, '\n');
    }
  else
    g_string_append_printf (md, "- 1-minimal: not verified%s\n",
                            r->interrupted ? " (interrupted: not minimal)"
                            : r->stopped_early ? " (stopped early at a limit)" : "");
  if (!replay_failed)
    {
      g_autofree char *said = target_describe_result (replay);
      /* It may quote the session (a window's title): Markdown text. */
      g_autofree char *what = quote_markdown_text (said);
      g_string_append_printf (md, "\nNote: in the replay for this report the app did not fail "
                                  "(it %s)%s.\n", what,
                              r->target->by_test
                                ? "; the --test command is what decides the failure"
                                : ": the failure may be flaky");
    }
  return g_string_free (md, FALSE);
}

/* The section at the end of report.md; @notice (or NULL) under its title. */
static gboolean
append_section (const char *dir, const char *title, const char *markdown, const char *notice,
                GError **error)
{
  g_autofree char *path = g_build_filename (dir, "report.md", NULL);
  g_autofree char *txt_path = g_build_filename (dir, "report.txt", NULL);
  g_autofree char *old = NULL;
  g_autofree char *text = NULL;
  g_autofree char *plain = NULL;
  const char *body;

  if (!g_file_get_contents (path, &old, NULL, error))
    return FALSE;
  body = strchr (old, '\n');
  body = body != NULL ? body + 1 : old + strlen (old);
  text = g_strdup_printf ("%.*s%s%s\n## %s\n\n%s", (int) (body - old), old,
                          notice != NULL ? notice : "", body, title, markdown);
  plain = plaintext_from_markdown (text);
  return output_file_write (path, text, -1, OUTPUT_FILE_MODE, error)
         && output_file_write (txt_path, plain, -1, OUTPUT_FILE_MODE, error);
}

/* One replay of @best for the report, into a fresh folder beside @dir
 * (written there, private, removed unless complete, even if xreduce is
 * killed); with @traced the app runs under xreduce-crashtrace (xreplay's
 * default for a report), else --no-backtrace. */
static gboolean
replay_for_report (Runner *runner, const Session *best, const char *dir, gboolean traced,
                   ProcTempDir **fresh, RunResult *replay, GError **error)
{
  g_autofree char *tmpl = g_strconcat (dir, ".partial-XXXXXX", NULL);

  *fresh = proc_tempdir_new_at (tmpl, error);
  if (*fresh == NULL)
    return FALSE;
  return runner_run_once (runner, (Session *) best, proc_tempdir_get_path (*fresh), traced,
                          replay, error);
}

struct SummaryReplay
{
  Runner *runner;
  ProcTempDir *fresh;
  RunnerOnce *once;
};

SummaryReplay *
summary_start_replay (Runner *runner, const Session *best, const char *output_path,
                      GError **error)
{
  g_autofree char *tmpl = g_strconcat (output_path, ".report.partial-XXXXXX", NULL);
  SummaryReplay *early = g_new0 (SummaryReplay, 1);

  early->runner = runner;
  early->fresh = proc_tempdir_new_at (tmpl, error);
  if (early->fresh == NULL)
    {
      g_free (early);
      return NULL;
    }
  early->once = runner_start_once (runner, best, proc_tempdir_get_path (early->fresh), TRUE);
  return early;
}

void
summary_replay_free (SummaryReplay *early)
{
  if (early == NULL)
    return;
  runner_abandon_once (early->runner, early->once);
  /* (A replay still running writes into a folder gone: its report fails,
   * which nobody reads.) */
  proc_tempdir_free (early->fresh);
  g_free (early);
}

/* The report's replay under the tracer: @early's (taken), waited for, or
 * one made now (also when @early's was stopped before its end: at
 * --limit-time; interrupted now, that one stops at once). */
static gboolean
first_replay (Runner *runner, const Session *best, const char *dir, SummaryReplay *early,
              ProcTempDir **fresh, RunResult *replay, GError **error)
{
  if (early != NULL)
    {
      RunnerOnce *once = g_steal_pointer (&early->once);
      g_autoptr (GError) local = NULL;

      *fresh = g_steal_pointer (&early->fresh);
      summary_replay_free (early);
      if (runner_finish_once (runner, once, replay, &local))
        return TRUE;
      if (!g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_clear_pointer (fresh, proc_tempdir_free);
      run_result_clear (replay);
    }
  return replay_for_report (runner, best, dir, TRUE, fresh, replay, error);
}

gboolean
summary_write_report (Runner *runner, const Session *best, const Reduction *reduction,
                      SummaryReplay *early, char **report_md, RunResult *replay, GError **error)
{
  g_autofree char *dir = g_strconcat (reduction->output_path, ".report", NULL);
  g_autoptr (ProcTempDir) fresh = NULL;
  g_autofree char *section = NULL;
  g_autoptr (GError) local = NULL;
  gboolean failed, ok = FALSE;

  memset (replay, 0, sizeof *replay);
  failed = first_replay (runner, best, dir, early, &fresh, replay, &local)
           && target_still_fails (replay, (gpointer) reduction->target);
  /* The backtrace is never a reason to lose the report or change what
   * it says: a replay under the tracer that could not run, or did not
   * fail where the tests did, is made again without it. */
  if (!failed && !g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED)
      && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
    {
      g_autoptr (ProcTempDir) plain = NULL;
      g_autoptr (GError) plain_error = NULL;
      RunResult untraced = { 0 };

      g_debug ("the report's replay under the tracer %s; again without it",
               local != NULL ? local->message : "did not fail");
      if (replay_for_report (runner, best, dir, FALSE, &plain, &untraced, &plain_error)
          && (local != NULL || target_still_fails (&untraced, (gpointer) reduction->target)))
        {
          g_clear_error (&local);
          g_clear_pointer (&fresh, proc_tempdir_free);
          fresh = g_steal_pointer (&plain);
          run_result_clear (replay);
          *replay = untraced;
          failed = target_still_fails (replay, (gpointer) reduction->target);
        }
      else
        {
          run_result_clear (&untraced);
          if (local != NULL && plain_error != NULL)
            {
              /* The replay without the tracer's error is the one said. */
              g_clear_error (&local);
              g_propagate_error (&local, g_steal_pointer (&plain_error));
            }
        }
    }
  if (local != NULL)
    {
      if (g_error_matches (local, RUNNER_ERROR, RUNNER_ERROR_CANCELLED))
        g_set_error_literal (error, REDUCE_ERROR, REDUCE_ERROR_INTERRUPTED, "interrupted");
      else
        g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      goto out;
    }
  if (!failed)
    {
      g_autofree char *said = target_describe_result (replay);
      g_autofree char *what = quote_terminal (said);
      if (reduction->target->by_test)
        g_printerr ("xreduce: note: replayed by xreplay for the report, the app %s; "
                    "the --test command is what decides the failure\n", what);
      else
        g_printerr ("xreduce: warning: replayed for the report, %s no longer reproduces the "
                    "failure (the app %s): it may be flaky; the report says what happened\n",
                    reduction->output_path, what);
    }
  section = summary_markdown (reduction, dir, session_get_n_actions (best), replay, failed);
  if (!append_section (proc_tempdir_get_path (fresh), "Reduction", section,
                       reduction->interrupted
                         ? "\n**Interrupted, not minimal:** xreduce was stopped (Ctrl-C) before "
                           "the end; these are the fewest actions found so far. Run the same "
                           "command again to go on.\n"
                       : reduction->stopped_early
                         ? "\n**Stopped early, maybe not minimal:** a limit (--limit-time, "
                           "--limit-tests) ended the search; these are the fewest actions "
                           "found by then.\n"
                       : NULL, &local)
      || !output_dir_install (proc_tempdir_get_path (fresh), dir, &local))
    {
      g_set_error (error, REDUCE_ERROR, REDUCE_ERROR_INFRA, "%s", local->message);
      goto out;
    }
  *report_md = g_build_filename (dir, "report.md", NULL);
  ok = TRUE;
out:
  return ok;
}

void
summary_print (const Reduction *reduction, const Session *best, char *const *app_argv,
               const char *report_md)
{
  g_autoptr (GString) command = g_string_new ("xreplay ");
  g_autofree char *quoted = quote_shell (reduction->output_path);
  g_autofree char *shown = NULL;
  /* The steps as a person would name them, quoted for the terminal, with
   * the releases session_subset() added counted apart. */
  g_autofree char *steps = session_describe_steps (best, SESSION_WORDS_TERMINAL, TRUE);

  g_print ("%u -> %u actions in %" G_GUINT64_FORMAT " tests, %.0f s%s\n",
           reduction->n_before, reduction->n_after, reduction->tests, reduction->seconds,
           reduction->stopped_early ? " (stopped early: the result may not be minimal)" : "");
  g_print ("%s", steps);
  /* What the session cannot carry (a --wm, the sandbox's options) is
   * said on the command line; its replay line carries the rest. */
  for (const char *const *a = reduction->replay_argv; a != NULL && *a != NULL; a++)
    {
      g_autofree char *q = quote_shell (*a);
      g_string_append_printf (command, "%s ", q);
    }
  g_string_append (command, quoted);
  g_string_append (command, " --");
  for (char *const *a = app_argv; *a != NULL; a++)
    {
      g_autofree char *q = quote_shell (*a);
      g_string_append_printf (command, " %s", q);
    }
  /* The recorded command may hold anything: one line, no escapes. */
  shown = quote_terminal (command->str);
  {
    g_autofree char *path = quote_terminal (reduction->output_path);
    g_print ("minimal session: %s\nreplay it: %s\n", path, shown);
  }
  if (report_md != NULL)
    g_print ("report: %s\n", report_md);
}

/* The steps of @best in words (terminal words: one line each, control
 * characters shown as \x1b), each with its actions counted from 1, as
 * `xreplay --list` numbers them. */
static void
json_steps (JsonBuilder *b, const Session *best)
{
  g_autoptr (GPtrArray) phrases = session_get_phrases (best);
  g_autoptr (GArray) actions = session_get_actions (best);

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint p = 0; p < phrases->len; p++)
    {
      const SessionPhrase *phrase = g_ptr_array_index (phrases, p);
      g_autofree char *words = session_phrase_describe (best, phrase, SESSION_WORDS_TERMINAL);
      gboolean all_added = TRUE;

      for (guint i = 0; i < phrase->actions->len; i++)
        if (!session_get_event (best, g_array_index (actions, guint,
                                                     g_array_index (phrase->actions, guint, i)))
               ->added)
          all_added = FALSE;
      /* A phrase of releases xreduce added is no step of the user's. */
      if (all_added)
        continue;
      json_builder_begin_object (b);
      jsonio_add_string (b, "words", words);
      jsonio_add_counted (b, "actions", phrase->actions);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

char *
summary_json (const Reduction *r, const Session *best, const char *report_md,
              const RunResult *replay)
{
  const CrashInfo *crash = replay != NULL && replay->replay.verdict.kind == VERDICT_CRASHED
                           && replay->replay.crash.signal > 0 ? &replay->replay.crash : NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *want = target_describe (r->target);
  g_autofree char *report_dir = report_md != NULL ? g_path_get_dirname (report_md) : NULL;
  g_autofree char *gif = report_dir != NULL ? g_build_filename (report_dir, "replay.gif", NULL)
                                            : NULL;
  guint n_in_file = session_get_n_actions (best);

  json_builder_begin_object (b);
  jsonio_add_string (b, "verdict",
                     xreduce_verdict_to_string (r->stopped_early ? XREDUCE_VERDICT_STOPPED_EARLY
                                                                 : XREDUCE_VERDICT_REDUCED));
  jsonio_add_string (b, "failure", want);
  jsonio_add_int (b, "actions_before", r->n_before, TRUE);
  jsonio_add_int (b, "actions_after", r->n_after, TRUE);
  jsonio_add_int (b, "releases_added", n_in_file > r->n_after ? n_in_file - r->n_after : 0, TRUE);
  jsonio_add_int (b, "releases_put_back", r->put_back, TRUE);
  jsonio_add_int (b, "put_back_tests", r->put_back_tests, TRUE);
  json_steps (b, best);
  jsonio_add_int (b, "tests", (gint64) r->tests, TRUE);
  jsonio_add_int (b, "speculative_tests", (gint64) r->speculative, TRUE);
  jsonio_add_int (b, "cache_hits", (gint64) r->cache_hits, TRUE);
  jsonio_add_int (b, "journal_hits", (gint64) r->journal_hits, TRUE);
  json_builder_set_member_name (b, "seconds");
  json_builder_add_double_value (b, r->seconds);
  jsonio_add_bool (b, "one_minimal", r->one_minimal);
  jsonio_add_int (b, "inferred_removals", (gint64) r->inferred, TRUE);
  jsonio_add_bool (b, "stopped_early", r->stopped_early);
  jsonio_add_string (b, "algorithm", r->ddmin ? "ddmin" : "hdd");
  jsonio_add_int (b, "workers", r->workers, TRUE);
  jsonio_add_int (b, "workers_busy_percent", r->usage.busy_percent, TRUE);
  jsonio_add_int (b, "batches", r->usage.batches, TRUE);
  jsonio_add_int (b, "batches_with_idle_workers", r->usage.short_batches, TRUE);
  json_builder_set_member_name (b, "verification");
  json_builder_begin_object (b);
  jsonio_add_int (b, "fails", r->verify_fails, TRUE);
  jsonio_add_int (b, "runs", r->verify_runs, TRUE);
  json_builder_end_object (b);
  jsonio_add_string (b, "pace", r->recorded_pace ? "recorded" : "app");
  {
    static const char *const none[] = { NULL };

    /* The minimal session's replay line, word by word ([] for none). */
    jsonio_add_strings (b, "replay_options", r->replay_line != NULL ? r->replay_line : none);
  }
  /* What groups results by crash (xreduce --summarize): the signal and,
   * with --same-crash, the top frames the crash was kept by. */
  json_builder_set_member_name (b, "crash");
  json_builder_begin_object (b);
  jsonio_add_string (b, "signal", r->target->outcome.kind == SESSION_OUTCOME_CRASHED
                                   ? proc_signal_name (r->target->outcome.signal) : NULL);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (char **f = r->target->reference_frames; f != NULL && *f != NULL; f++)
    json_builder_add_string_value (b, *f);
  json_builder_end_array (b);
  /* What the report's replay saw of it (its tracer): in words, which
   * process, sent by another one or not, where. */
  {
    g_autoptr (GArray) python = crash != NULL
                                  ? crash_python_stack (replay->replay.stderr_text,
                                                        replay->replay.stderr_len) : NULL;
    g_autofree char *how = crash != NULL ? crash_info_outcome_python (crash, python) : NULL;
    g_autofree char *site = crash != NULL && !crash_info_is_sent (crash)
                              ? crash_info_site (crash) : NULL;

    jsonio_add_string (b, "how", how);
    jsonio_add_string (b, "process", crash != NULL ? crash->process : NULL);
    jsonio_add_string (b, "site", site);
    crash_info_add_sent_by (crash, b);
  }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_object (b);
  jsonio_add_string (b, "session", r->session_path);
  jsonio_add_string (b, "minimal_session", r->output_path);
  jsonio_add_string (b, "report", report_md);
  jsonio_add_string (b, "replay_gif", gif != NULL && g_file_test (gif, G_FILE_TEST_IS_REGULAR)
                                         ? gif : NULL);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return jsonio_to_text (b, TRUE);
}

char *
summary_json_error (XreduceVerdict verdict, const char *message, int exit_status,
                    const char *session_path, const char *output_path)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  jsonio_add_string (b, "verdict", xreduce_verdict_to_string (verdict));
  jsonio_add_string (b, "error", message);
  jsonio_add_int (b, "exit_status", exit_status, TRUE);
  json_builder_set_member_name (b, "files");
  json_builder_begin_object (b);
  jsonio_add_string (b, "session", session_path);
  jsonio_add_string (b, "minimal_session", output_path);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return jsonio_to_text (b, TRUE);
}
