/* runner.c — runs candidate sessions on a pool of workers.
 *
 * Start reading at runner_run_batch(): it hands candidates to idle workers
 * in index order, and spins the main context until the batch is decided.
 * Each test is a child process in its own process group (proc.h,
 * launch_test), so that killing a test that no longer matters takes its
 * whole tree along, and that nothing outlives a SIGKILLed xreduce. xreplay
 * answers with one JSON object (replay_result_from_json), whose verdict is typed
 * (verdict.h).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner.h"
#include "frame.h"
#include "proc.h"
#include "interrupt.h"
#include "replay-args.h"
#include "xserver.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

/* How long a private Xvfb may take to start. */
#define RUNNER_SERVER_TIMEOUT_MS 10000
/* How long xreplay gets to stop its app, bus and Xvfb after SIGTERM. */
#define RUNNER_KILL_GRACE_MS 3000
/* A test's time limit (runner_test_timeout): this long before any test
 * has finished, then derived from the tests that did, at least the
 * minimum. */
#define RUNNER_TEST_TIMEOUT_FIRST_MS 600000
#define RUNNER_TEST_TIMEOUT_MIN_MS 60000
/* How often the running tests' X servers are looked at; one seen stopped
 * this many times in a row hangs its test (on_server_watch). */
#define RUNNER_SERVER_WATCH_MS 500
#define RUNNER_SERVER_STOPPED_LOOKS 2

G_DEFINE_QUARK (xreduce-runner-error-quark, runner_error)

typedef struct Runner Runner;

typedef struct
{
  Runner *runner;
  guint id;
  XServer *server;           /* owned; NULL with fresh_server */
  char *xauthority;          /* owned: the server's cookie, a file in the workdir, or NULL */
  ProcChild *process;        /* the running test, or NULL when idle */
  gint index;                /* candidate index in the current batch, -1 idle */
  char *path;                /* candidate file of the running test */
  gboolean killed;           /* we killed it: ignore its result */
  gint64 started_us;
  struct Background *background;  /* owned: the running test is a background one, or NULL */
  Session *session;          /* the running test's (borrowed), for a retry */
  guint attempt;             /* the running test's try, from 1 */
  guint infra_attempt;       /* the running test's infrastructure failures so far */
  guint n_actions;           /* the running test's session's */
  gboolean by_test;          /* the running test is the --test command, not xreplay */
  gboolean restart;          /* its X server failed a test: a fresh one before the next */
  gboolean timed_out;        /* the running test passed the time limit: killed */
  gboolean server_stopped;   /* its X server was stopped (SIGSTOP): the test was killed */
  guint stopped_looks;       /* on_server_watch() saw the server stopped, in a row */
  guint timeout_id;          /* the running test's time limit, or 0 */
  /* Through a launcher (runner.h): */
  int stdin_fd;              /* owned: our end of the test's stdin, or -1 (closed) */
  guint stdin_source;        /* writing the frame to it, or 0 */
  GBytes *frame;             /* owned: the frame being written, or NULL */
  gsize frame_written;
  guint stop_stage;          /* 0 running; 1 stdin closed; 2 SIGUSR1; 3 SIGTERM; 4 SIGKILL */
  guint stop_id;             /* the next stage's timer, or 0 */
  gboolean launched;         /* the running test runs through the launcher */
} Worker;

/* A background test (runner_start_background). */
typedef struct Background
{
  Session *session;          /* owned, unless shared */
  gboolean shared;           /* runner_start_background_shared(): the caller's */
  char *report_dir;          /* owned, or NULL: the report's replay writes its folder here */
  gboolean no_backtrace;     /* ... with the app not under the crash tracer */
  guint attempt;             /* tries so far */
  guint infra_attempt;       /* infrastructure failures so far */
  RunnerPredicate predicate;
  gpointer predicate_data;
  RunnerDoneFunc done;
  gpointer done_data;
} Background;

static void
background_free (Background *bg)
{
  if (!bg->shared)
    session_free (bg->session);
  g_free (bg->report_dir);
  g_free (bg);
}

struct Runner
{
  RunnerOptions options;     /* strings owned below */
  char *xreplay;
  char **xreplay_args, **app_argv, **test_argv;
  char **launcher_argv;      /* or NULL: tests run here, on the workers' Xvfbs */
  gboolean launcher_quotes;  /* it is ssh: our words go to a shell there, quoted */
  char *workdir;
  GPtrArray *workers;        /* of Worker* */
  gboolean cancelled;
  guint64 serial;
  /* What every replay changes from the common options: runner_set_*(). */
  ReplayOverrides overrides;
  guint active;              /* workers that may run a test at once */
  guint ceiling;             /* and never more than this (lowered when an app cannot start) */
  RunnerObserveFunc observe;
  gpointer observe_data;
  GQueue retries;            /* of Retry*: batch tests waiting for a calmer moment */
  guint n_infra;             /* tests that failed for the infrastructure, and ran again */
  char *last_infra;          /* owned: what the last of them said */
  double ms_per_action;      /* the slowest finished test's ms per action (+1), or 0 */
  gboolean any_finished;     /* a test finished (ms_per_action is known) */
  guint test_timeout_ms;     /* runner_set_test_timeout(), or 0: derived */
  guint server_watch;        /* on_server_watch()'s timer while tests run, or 0 */
  GQueue background;         /* of Background*: queued, not started yet */
  guint n_background;        /* queued or running */
  const Session *shared;     /* runner_start_background_shared()'s session, or NULL */
  char *shared_path;         /* ... written once, a link to it for each of its tests */
  char *shared_text;         /* ... as text, once, for the launcher's frame */
  /* How busy the workers were (runner_get_usage). */
  gint64 created_us;
  gint64 busy_ms;            /* the tests' time on a worker, killed ones too */
  guint n_batches, n_short_batches; /* batches; those with fewer candidates than
                              * workers that may run */

  /* The batch being run (valid inside runner_run_batch). */
  RunnerPredicate predicate;
  gpointer predicate_data;
  RunResult *results;
  gboolean *failed, *done;
  GError *batch_error;
};

void
run_result_clear (RunResult *result)
{
  replay_result_clear (&result->replay);
}

static void
worker_close_stdin (Worker *worker)
{
  g_clear_handle_id (&worker->stdin_source, g_source_remove);
  g_clear_pointer (&worker->frame, g_bytes_unref);
  if (worker->stdin_fd >= 0)
    close (worker->stdin_fd);
  worker->stdin_fd = -1;
}

