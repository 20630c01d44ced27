/* runner.h — a pool of replay workers for the reducer.
 *
 * Each worker owns one display (a private Xvfb started once and reused
 * across tests, unless fresh_server is set, in which case every test starts
 * its own) and runs one test at a time as a child process in its own
 * process group: `xreplay --display D --json CANDIDATE -- APP ARGS`, or the
 * user's `--test CMD CANDIDATE`. runner_run_batch() runs an ordered batch
 * with the semantics of dd.h's DdTestFunc: as if in index order, stopping at
 * the first failure, with the speculative branches of its candidates beside
 * (RunnerBranch); tests that can no longer matter are killed at once.
 *
 * An app that could not start is most often one starting slowly beside
 * the other workers' replays: such a test is never a pass. It runs again
 * when fewer workers are busy, with one worker fewer from then on; if it
 * still cannot start after RUNNER_START_ATTEMPTS tries, the batch stops
 * with RUNNER_ERROR_NOT_STARTED, saying what the app printed. An app that
 * sat idle without connecting to the X server (xreplay's never_connected)
 * gets no other try: it is not slow, it is no X11 app.
 */
#pragma once

#include <glib.h>
#include "session.h"
#include "replay-result.h"
#include "verdict.h"

G_BEGIN_DECLS

#define RUNNER_ERROR (runner_error_quark ())
GQuark runner_error_quark (void);
typedef enum
{
  RUNNER_ERROR_INFRA,        /* Xvfb or xreplay broke */
  RUNNER_ERROR_CANCELLED,    /* runner_cancel() was called (Ctrl-C) */
  RUNNER_ERROR_USAGE,        /* xreplay refused its options or input (exit 2) */
  RUNNER_ERROR_NOT_STARTED,  /* the app could not start, again and again */
} RunnerError;

/* Tries a test gets when the app cannot start. */
#define RUNNER_START_ATTEMPTS 3
/* A test that fails for the infrastructure (an Xvfb or xreplay that dies
 * or stops, a test past its time limit: runner_test_timeout()) runs again
 * on a fresh X server, at most this many times in all; then the batch
 * stops with RUNNER_ERROR_INFRA. */
#define RUNNER_INFRA_ATTEMPTS 3

typedef struct
{
  guint workers;             /* >= 1 */
  gboolean fresh_server;     /* a new Xvfb per test (the baseline) */
  int screen_width, screen_height;
  const char *xreplay;       /* path of the xreplay program */
  char **xreplay_args;       /* extra options for xreplay (speed, settle...) */
  char **app_argv;           /* the app and its arguments */
  char **test_argv;          /* --test CMD, or NULL to replay with xreplay */
  const char *workdir;       /* where candidate files are written */
  char **launcher_argv;      /* --launcher CMD's words, or NULL: see below */
  guint glx_first;           /* workers whose first X server has GLX; the others start
                              * without, until a replay's client asks for it */
  gboolean glx_needed;       /* every X server has GLX from the start (the session says
                              * the app asked for it) */
} RunnerOptions;

/* With a launcher (srun, ssh HOST, any command that runs its arguments),
 * a test is `LAUNCHER... XREPLAY --json [options] - -- APP ARGS` with the
 * candidate framed on its stdin (frame.h) and the verdict back on its
 * stdout: no worker Xvfb (xreplay starts its own wherever the launcher
 * runs it), no candidate file, no shared filesystem. XREPLAY and a
 * relative APP become absolute paths: the launcher's machine must have
 * them there. ssh joins the words after its own into one line for the
 * remote user's shell: when the launcher's program is ssh, each of ours
 * is quoted for it (g_shell_quote), so that it arrives as given. A test that no longer matters is stopped so that the
 * launcher can clean up where it runs (killing srun or ssh first leaves
 * the remote replay running, or its sandbox behind): its stdin is closed
 * (xreplay stops), then the launcher gets SIGUSR1 (srun passes it on;
 * xreplay stops as on SIGTERM), then SIGTERM after
 * RUNNER_LAUNCHER_GRACE_MS, and SIGKILL reaches its group only once it is
 * gone (or, a launcher deaf to SIGTERM, RUNNER_LAUNCHER_KILL_MS later).
 * The report's replay (runner_run_once with extra options) runs here, not
 * through the launcher: it writes a folder here. */
