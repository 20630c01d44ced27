/* summary.h — what a reduction tells its user: the result on stdout, and
 * the bug-report folder OUT.report/ (one more replay of the result, with
 * `xreplay --report`, through the runner; then the reduction's figures as
 * report.md's last section). X-free: the pictures are xreplay's.
 */
#pragma once

#include <glib.h>
#include "runner.h"
#include "session.h"
#include "target.h"
#include "verdict.h"

G_BEGIN_DECLS

/* The reduction's figures, for report.md and the console. */
typedef struct
{
  const char *session_path, *output_path;
  guint n_before, n_after;   /* actions (n_after: those kept, without added releases) */
  guint put_back;            /* of n_after, the user's releases put back after the search
                              * (the failure holds with them: the steps read as done) */
  guint put_back_tests;      /* the tests that cost (counted in tests) */
  guint64 tests, cache_hits;
  guint64 speculative;       /* of the tests, those the search ran speculatively, on
                              * workers it left idle (dd.h) */
  guint64 journal_hits;      /* answered from an interrupted run's journal (not in tests) */
  double seconds;
  gboolean one_minimal, stopped_early;
  guint64 inferred;          /* of one_minimal's removals, those inferred (DdStats) */
  gboolean interrupted;      /* Ctrl-C: the best so far, not minimal */
  const Target *target;
  guint verify_fails, verify_runs, confirm;
  gboolean ddmin;            /* the original algorithm */
  gboolean recorded_pace;    /* the replays kept the recorded pace */
  gboolean pace_picked;      /* ... because the session failed only so */
  const char *const *replay_line; /* the minimal session's replay line's words, or NULL */
  const char *const *replay_argv; /* the options the session cannot carry, for the
                              * command that replays it (a --wm), or NULL */
  guint workers;
  RunnerUsage usage;         /* how busy they were, and how often the search left some
                              * idle */
  const char *pool_reason;   /* how many workers ran, and why, or NULL */
  guint window_wait_ms;      /* learnt, or 0 */
  gint64 window_latency_ms;
  guint settle_ms;           /* learnt, or 0 */
  gint64 failure_delay_ms;   /* the latest failure seen after a replay's last action */
  guint64 confirmed;         /* passes replayed again (the failures came late) ... */
  guint64 overturned;        /* ... and of them, those that failed then */
} Reduction;

/* The "Reduction" section of report.md, in Markdown, for the report at
 * @report_dir (paths are said from there); @replay: what the report's
 * replay did, and whether it still failed. */
char *summary_markdown (const Reduction *reduction, const char *report_dir, guint n_in_file,
                        const RunResult *replay, gboolean replay_failed);

/* @path as seen from the folder @from_dir ("../demo.session"); both may
 * be relative to the current directory. */
char *summary_relative_path (const char *from_dir, const char *path);

/* The report's first replay, started before the result is final (beside
 * the last checks of the search) into a fresh folder beside OUT.report:
 * summary_start_replay() queues it on @runner (NULL with @error if the
 * folder cannot be made); summary_write_report() takes it, and waits for
 * it, when its session is the result; summary_replay_free() drops it (its
 * folder goes; NULL: nothing). */
typedef struct SummaryReplay SummaryReplay;
SummaryReplay *summary_start_replay (Runner *runner, const Session *best,
                                     const char *output_path, GError **error);
void summary_replay_free (SummaryReplay *early);

/* Writes OUT.report/ for @best: replays it with --report into a fresh
 * folder beside (or takes @early's replay, of @best, and frees it), appends the section, then puts the folder in place of
 * any earlier one (renamed as a whole: an interrupted report never leaves
 * a folder without report.md). A replay under the tracer that cannot run
 * or does not fail is made again without it. @replay gets what the
 * report's replay did (to be cleared with run_result_clear), also on
 * failure. FALSE: no report, a warning for the caller; or
 * REDUCE_ERROR_INTERRUPTED. */
gboolean summary_write_report (Runner *runner, const Session *best, const Reduction *reduction,
                               SummaryReplay *early, char **report_md, RunResult *replay,
                               GError **error);

/* The result on stdout: the actions kept, in words (terminal-safe), the
 * minimal session and how to replay it. */
void summary_print (const Reduction *reduction, const Session *best,
                    char *const *app_argv, const char *report_md);

/* xreduce --json: one JSON object (json-glib) with the result: verdict
 * ("reduced", or "stopped_early" at a limit), failure, actions_before,
 * actions_after, releases_added, steps ([{"words", "actions": [from 1]}],
 * the user's, as `xreplay --list` says them), tests, speculative_tests,
 * cache_hits, seconds,
 * one_minimal, inferred_removals (of one_minimal's removals, typed ones
 * inferred, not replayed: dd.h), stopped_early, algorithm, workers, workers_busy_percent,
 * batches, batches_with_idle_workers (speculative candidates count), verification {fails,
 * runs}, pace, replay_options (the minimal session's replay line's words),
 * crash {signal (or null), frames (--same-crash's top frames,
 * else []), and what @report_replay (or NULL) saw: how ("killed by SIGSEGV
 * sent by pid 4 (bash)", "crashed with SIGSEGV in f (a.c:3)"), process,
 * site, sent_by ({pid, name} or null)}, files {session, minimal_session,
 * report, replay_gif} (null: not written). */
char *summary_json (const Reduction *reduction, const Session *best, const char *report_md,
                    const RunResult *report_replay);

/* xreduce --json when there is no result: {"verdict" (@verdict's word:
 * "nothing_to_reduce", "usage_error", "infra_error", "interrupted"),
 * "error", "exit_status", "files": {"session" (the session reduced, or
 * null), "minimal_session" (null unless a best session was kept)}}. */
char *summary_json_error (XreduceVerdict verdict, const char *message, int exit_status,
                          const char *session_path, const char *output_path);

G_END_DECLS