static void
worker_free (Worker *worker)
{
  /* runner_free() has asked it to stop already: through a launcher, its
   * stdin is closed and the launcher has SIGUSR1; SIGTERM only after the
   * grace, SIGKILL once it is gone (proc_child_kill). */
  if (worker->process != NULL && worker->stop_stage > 0
      && !proc_child_wait (worker->process, RUNNER_LAUNCHER_GRACE_MS))
    proc_child_kill (worker->process, RUNNER_LAUNCHER_KILL_MS);
  else if (worker->process != NULL)
    proc_child_kill (worker->process, RUNNER_KILL_GRACE_MS);
  worker_close_stdin (worker);
  g_clear_handle_id (&worker->stop_id, g_source_remove);
  g_clear_pointer (&worker->process, proc_child_free);
  g_clear_handle_id (&worker->timeout_id, g_source_remove);
  if (worker->server != NULL)
    xserver_free (worker->server);
  g_clear_pointer (&worker->background, background_free);
  g_free (worker->xauthority);
  g_free (worker->path);
  g_free (worker);
}

/* The worker's server admits only clients with its cookie (xreplay, the
 * app in its sandbox, a --test oracle): the XAUTHORITY they get is a file
 * in the workdir, which goes with it (also after a SIGKILL). */
static gboolean
worker_write_xauthority (Runner *runner, Worker *worker, GError **error)
{
  g_free (worker->xauthority);
  worker->xauthority = g_strdup_printf ("%s/xauthority-%u", runner->workdir, worker->id);
  return xserver_write_xauthority (worker->server, worker->xauthority, error);
}

static gboolean
worker_start_server (Runner *runner, Worker *worker, GError **error)
{
  if ((runner->options.fresh_server && runner->test_argv == NULL)
      || runner->launcher_argv != NULL)
    return TRUE;
  g_clear_pointer (&worker->server, xserver_free);
  worker->server = xserver_start (&(XServerOptions) { .kind = XSERVER_XVFB,
                                                      .width = runner->options.screen_width,
                                                      .height = runner->options.screen_height,
                                                      .no_autorepeat = TRUE, .auth = TRUE },
                                  RUNNER_SERVER_TIMEOUT_MS, error);
  return worker->server != NULL && worker_write_xauthority (runner, worker, error);
}

Runner *
runner_new (const RunnerOptions *options, GError **error)
{
  g_autoptr (Runner) runner = g_new0 (Runner, 1);

  runner->options = *options;
  runner->created_us = g_get_monotonic_time ();
  runner->xreplay = g_strdup (options->xreplay);
  runner->xreplay_args = g_strdupv (options->xreplay_args);
  runner->app_argv = g_strdupv (options->app_argv);
  runner->test_argv = g_strdupv (options->test_argv);
  runner->workdir = g_strdup (options->workdir);
  if (options->launcher_argv != NULL)
    {
      /* The launcher's machine has them at the same absolute paths (a
       * relative one would be taken from wherever the launcher starts:
       * ssh's HOME). A bare name is looked up in its PATH. */
      g_autofree char *program = g_path_get_basename (options->launcher_argv[0]);

      runner->launcher_argv = g_strdupv (options->launcher_argv);
      runner->launcher_quotes = strcmp (program, "ssh") == 0;
      if (runner->xreplay != NULL && !g_path_is_absolute (runner->xreplay))
        {
          char *absolute = g_canonicalize_filename (runner->xreplay, NULL);
          g_free (runner->xreplay);
          runner->xreplay = absolute;
        }
      if (runner->app_argv != NULL && runner->app_argv[0] != NULL
          && strchr (runner->app_argv[0], '/') != NULL
          && !g_path_is_absolute (runner->app_argv[0]))
        {
          char *absolute = g_canonicalize_filename (runner->app_argv[0], NULL);
          g_free (runner->app_argv[0]);
          runner->app_argv[0] = absolute;
        }
    }
  runner->workers = g_ptr_array_new_with_free_func ((GDestroyNotify) worker_free);
  /* The workers' servers start all at once, then are waited for. */
  for (guint i = 0; i < MAX (options->workers, 1); i++)
    {
      Worker *worker = g_new0 (Worker, 1);

      worker->runner = runner;
      worker->id = i;
      worker->index = -1;
      worker->stdin_fd = -1;
      g_ptr_array_add (runner->workers, worker);
      if ((options->fresh_server && options->test_argv == NULL)
          || options->launcher_argv != NULL)
        continue;
      worker->server = xserver_spawn (&(XServerOptions) { .kind = XSERVER_XVFB,
                                                          .width = options->screen_width,
                                                          .height = options->screen_height,
                                                          .no_autorepeat = TRUE,
                                                          .auth = TRUE },
                                      error);
      if (worker->server == NULL)
        return NULL;
    }
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);
      if (worker->server != NULL
          && (!xserver_wait_ready (worker->server, RUNNER_SERVER_TIMEOUT_MS, error)
              || !worker_write_xauthority (runner, worker, error)))
        return NULL;
    }
  runner->active = runner->ceiling = runner->workers->len;
  return g_steal_pointer (&runner);
}

void
runner_free (Runner *runner)
{
  if (runner == NULL)
    return;
  /* Every running test is asked to stop at once (xreplay stops its app,
   * bus and Xvfb on SIGTERM; through a launcher, when its stdin closes and
   * on the SIGUSR1 the launcher passes on), then waited for, then every
   * Xvfb stops. */
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);
      if (worker->process != NULL && worker->launched)
        {
          worker_close_stdin (worker);
          g_clear_handle_id (&worker->stop_id, g_source_remove);
          worker->stop_stage = 2;
          proc_child_signal (worker->process, SIGUSR1);
        }
      else if (worker->process != NULL)
        proc_child_signal (worker->process, SIGTERM);
    }
  /* The workers' Xvfbs too, meanwhile (a test's xreplay stopping on
   * one loses nothing): each is waited for below, one after the other,
   * but none then waits for its own signal. */
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);
      if (worker->server != NULL && xserver_get_pid (worker->server) > 0)
        kill (xserver_get_pid (worker->server), SIGTERM);
    }
  g_clear_handle_id (&runner->server_watch, g_source_remove);
  g_ptr_array_unref (runner->workers);
  g_queue_clear_full (&runner->retries, g_free);
  g_queue_clear_full (&runner->background, (GDestroyNotify) background_free);
  g_free (runner->xreplay);
  g_strfreev (runner->xreplay_args);
  g_strfreev (runner->app_argv);
  g_strfreev (runner->test_argv);
  g_strfreev (runner->launcher_argv);
  g_free (runner->workdir);
  g_free (runner->last_infra);
  g_free (runner->shared_path);
  g_free (runner->shared_text);
  g_clear_error (&runner->batch_error);
  g_free (runner);
}

guint
runner_get_n_workers (const Runner *runner)
{
  return runner->workers->len;
}