#define RUNNER_LAUNCHER_SIGNAL_MS 1000
#define RUNNER_LAUNCHER_GRACE_MS 10000
#define RUNNER_LAUNCHER_KILL_MS 30000

/* What one test observed. */
typedef struct
{
  ReplayResult replay;       /* what xreplay said (replay-result.h; stderr_text is the
                              * tail its JSON holds); for --test: the verdict EXITED
                              * with the command's status (0: still fails) or CRASHED
                              * with the signal that killed it, stderr_text its
                              * stderr, the figures -1 */
  gboolean by_test;          /* the verdict is the --test command's */
  gint64 elapsed_ms;
} RunResult;

void run_result_clear (RunResult *result);

/* Decides whether a result shows the failure being reduced. */
typedef gboolean (*RunnerPredicate) (const RunResult *result, gpointer user_data);

typedef struct Runner Runner;

Runner *runner_new (const RunnerOptions *options, GError **error);
void runner_free (Runner *runner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Runner, runner_free)

/* Where a candidate of a batch stands (dd.h's DdCandidate): in the
 * batch's sequence, or in the sequence of an earlier candidate's branch,
 * what the search asks next if that one is the first of its sequence to
 * fail. */
typedef struct
{
  gint parent;               /* -1: the batch's sequence; else the index (smaller than
                              * this candidate's) whose branch it is in */
  gboolean speculative;      /* not the batch's own: it may be left unrun */
} RunnerBranch;

/* Runs @n sessions (in parallel on the workers, in index order) and fills
 * @results and @failed for those that ran; @done[i] says whether candidate
 * i ran to its end. @branches (NULL: one sequence, nothing speculative)
 * makes a tree of sequences. A candidate is wanted while its sequence is
 * (the batch's always is; a branch's while its candidate is wanted and
 * has not passed) and no candidate before it in its sequence has failed.
 * One that is not wanted is killed at once or never started: with one
 * sequence, the batch stops at the first failing candidate in index order,
 * every candidate before it run, the ones after it killed or never
 * started. The batch is decided once its own candidates (the batch's
 * sequence, not speculative) are: each has run up to the first failure.
 * Then no speculative candidate starts any more, and the batch returns
 * once no wanted one is running: those that run since the batch began
 * are what the next batch asks, about to finish. */
gboolean runner_run_batch (Runner *runner, Session *const *sessions, guint n,
                           const RunnerBranch *branches,
                           RunnerPredicate predicate, gpointer predicate_data,
                           RunResult *results, gboolean *failed, gboolean *done,
                           GError **error);

/* Called once for each background test, when it has run: @result (the
 * callee may steal its strings) and whether it @failed, or @error
 * (RUNNER_ERROR_INFRA, or RUNNER_ERROR_CANCELLED if runner_cancel()
 * killed it, runner_resume() dropped it, or runner_free() came first;
 * @result is NULL then). */
typedef void (*RunnerDoneFunc) (RunResult *result, gboolean failed, const GError *error,
                                gpointer user_data);

/* Queues @session as a background test: it starts on the first idle
 * worker, before any batch candidate that is not running yet, and runs
 * while runner_run_batch() uses the other workers (a batch never kills
 * it). @done is called from the main context, inside runner_run_batch()
 * or runner_wait_background(). */
void runner_start_background (Runner *runner, Session *session,
                              RunnerPredicate predicate, gpointer predicate_data,
                              RunnerDoneFunc done, gpointer done_data);
/* The same for a @session that the caller keeps until runner_free() and
 * may queue several times (the verification's full session): its
 * candidate file is written once. */
void runner_start_background_shared (Runner *runner, const Session *session,
                                     RunnerPredicate predicate, gpointer predicate_data,
                                     RunnerDoneFunc done, gpointer done_data);
/* Background tests queued or running. */
guint runner_get_n_background (const Runner *runner);
/* Runs the main context until no background test is left; FALSE with
 * RUNNER_ERROR_CANCELLED after runner_cancel(). */