void
runner_get_usage (const Runner *runner, RunnerUsage *usage)
{
  gint64 span_ms = (g_get_monotonic_time () - runner->created_us) / 1000;
  double capacity = (double) runner->workers->len * (double) span_ms;

  usage->busy_percent = capacity > 0 ? (guint) MIN (100.0, 100.0 * (double) runner->busy_ms
                                                              / capacity + 0.5) : 0;
  usage->batches = runner->n_batches;
  usage->short_batches = runner->n_short_batches;
}

void
runner_set_window_wait (Runner *runner, guint ms)
{
  runner->overrides.window_wait_ms = ms;
}

void
runner_set_settle (Runner *runner, guint ms)
{
  runner->overrides.settle_ms = ms;
}

void
runner_set_recorded_pace (Runner *runner, guint max_gap_ms, double speed)
{
  runner->overrides.recorded_pace = TRUE;
  runner->overrides.max_gap_ms = max_gap_ms;
  runner->overrides.speed = speed;
}

void
runner_set_test_timeout (Runner *runner, guint ms)
{
  runner->test_timeout_ms = ms;
}

guint
runner_get_n_infra (const Runner *runner, const char **last)
{
  if (last != NULL)
    *last = runner->last_infra;
  return runner->n_infra;
}

void
runner_set_start_timeout (Runner *runner, guint ms)
{
  runner->overrides.start_timeout_ms = ms;
}

void
runner_set_active (Runner *runner, guint n)
{
  runner->active = CLAMP (n, 1, runner->ceiling);
}

void
runner_set_observer (Runner *runner, RunnerObserveFunc observe, gpointer user_data)
{
  runner->observe = observe;
  runner->observe_data = user_data;
}

guint
runner_get_active (const Runner *runner)
{
  return runner->active;
}

/* Workers running a test now. */
static guint
n_busy (Runner *runner)
{
  guint n = 0;

  for (guint w = 0; w < runner->workers->len; w++)
    n += ((Worker *) g_ptr_array_index (runner->workers, w))->process != NULL;
  return n;
}

/* An idle worker, if the pool may run one more test now. */
static Worker *
idle_worker (Runner *runner)
{
  if (n_busy (runner) >= runner->active)
    return NULL;
  for (guint w = 0; w < runner->workers->len; w++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, w);
      if (worker->process == NULL)
        return worker;
    }
  return NULL;
}

/* The next stage of stopping a test that runs through the launcher
 * (runner.h): SIGUSR1, SIGTERM after the grace, SIGKILL last. */
static gboolean
on_stop_stage (gpointer data)
{
  Worker *worker = data;

  worker->stop_id = 0;
  if (worker->process == NULL)
    return G_SOURCE_REMOVE;
  worker->stop_stage++;
  g_debug ("worker %u: the launcher gets %s", worker->id,
           worker->stop_stage == 2 ? "SIGUSR1" : worker->stop_stage == 3 ? "SIGTERM" : "SIGKILL");
  proc_child_signal (worker->process, worker->stop_stage == 2 ? SIGUSR1
                                      : worker->stop_stage == 3 ? SIGTERM : SIGKILL);
  if (worker->stop_stage < 4)
    worker->stop_id = g_timeout_add (worker->stop_stage == 2 ? RUNNER_LAUNCHER_GRACE_MS
                                                             : RUNNER_LAUNCHER_KILL_MS,
                                     on_stop_stage, worker);
  return G_SOURCE_REMOVE;
}

/* Stops a test that runs through the launcher: its stdin first (xreplay
 * stops and cleans up where it runs), never a signal that would cut the
 * launcher off from it first. */
static void
worker_stop_launched (Worker *worker)
{
  if (worker->stop_stage > 0)
    return;
  worker->stop_stage = 1;
  g_debug ("worker %u: stopping the test through the launcher: its stdin closed", worker->id);
  worker_close_stdin (worker);
  worker->stop_id = g_timeout_add (RUNNER_LAUNCHER_SIGNAL_MS, on_stop_stage, worker);
}

static void
worker_kill (Worker *worker)
{
  if (worker->process == NULL || worker->killed)
    return;
  worker->killed = TRUE;
  if (worker->launched)
    {
      worker_stop_launched (worker);
      return;
    }
  /* xreplay cleans up its app on SIGTERM; the group kill reaches
   * everything else the test started. */
  proc_child_signal (worker->process, SIGTERM);
}

void
runner_cancel (Runner *runner)
{
  runner->cancelled = TRUE;
  for (guint i = 0; i < runner->workers->len; i++)
    worker_kill (g_ptr_array_index (runner->workers, i));
}

void
runner_resume (Runner *runner)
{
  g_autoptr (GError) cancelled = g_error_new_literal (RUNNER_ERROR, RUNNER_ERROR_CANCELLED,
                                                      "interrupted");
  Background *bg;

  /* What was queued and never started is told it was cancelled, and goes:
   * the next test is the caller's, not the search's. */
  while ((bg = g_queue_pop_head (&runner->background)) != NULL)
    {
      runner->n_background--;
      bg->done (NULL, FALSE, cancelled, bg->done_data);
      background_free (bg);
    }
  runner->cancelled = FALSE;
}

/* Who a test's status is of: xreplay, or the launcher that ran it
 * ("the launcher srun"): a launcher killed by a signal is not xreplay. */
static char *
test_runner_name (Runner *runner, gboolean launched)
{
  g_autofree char *base = NULL;

  if (!launched || runner->launcher_argv == NULL)
    return g_strdup ("xreplay");
  base = g_path_get_basename (runner->launcher_argv[0]);
  return g_strdup_printf ("the launcher %s", base);
}

/* What a finished test said: FALSE with RUNNER_ERROR_INFRA if xreplay
 * broke or answered nonsense, RUNNER_ERROR_USAGE if it refused its input.
 * @launched: it ran through the launcher, whose status @status is. */
static gboolean
collect_result (Runner *runner, gboolean by_test, gboolean launched, int status, const char *out,
                const char *err, RunResult *result, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *said = g_strstrip (g_strdup (err));
  int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;

  result->replay.window_latency_ms = result->replay.first_window_ms = result->replay.replay_ms = -1;
  result->replay.app_cpu_ms = result->replay.app_peak_rss_kb = -1;
  if (by_test)
    {
      verdict_from_wait_status (&result->replay.verdict, status);
      result->by_test = TRUE;
      result->replay.stderr_text = g_strdup (err);
      result->replay.stderr_len = strlen (err);
      return TRUE;
    }
  if (code == 2)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_USAGE, "%s", said);
      return FALSE;
    }
  if (code == 3 && replay_result_from_json (out, &result->replay, NULL)
      && result->replay.verdict.kind == VERDICT_INFRA_ERROR && result->replay.verdict.detail != NULL)
    {
      /* xreplay --json says why in its verdict ("the X server on ':5' did
       * not answer within 10 s"), not on stderr. */
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "xreplay: %s", result->replay.verdict.detail);
      run_result_clear (result);
      return FALSE;
    }
  run_result_clear (result);
  result->replay.window_latency_ms = result->replay.first_window_ms = result->replay.replay_ms = -1;
  result->replay.app_cpu_ms = result->replay.app_peak_rss_kb = -1;
  if (code == 3 || code < 0 || !replay_result_from_json (out, &result->replay, &local))
    {
      g_autofree char *how = proc_describe_wait_status (status);
      g_autofree char *who = test_runner_name (runner, launched);

      /* Through a launcher, a death by a signal is the launcher's
       * (xreplay's own end comes back as an exit status, which the
       * launcher passes on). */
      if (launched && code >= 0)
        {
          g_autofree char *launcher = who;
          who = g_strdup_printf ("xreplay through %s", launcher + strlen ("the launcher "));
        }
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "%s %s%s%s%s%s", who, how,
                   *said ? ": " : "", said, local != NULL ? "; " : "",
                   local != NULL ? local->message : "");
      run_result_clear (result);
      return FALSE;
    }
  if (result->replay.verdict.kind == VERDICT_INFRA_ERROR)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "replay infrastructure error: %s",
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : said);
      run_result_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* A batch test that waits to run again (its app could not start). */
typedef struct
{
  gint index;
  Session *session;          /* borrowed from the batch */
  guint attempt;             /* tries so far */
  guint infra_attempt;       /* infrastructure failures so far */
} Retry;

/* A test failed for the infrastructure (its Xvfb or xreplay died, was
 * stopped, or the test passed its time limit): not the candidate's
 * answer. The worker gets a fresh X server, the test runs again, on the
 * next idle worker; TRUE if it may. After RUNNER_INFRA_ATTEMPTS failures
 * of one test, FALSE with @error saying so. */
static gboolean
infra_may_retry (Runner *runner, Worker *worker, guint infra_attempt, GError **error)
{
  worker->restart = TRUE;
  runner->n_infra++;
  g_free (runner->last_infra);
  runner->last_infra = g_strdup ((*error)->message);
  g_debug ("worker %u: infrastructure failure %u of this test: %s", worker->id,
           infra_attempt, (*error)->message);
  if (runner->cancelled)
    return FALSE;
  if (infra_attempt >= RUNNER_INFRA_ATTEMPTS)
    {
      g_prefix_error (error, "%u infrastructure failures in a row of one test%s; the last: ",
                      infra_attempt, runner->launcher_argv != NULL
                                     ? ", each through the launcher" : ", each on a fresh X server");
      return FALSE;
    }
  g_clear_error (error);
  return TRUE;
}

/* The app could not start: FALSE if it has had all its tries, or if its
 * processes sat idle without connecting to the X server (fewer replays
 * beside it cannot help that one; then @error says so, with what the app
 * printed), else TRUE: try again, with one worker fewer from now on. */
static gboolean
may_retry (Runner *runner, const RunResult *result, guint attempt, GError **error)
{
  g_autofree char *tail = g_strstrip (g_strdup (result->replay.stderr_text));
  gsize len = strlen (tail);

  if (result->replay.never_connected)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED,
                   "the app could not start (%s)%s%s",
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : "no reason given",
                   len > 0 ? "; its stderr ends with: " : "",
                   tail + (len > 600 ? len - 600 : 0));
      return FALSE;
    }
  if (attempt >= RUNNER_START_ATTEMPTS)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED,
                   "the app could not start in %u tries, with fewer replays beside it each "
                   "time (%s)%s%s", attempt,
                   result->replay.verdict.detail != NULL ? result->replay.verdict.detail : "no reason given",
                   len > 0 ? "; its stderr ends with: " : "",
                   tail + (len > 600 ? len - 600 : 0));
      return FALSE;
    }
  if (runner->active > 1)
    {
      runner->active--;
      runner->ceiling = runner->active;
      g_debug ("the app could not start; %u workers from now on", runner->active);
    }
  return TRUE;
}

static gboolean launch_test (Runner *runner, Worker *worker, Session *session, gint index,
                             const Background *bg, GError **error);