gboolean runner_wait_background (Runner *runner, GError **error);
/* The same, for one main-context iteration (one background test may end):
 * for a caller that waits for one of them. */
gboolean runner_step_background (Runner *runner, GError **error);

/* From a signal handler's main-loop callback: kills every running test and
 * makes runner_run_batch return RUNNER_ERROR_CANCELLED. */
void runner_cancel (Runner *runner);
/* After runner_cancel(): the background tests not yet started are dropped
 * (their callbacks get RUNNER_ERROR_CANCELLED), the killed ones end as
 * they do, and the runner takes new tests again (the report of an
 * interrupted reduction). Not cancelled: the same, but for the caller's
 * own (runner_start_once), which stay queued. */
void runner_resume (Runner *runner);
guint runner_get_n_workers (const Runner *runner);

/* How much of the workers the tests used, so far. */
typedef struct
{
  guint busy_percent;        /* the tests' time on a worker (killed ones too), of the
                              * workers' time since the runner started */
  guint batches;             /* runner_run_batch() calls ... */
  guint short_batches;       /* ... with fewer candidates than the workers that could
                              * run them: the search left workers idle */
} RunnerUsage;
void runner_get_usage (const Runner *runner, RunnerUsage *usage);
/* From now on, xreplay waits at most @ms for the window an action aims at
 * (--window-wait); 0: as the xreplay options say. */
void runner_set_window_wait (Runner *runner, guint ms);
/* --settle=@ms for every replay from now on (after the user's options); 0:
 * xreplay's own. */
void runner_set_settle (Runner *runner, guint ms);
/* A test's time limit in ms (0: derived from the tests that finished). */
void runner_set_test_timeout (Runner *runner, guint ms);
guint runner_test_timeout (const Runner *runner, guint n_actions);
/* Tests that failed for the infrastructure and ran again; *@last (if
 * given) what the last one said, or NULL. */
guint runner_get_n_infra (const Runner *runner, const char **last);
/* From now on, replays run at the recorded pace (--pace=recorded), with
 * --max-gap=@max_gap_ms (0: as the options say) and --speed=@speed (0: as
 * the options say). */
void runner_set_recorded_pace (Runner *runner, guint max_gap_ms, double speed);
/* From now on, xreplay waits at most @ms for the app's first window
 * (--start-timeout); 0: as the xreplay options say. */
void runner_set_start_timeout (Runner *runner, guint ms);
/* How many workers may run a test at once, from now on (1 to the number
 * of workers, and never more than an app that could not start has left:
 * see RUNNER_START_ATTEMPTS): the pool that fits the app (pool.h). */
void runner_set_active (Runner *runner, guint n);
/* Called with every test's result as it comes (before the predicate). */
typedef void (*RunnerObserveFunc) (const RunResult *result, gpointer user_data);
void runner_set_observer (Runner *runner, RunnerObserveFunc observe, gpointer user_data);
guint runner_get_active (const Runner *runner);

/* Replays @session once, writing a bug report into @report_dir (xreplay
 * --report, with the full --window-wait and --settle of the options,
 * whatever xreduce learnt), on the first idle worker, never through the
 * launcher, and waits for it; with @traced the app runs under the crash
 * tracer. */
gboolean runner_run_once (Runner *runner, Session *session, const char *report_dir,
                          gboolean traced, RunResult *result, GError **error);
/* The same in two halves: runner_start_once() queues the replay (of a
 * copy of @session) as a background test and returns at once, so that it
 * runs beside batches and other background tests; runner_finish_once()
 * waits for it and frees @once (also on failure). A started one yields:
 * background tests queued after it start before it, on workers it leaves
 * idle (the checks whose result it guesses). runner_abandon_once()
 * instead: its result is not wanted (NULL: nothing); a replay not started
 * never starts, a running one ends as it would. The caller removes
 * @report_dir. */
typedef struct RunnerOnce RunnerOnce;
RunnerOnce *runner_start_once (Runner *runner, const Session *session, const char *report_dir,
                               gboolean traced);
gboolean runner_finish_once (Runner *runner, RunnerOnce *once, RunResult *result,
                             GError **error);
void runner_abandon_once (Runner *runner, RunnerOnce *once);

G_END_DECLS