static void
on_background_done (Runner *runner, Worker *worker, Background *bg, gboolean killed,
                    gboolean launched, int status, const char *out, const char *err)
{
  g_autoptr (GError) error = NULL;
  RunResult result = { 0 };
  gboolean failed = FALSE;

  bg->attempt++;
  result.elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  if (killed)
    g_set_error_literal (&error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
  else if (!collect_result (runner, worker->by_test, launched, status, out, err, &result,
                            &error))
    {
      if (g_error_matches (error, RUNNER_ERROR, RUNNER_ERROR_INFRA)
          && infra_may_retry (runner, worker, ++bg->infra_attempt, &error))
        {
          /* First in the queue: the verification waits for it. */
          bg->attempt--;
          g_queue_push_head (&runner->background, bg);
          return;
        }
    }
  else
    {
      if (runner->observe != NULL)
        runner->observe (&result, runner->observe_data);
      if (result.replay.verdict.kind == VERDICT_COULD_NOT_START && !runner->cancelled
          && may_retry (runner, &result, bg->attempt, &error))
        {
          /* Queued again, behind the others: it runs when the replays
           * beside it are fewer (one worker fewer from now on). */
          run_result_clear (&result);
          g_queue_push_tail (&runner->background, bg);
          return;
        }
      if (error != NULL)
        run_result_clear (&result);
    }
  runner->n_background--;
  if (error == NULL)
    {
      failed = bg->predicate != NULL && bg->predicate (&result, bg->predicate_data);
      g_debug ("worker %u: background test (%u actions): %s%s after %" G_GINT64_FORMAT " ms",
               worker->id, result.replay.n_actions, verdict_kind_to_string (result.replay.verdict.kind),
               failed ? " (fails)" : "", result.elapsed_ms);
    }
  /* An app that cannot start cannot start for the batch either: it stops
   * now, not once its own replays have found out. */
  if (g_error_matches (error, RUNNER_ERROR, RUNNER_ERROR_NOT_STARTED)
      && runner->results != NULL && runner->batch_error == NULL)
    runner->batch_error = g_error_copy (error);
  bg->done (error == NULL ? &result : NULL, failed, error, bg->done_data);
  run_result_clear (&result);
  background_free (bg);
}

static void
on_batch_done (Runner *runner, Worker *worker, Session *session, gint index, guint attempt,
               gboolean launched, int status, const char *out, const char *err)
{
  g_autoptr (GError) error = NULL;
  RunResult result = { 0 };

  result.elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  if (!collect_result (runner, worker->by_test, launched, status, out, err, &result, &error))
    {
      if (g_error_matches (error, RUNNER_ERROR, RUNNER_ERROR_INFRA)
          && infra_may_retry (runner, worker, worker->infra_attempt + 1, &error))
        {
          Retry *retry = g_new (Retry, 1);

          /* Not a try of the app's: the same try again. */
          *retry = (Retry) { .index = index, .session = session, .attempt = attempt - 1,
                             .infra_attempt = worker->infra_attempt + 1 };
          g_queue_push_head (&runner->retries, retry);
          return;
        }
      if (runner->batch_error == NULL)
        runner->batch_error = g_steal_pointer (&error);
      return;
    }
  if (runner->observe != NULL)
    runner->observe (&result, runner->observe_data);
  if (result.replay.verdict.kind == VERDICT_COULD_NOT_START && !runner->cancelled)
    {
      if (!may_retry (runner, &result, attempt, &error))
        {
          if (runner->batch_error == NULL)
            runner->batch_error = g_steal_pointer (&error);
          run_result_clear (&result);
          return;
        }
      Retry *retry = g_new (Retry, 1);
      *retry = (Retry) { .index = index, .session = session, .attempt = attempt };
      g_queue_push_tail (&runner->retries, retry);
      run_result_clear (&result);
      return;
    }
  runner->results[index] = result;
  runner->failed[index] = runner->predicate (&runner->results[index], runner->predicate_data);
  g_debug ("worker %u: candidate %d (%u actions): %s%s after %" G_GINT64_FORMAT " ms",
           worker->id, index, result.replay.n_actions, verdict_kind_to_string (result.replay.verdict.kind),
           runner->failed[index] ? " (fails)" : "", result.elapsed_ms);
  runner->done[index] = TRUE;
}

static void
on_test_done (ProcChild *process, int status, gpointer data)
{
  Worker *worker = data;
  Runner *runner = worker->runner;
  Background *bg = g_steal_pointer (&worker->background);
  gint index = worker->index;
  gboolean killed = worker->killed;
  gboolean launched = worker->launched;
  gsize out_len = 0, err_len = 0;
  const char *out_data = proc_child_get_stdout (process, &out_len);
  const char *err_data = proc_child_get_stderr (process, &err_len);
  g_autofree char *out = g_utf8_make_valid (out_data, (gssize) out_len);
  g_autofree char *err = g_utf8_make_valid (err_data, (gssize) err_len);

  gboolean timed_out = worker->timed_out;
  gboolean server_stopped = worker->server_stopped;
  gint64 elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  g_autofree char *said = NULL;

  runner->busy_ms += elapsed_ms;
  g_clear_pointer (&worker->process, proc_child_free);
  g_clear_handle_id (&worker->timeout_id, g_source_remove);
  g_clear_handle_id (&worker->stop_id, g_source_remove);
  worker_close_stdin (worker);
  worker->stop_stage = 0;
  worker->launched = FALSE;
  if (worker->path != NULL)
    {
      unlink (worker->path);
      g_clear_pointer (&worker->path, g_free);
    }
  worker->index = -1;
  worker->timed_out = FALSE;
  worker->server_stopped = FALSE;
  worker->stopped_looks = 0;
  if (server_stopped && !killed)
    {
      /* Its X server answered nothing: xreplay waited in Xlib for a reply
       * that never comes. It says nothing of the candidate. */
      said = g_strdup_printf ("%s\nits X server (%s) was stopped: the test was killed after "
                              "%" G_GINT64_FORMAT " ms", err,
                              worker->server != NULL ? xserver_get_display (worker->server) : "?",
                              elapsed_ms);
      status = W_EXITCODE (3, 0);
      g_clear_pointer (&out, g_free);
      killed = FALSE;
    }
  else if (timed_out && !killed)
    {
      /* Killed at its time limit: xreplay was stuck (an X server
       * stopped, a wait without end), which says nothing of the
       * candidate. collect_result() takes it for a broken xreplay. */
      said = g_strdup_printf ("%s\nthe test ran %" G_GINT64_FORMAT " s, past its time limit "
                              "(%u s): killed", err, elapsed_ms / 1000,
                              runner_test_timeout (runner, worker->n_actions) / 1000);
      status = W_EXITCODE (3, 0);
      g_clear_pointer (&out, g_free);
      killed = FALSE;
    }
  else if (!killed && WIFEXITED (status) && WEXITSTATUS (status) != 3)
    {
      runner->ms_per_action = MAX (runner->ms_per_action,
                                   (double) elapsed_ms / (worker->n_actions + 1));
      runner->any_finished = TRUE;
    }
  worker->killed = FALSE;
  if (bg != NULL)
    on_background_done (runner, worker, bg, killed, launched, status, out != NULL ? out : "",
                        said != NULL ? said : err);
  else if (!killed && index >= 0 && runner->results != NULL)
    on_batch_done (runner, worker, worker->session, index, worker->attempt, launched, status,
                   out != NULL ? out : "", said != NULL ? said : err);
}

/* The time limit of a test of @n_actions: runner_set_test_timeout()'s,
 * else derived from the tests that finished (the verification's replays
 * of the whole session come first): four times what the slowest of them
 * took an action, for @n_actions, plus the start timeout, at least
 * RUNNER_TEST_TIMEOUT_MIN_MS; before any finished, a generous
 * RUNNER_TEST_TIMEOUT_FIRST_MS. */
guint
runner_test_timeout (const Runner *runner, guint n_actions)
{
  double ms;

  if (runner->test_timeout_ms > 0)
    return runner->test_timeout_ms;
  if (!runner->any_finished)
    return RUNNER_TEST_TIMEOUT_FIRST_MS;
  ms = 4 * runner->ms_per_action * (n_actions + 1)
       + (runner->overrides.start_timeout_ms > 0 ? runner->overrides.start_timeout_ms : 10000);
  return (guint) CLAMP (ms, RUNNER_TEST_TIMEOUT_MIN_MS, (double) G_MAXINT);
}

static gboolean
on_test_timeout (gpointer data)
{
  Worker *worker = data;

  worker->timeout_id = 0;
  if (worker->process == NULL)
    return G_SOURCE_REMOVE;
  worker->timed_out = TRUE;
  if (worker->launched)
    {
      /* Stuck or not, where it runs: the launcher's way down. */
      worker_stop_launched (worker);
      return G_SOURCE_REMOVE;
    }
  /* SIGKILL at once: a stuck xreplay may sit in an Xlib call that its
   * SIGTERM handler (in the main loop) never gets to. The keeper and its
   * sandbox's cleaner take what it started along. */
  proc_child_signal (worker->process, SIGKILL);
  return G_SOURCE_REMOVE;
}

/* The running tests' X servers, every RUNNER_SERVER_WATCH_MS: one that
 * is stopped (SIGSTOP: a debugger, a stray kill) answers no client, and
 * its test's xreplay waits in Xlib for ever, past any bound of its own.
 * Seen stopped RUNNER_SERVER_STOPPED_LOOKS times in a row, it costs its
 * test a second, not the per-test limit: the test is killed and is an
 * infrastructure failure (on_test_done), run again on a fresh server. */
static gboolean
on_server_watch (gpointer data)
{
  Runner *runner = data;
  gboolean any = FALSE;

  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);

      if (worker->process == NULL || worker->server == NULL || worker->launched)
        continue;
      any = TRUE;
      if (!xserver_is_stopped (worker->server))
        {
          worker->stopped_looks = 0;
          continue;
        }
      if (++worker->stopped_looks < RUNNER_SERVER_STOPPED_LOOKS || worker->killed
          || worker->server_stopped)
        continue;
      g_debug ("worker %u: its X server %s is stopped: the test is killed", worker->id,
               xserver_get_display (worker->server));
      worker->server_stopped = TRUE;
      proc_child_signal (worker->process, SIGKILL);
    }
  if (!any)
    runner->server_watch = 0;
  return any ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Writes the frame to the launcher's stdin as it takes it; then the
 * socket stays open (closing it is the cancel). */
static gboolean
on_stdin_writable (int fd, GIOCondition condition, gpointer data)
{
  Worker *worker = data;
  gsize len = 0;
  const guint8 *bytes = g_bytes_get_data (worker->frame, &len);

  while (worker->frame_written < len)
    {
      gssize n = send (fd, bytes + worker->frame_written, len - worker->frame_written,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0)
        worker->frame_written += (gsize) n;
      else if (n < 0 && errno == EINTR)
        continue;
      else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return G_SOURCE_CONTINUE;
      else
        break;   /* the launcher is gone or reads no input: its end says the rest */
    }
  worker->stdin_source = 0;
  g_clear_pointer (&worker->frame, g_bytes_unref);
  return G_SOURCE_REMOVE;
}

/* The test's stdin through the launcher: a socket (send() without
 * SIGPIPE) whose other end the launcher gets, and the frame to write. */
static gboolean
worker_open_stdin (Worker *worker, Session *session, int *child_end, GError **error)
{
  Runner *runner = worker->runner;
  g_autofree char *own = NULL;
  const char *text;

  if (session == runner->shared && runner->shared != NULL)
    {
      /* The same session for several tests: as text once. */
      if (runner->shared_text == NULL)
        runner->shared_text = session_to_string (session);
      text = runner->shared_text;
    }
  else
    text = own = session_to_string (session);
  g_autofree char *header = frame_header (strlen (text));
  g_autofree char *frame = g_strconcat (header, text, NULL);
  gsize len = strlen (frame);
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      int saved = errno;
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "cannot make a socket for a test's "
                   "stdin: %s", g_strerror (saved));
      return FALSE;
    }
  /* One way: the launcher only reads it. */
  shutdown (fds[0], SHUT_RD);
  worker->stdin_fd = fds[0];
  *child_end = fds[1];
  worker->frame = g_bytes_new_take (g_steal_pointer (&frame), len);
  worker->frame_written = 0;
  worker->stdin_source = g_unix_fd_add (worker->stdin_fd, G_IO_OUT | G_IO_ERR | G_IO_HUP,
                                        on_stdin_writable, worker);
  return TRUE;
}

/* The candidate file for a test of @session: a session shared by several
 * tests (the verification's full session: a million actions are seconds
 * to write) is written once, and each test gets a link to it. */
static gboolean
write_candidate (Runner *runner, const Session *session, const char *path, GError **error)
{
  /* Files of our private folder, read once by the test's replay: not
   * synced, and given up at a signal or --limit-time (G_IO_ERROR_CANCELLED). */
  GCancellable *cancellable = proc_interrupt_get_cancellable ();

  if (session != runner->shared || runner->shared == NULL)
    return session_save_scratch (session, path, cancellable, error);
  if (runner->shared_path == NULL)
    {
      g_autofree char *shared = g_strdup_printf ("%s/shared-%" G_GUINT64_FORMAT ".log",
                                                 runner->workdir, runner->serial++);

      if (!session_save_scratch (session, shared, cancellable, error))
        return FALSE;
      runner->shared_path = g_steal_pointer (&shared);
    }
  return link (runner->shared_path, path) == 0
         || session_save_scratch (session, path, cancellable, error);
}

static gboolean
launch_test (Runner *runner, Worker *worker, Session *session, gint index,
             const Background *bg, GError **error)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GPtrArray) quoted = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  const char *display = worker->server != NULL ? xserver_get_display (worker->server) : NULL;
  g_auto (GStrv) command = NULL;
  ProcSpawnOptions spawn;

  /* The --test command decides, but extra xreplay options (the report's
   * replay) ask for xreplay itself. */
  const char *report_dir = bg != NULL ? bg->report_dir : NULL;
  gboolean by_test = runner->test_argv != NULL && report_dir == NULL;
  /* The report's replay writes its folder here: never through the
   * launcher. */
  gboolean launched = runner->launcher_argv != NULL && !by_test && report_dir == NULL;
  int child_stdin = -1;

  /* An X server that failed its last test (killed, stopped) is replaced
   * first; one that died meanwhile too. */
  if (worker->server != NULL && (worker->restart || !xserver_is_alive (worker->server)))
    {
      if (!worker_start_server (runner, worker, error))
        return FALSE;
      display = xserver_get_display (worker->server);
    }
  worker->restart = FALSE;

  if (!by_test && runner->xreplay == NULL)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA,
                   "cannot find the xreplay program beside xreduce or in PATH");
      return FALSE;
    }
  if (report_dir != NULL)
    {
      /* A replay for a report: its report.md names the session as the
       * copy beside it does, session.log, not a candidate file. */
      g_autofree char *dir = g_strdup_printf ("%s/report-%" G_GUINT64_FORMAT, runner->workdir,
                                              runner->serial++);
      if (g_mkdir (dir, 0700) != 0 && errno != EEXIST)
        {
          int saved = errno;
          g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "cannot create %s: %s", dir,
                       g_strerror (saved));
          return FALSE;
        }
      path = g_build_filename (dir, "session.log", NULL);
    }
  else if (!launched)
    path = g_strdup_printf ("%s/candidate-%u-%" G_GUINT64_FORMAT ".log",
                            runner->workdir, worker->id, runner->serial++);
  if (path != NULL && !write_candidate (runner, session, path, error))
    return FALSE;

  if (by_test)
    {
      for (char **a = runner->test_argv; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      g_ptr_array_add (argv, path);
    }
  else
    {
      ReplayOverrides overrides = runner->overrides;

      overrides.report_dir = report_dir;
      overrides.no_backtrace = bg != NULL && bg->no_backtrace;
      command = replay_args_command (runner->xreplay, (const char *const *) runner->xreplay_args,
                                     &overrides, display, launched ? "-" : path,
                                     (const char *const *) runner->app_argv);
      for (char **a = launched ? runner->launcher_argv : NULL; a != NULL && *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      for (char **a = command; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
    }
  if (launched && runner->launcher_quotes)
    {
      /* ssh joins its arguments into one line for the remote shell: each
       * of ours (an option's value, the app's arguments) a quoted word of
       * it, as given. */
      for (guint i = g_strv_length (runner->launcher_argv); i < argv->len; i++)
        {
          char *word = g_shell_quote (g_ptr_array_index (argv, i));
          g_ptr_array_add (quoted, word);
          argv->pdata[i] = word;
        }
    }
  g_ptr_array_add (argv, NULL);
  if (display != NULL)
    {
      envp = g_environ_setenv (envp, "DISPLAY", display, TRUE);
      envp = g_environ_setenv (envp, "XREDUCE_DISPLAY", display, TRUE);
      if (worker->xauthority != NULL)
        envp = g_environ_setenv (envp, "XAUTHORITY", worker->xauthority, TRUE);
    }

  proc_spawn_options_init (&spawn);
  spawn.argv = (const char *const *) argv->pdata;
  spawn.envp = (const char *const *) envp;
  spawn.out = PROC_OUTPUT_CAPTURE;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.on_exit = on_test_done;
  spawn.user_data = worker;
  if (launched)
    {
      if (!worker_open_stdin (worker, session, &child_stdin, error))
        return FALSE;
      spawn.stdin_fd = child_stdin;
      /* Our death reaches the launcher as SIGUSR1, which srun passes on
       * (and its stdin closes); the keeper's SIGTERM and SIGKILL would
       * cut it off from the replay it runs (runner.h). */
      spawn.death_signal = SIGUSR1;
      spawn.no_keeper = TRUE;
    }
  worker->process = proc_spawn (&spawn, error);
  if (child_stdin >= 0)
    close (child_stdin);
  if (worker->process == NULL)
    {
      if (path != NULL)
        unlink (path);
      worker_close_stdin (worker);
      return FALSE;
    }
  worker->launched = launched;
  worker->stop_stage = 0;
  worker->index = index;
  worker->session = session;
  worker->by_test = by_test;
  worker->killed = FALSE;
  worker->path = g_steal_pointer (&path);
  worker->started_us = g_get_monotonic_time ();
  worker->timed_out = FALSE;
  worker->infra_attempt = 0;
  worker->n_actions = session_get_n_actions (session);
  g_clear_handle_id (&worker->timeout_id, g_source_remove);
  /* xreplay's own waits are bounded, but not a call into Xlib on a
   * stopped X server: a time limit over it all. (A --test command is the
   * user's: it decides itself.) */
  if (!by_test)
    worker->timeout_id = g_timeout_add (runner_test_timeout (runner, worker->n_actions),
                                        on_test_timeout, worker);
  if (worker->server != NULL && !launched && runner->server_watch == 0)
    runner->server_watch = g_timeout_add (RUNNER_SERVER_WATCH_MS, on_server_watch, runner);
  g_debug ("worker %u: candidate %d (%u actions) started", worker->id, index,
           session_get_n_actions (session));
  return TRUE;
}

/* Starts queued background tests on idle workers. */
static void
launch_background (Runner *runner)
{
  Worker *worker;

  while (!g_queue_is_empty (&runner->background) && (worker = idle_worker (runner)) != NULL)
    {
      Background *bg = g_queue_pop_head (&runner->background);
      g_autoptr (GError) error = NULL;

      if (!launch_test (runner, worker, bg->session, -1, bg, &error))
        {
          runner->n_background--;
          bg->done (NULL, FALSE, error, bg->done_data);
          background_free (bg);
          continue;
        }
      worker->background = bg;
      worker->infra_attempt = bg->infra_attempt;
    }
}

static void
queue_background (Runner *runner, Session *session, gboolean shared, const char *report_dir,
                  gboolean no_backtrace,
                  RunnerPredicate predicate, gpointer predicate_data,
                  RunnerDoneFunc done, gpointer done_data)
{
  Background *bg = g_new0 (Background, 1);

  bg->session = session;
  bg->shared = shared;
  bg->report_dir = g_strdup (report_dir);
  bg->no_backtrace = no_backtrace;
  bg->predicate = predicate;
  bg->predicate_data = predicate_data;
  bg->done = done;
  bg->done_data = done_data;
  g_queue_push_tail (&runner->background, bg);
  runner->n_background++;
  if (!runner->cancelled)
    launch_background (runner);
}

void
runner_start_background (Runner *runner, Session *session, RunnerPredicate predicate,
                         gpointer predicate_data, RunnerDoneFunc done, gpointer done_data)
{
  queue_background (runner, session, FALSE, NULL, FALSE, predicate, predicate_data, done, done_data);
}

void
runner_start_background_shared (Runner *runner, const Session *session,
                                RunnerPredicate predicate, gpointer predicate_data,
                                RunnerDoneFunc done, gpointer done_data)
{
  if (session != runner->shared)
    {
      if (runner->shared_path != NULL)
        unlink (runner->shared_path);
      g_clear_pointer (&runner->shared_path, g_free);
      g_clear_pointer (&runner->shared_text, g_free);
      runner->shared = session;
    }
  queue_background (runner, (Session *) session, TRUE, NULL, FALSE, predicate, predicate_data, done,
                    done_data);
}

guint
runner_get_n_background (const Runner *runner)
{
  return runner->n_background;
}

gboolean
runner_step_background (Runner *runner, GError **error)
{
  if (runner->n_background > 0 && !runner->cancelled)
    {
      launch_background (runner);
      g_main_context_iteration (NULL, TRUE);
    }
  if (runner->cancelled)
    {
      g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
      return FALSE;
    }
  return TRUE;
}

gboolean
runner_wait_background (Runner *runner, GError **error)
{
  while (runner->n_background > 0 && !runner->cancelled)
    {
      launch_background (runner);
      g_main_context_iteration (NULL, TRUE);
    }
  if (runner->cancelled)
    {
      g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  gboolean done;
  RunResult *result;
  GError *error;
} Once;

static void
on_once_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  Once *once = data;

  once->done = TRUE;
  if (error != NULL)
    once->error = g_error_copy (error);
  else
    {
      /* Taken whole: the caller clears what is left. */
      *once->result = *result;
      memset (result, 0, sizeof *result);
    }
}

gboolean
runner_run_once (Runner *runner, Session *session, const char *report_dir, gboolean traced,
                 RunResult *result, GError **error)
{
  guint n = session_get_n_actions (session);
  g_autofree guint *all = g_new (guint, MAX (n, 1));
  Once once = { .result = result };

  memset (result, 0, sizeof *result);
  for (guint i = 0; i < n; i++)
    all[i] = i;
  queue_background (runner, session_subset (session, all, n), FALSE, report_dir, !traced,
                    NULL, NULL, on_once_done, &once);
  /* Until it is over: on_once_done() writes to this frame. */
  while (!once.done)
    {
      if (runner->cancelled)
        {
          /* Never started: nothing will call back. */
          for (GList *l = runner->background.head; l != NULL; l = l->next)
            if (((Background *) l->data)->done_data == &once)
              {
                background_free (l->data);
                g_queue_delete_link (&runner->background, l);
                runner->n_background--;
                g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED,
                                     "interrupted");
                return FALSE;
              }
        }
      else
        launch_background (runner);
      g_main_context_iteration (NULL, TRUE);
    }
  if (once.error != NULL)
    {
      g_propagate_error (error, once.error);
      return FALSE;
    }
  return TRUE;
}

/* Starts what waits, on idle workers: background tests, then the batch's
 * retries (in index order), then the batch's next candidates that may
 * start (@startable). */
static void
launch_pending (Runner *runner, Session *const *sessions, guint n, const gboolean *startable,
                guint *next)
{
  Worker *worker;

  launch_background (runner);
  while ((worker = idle_worker (runner)) != NULL)
    {
      GError **error = runner->batch_error == NULL ? &runner->batch_error : NULL;
      Retry *retry = g_queue_pop_head (&runner->retries);

      if (retry != NULL)
        {
          gboolean ok = launch_test (runner, worker, retry->session, retry->index, NULL, error);

          worker->attempt = retry->attempt + 1;
          worker->infra_attempt = retry->infra_attempt;
          g_free (retry);
          if (!ok)
            return;
          continue;
        }
      while (*next < n && !startable[*next])
        (*next)++;
      if (*next >= n)
        return;
      if (!launch_test (runner, worker, sessions[*next], (gint) *next, NULL, error))
        return;
      worker->attempt = 1;
      (*next)++;
    }
}

/* Which candidates are wanted, as runner_run_batch() says, from what is
 * done so far; @seq_failed has room for n + 1 sequences. */
static void
batch_wanted (Runner *runner, const RunnerBranch *branches, guint n, gboolean *wanted,
              gboolean *seq_failed)
{
  memset (seq_failed, 0, (n + 1) * sizeof *seq_failed);
  for (guint i = 0; i < n; i++)
    {
      gint parent = branches != NULL ? branches[i].parent : -1;
      guint seq = (guint) (parent + 1);

      g_assert (parent < (gint) i);
      wanted[i] = !seq_failed[seq]
                  && (parent < 0 || (wanted[parent] && !(runner->done[parent]
                                                         && !runner->failed[parent])));
      if (wanted[i] && runner->done[i] && runner->failed[i])
        seq_failed[seq] = TRUE;
    }
}

/* The batch's own candidates are decided: each has run, up to the first
 * that failed. */
static gboolean
batch_decided (Runner *runner, const RunnerBranch *branches, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      if (branches != NULL && (branches[i].parent >= 0 || branches[i].speculative))
        continue;
      if (!runner->done[i])
        return FALSE;
      if (runner->failed[i])
        return TRUE;
    }
  return TRUE;
}

gboolean
runner_run_batch (Runner *runner, Session *const *sessions, guint n,
                  const RunnerBranch *branches,
                  RunnerPredicate predicate, gpointer predicate_data,
                  RunResult *results, gboolean *failed, gboolean *done,
                  GError **error)
{
  g_autofree gboolean *wanted = g_new0 (gboolean, n);
  g_autofree gboolean *startable = g_new0 (gboolean, n);
  g_autofree gboolean *seq_failed = g_new0 (gboolean, n + 1);
  guint next = 0;

  runner->predicate = predicate;
  runner->predicate_data = predicate_data;
  runner->results = results;
  runner->failed = failed;
  runner->done = done;
  runner->n_batches++;
  if (n < runner->active)
    runner->n_short_batches++;
  for (guint i = 0; i < n; i++)
    {
      done[i] = FALSE;
      failed[i] = FALSE;
      memset (&results[i], 0, sizeof results[i]);
    }

  for (;;)
    {
      gboolean decided, stop, busy = FALSE, waiting = FALSE;

      batch_wanted (runner, branches, n, wanted, seq_failed);
      decided = batch_decided (runner, branches, n);
      for (guint i = 0; i < n; i++)
        startable[i] = wanted[i] && !done[i]
                       && !(decided && branches != NULL && branches[i].speculative);
      stop = runner->cancelled || runner->batch_error != NULL;

      /* Kill what can no longer matter, and forget its retries. */
      for (GList *l = runner->retries.head, *link; l != NULL; l = link)
        {
          link = l->next;
          if (stop || !startable[((Retry *) l->data)->index])
            {
              g_free (l->data);
              g_queue_delete_link (&runner->retries, l);
            }
        }
      for (guint w = 0; w < runner->workers->len; w++)
        {
          Worker *worker = g_ptr_array_index (runner->workers, w);

          /* Background tests are not the batch's: they run on. */
          if (worker->process == NULL || worker->background != NULL)
            continue;
          busy = TRUE;
          if (stop || worker->index < 0 || !wanted[worker->index])
            worker_kill (worker);
          else
            waiting = TRUE;
        }
      if (!stop)
        {
          launch_pending (runner, sessions, n, startable, &next);
          if (runner->batch_error != NULL)
            continue;   /* stop: what runs is killed, above */
          /* Whatever started, or waits to start again, keeps the batch. */
          for (guint w = 0; w < runner->workers->len && !waiting; w++)
            {
              Worker *worker = g_ptr_array_index (runner->workers, w);

              waiting = worker->process != NULL && worker->background == NULL && !worker->killed;
            }
          waiting |= runner->retries.length > 0;
          busy |= waiting;
        }
      if ((stop || decided) && !waiting && !busy)
        break;
      g_main_context_iteration (NULL, TRUE);
    }

  runner->results = NULL;
  runner->failed = NULL;
  runner->done = NULL;
  g_queue_clear_full (&runner->retries, g_free);

  if (runner->cancelled)
    {
      g_clear_error (&runner->batch_error);
      g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
      return FALSE;
    }
  if (runner->batch_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&runner->batch_error));
      /* A worker's Xvfb may have died: give every worker a fresh one so
       * the caller may retry. */
      for (guint w = 0; w < runner->workers->len; w++)
        {
          Worker *worker = g_ptr_array_index (runner->workers, w);
          if (worker->process == NULL && worker->server != NULL
              && !xserver_is_alive (worker->server))
            worker_start_server (runner, worker, NULL);
        }
      return FALSE;
    }
  return TRUE;
}
