/* runner-private.h — the runner's state, shared by runner.c (the
 * schedule: batches, background tests, retries), worker.c (a worker: its
 * X server and authority, its test's stdin, stopping it) and launch.c
 * (one test: its candidate file, its command line, here or through the
 * launcher, and its result).
 */
#pragma once

#include "runner.h"
#include "frame.h"
#include "proc.h"
#include "replay-args.h"
#include "xserver.h"

/* How long a private Xvfb may take to start. */
#define RUNNER_SERVER_TIMEOUT_MS 10000
/* How many workers' servers runner_new() waits for; the others are
 * waited for before their first test. */
#define RUNNER_READY_FIRST 2
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

typedef struct Runner Runner;

typedef struct
{
  Runner *runner;
  guint id;
  XServer *server;           /* owned; NULL with fresh_server */
  gboolean ready;            /* ... seen ready, its cookie written (worker_ensure_ready) */
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
  gboolean no_glx;           /* its X server runs without GLX (worker_server_options) */
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
  gboolean deferred;         /* started only when no other queued one waits
                              * (runner_start_once: a guess) */
  guint attempt;             /* tries so far */
  guint infra_attempt;       /* infrastructure failures so far */
  RunnerPredicate predicate;
  gpointer predicate_data;
  RunnerDoneFunc done;
  gpointer done_data;
} Background;

struct Runner
{
  RunnerOptions options;     /* strings owned below */
  char *xreplay;
  char **xreplay_args, **app_argv, **test_argv;
  char **launcher_argv;      /* or NULL: tests run here, on the workers' Xvfbs */
  gboolean launcher_quotes;  /* it is ssh: our words go to a shell there, quoted */
  char *workdir;
  GPtrArray *workers;        /* of Worker* */
  ProcExitFunc test_done;    /* a test's end (runner.c's, for launch.c) */
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
  gboolean glx_needed;       /* a replay's client asked for GLX: every X server has it */
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

/* worker.c: (and a background test's end) */
void background_free (Background *bg);
gboolean worker_write_xauthority (Runner *runner, Worker *worker, GError **error);
/* The options of @worker's next X server: with GLX for the first
 * options.glx_first workers' first servers, for a --test command (which
 * says nothing of GLX) and once a replay's client asked for it; without
 * otherwise (worker->no_glx says which). */
XServerOptions worker_server_options (Runner *runner, Worker *worker, gboolean first);
/* A fresh X server for @worker (its old one, if any, stopped). */
gboolean worker_start_server (Runner *runner, Worker *worker, GError **error);
/* @worker's X server, started with the others, waited for before its
 * first test (and its cookie written). */
gboolean worker_ensure_ready (Runner *runner, Worker *worker, GError **error);
void worker_free (Worker *worker);
/* One of @worker's timers (*@id) has fired: it is cleared; TRUE while a
 * test still runs, which the timer's stage is for. */
gboolean worker_timer_fired (Worker *worker, guint *id);
/* An idle worker among the active ones, or NULL. */
Worker *worker_find_idle (Runner *runner);
/* Stopping a test: through the launcher in stages (its stdin closed,
 * SIGUSR1, SIGTERM, SIGKILL), here at once. */
void worker_stop_launched (Worker *worker);
void worker_kill (Worker *worker);
/* The running tests' X servers looked at: one stopped hangs its test. */
gboolean worker_on_server_watch (gpointer data);
/* A launched test's stdin: a socket the frame of @session is written
 * to as it drains (*@child_end the test's end); closed. */
gboolean worker_open_stdin (Worker *worker, Session *session, int *child_end, GError **error);
void worker_close_stdin (Worker *worker);

/* launch.c: starts @session's test on @worker (@index in the batch, or
 * -1 for @bg's); what came back from a test, as a result. */
gboolean launch_test (Runner *runner, Worker *worker, Session *session, gint index,
                      const Background *bg, GError **error);
gboolean launch_collect_result (Runner *runner, gboolean by_test, gboolean launched, int status,
                                const char *out, const char *err, RunResult *result,
                                GError **error);
/* A replay whose client asked for GLX: every X server has GLX from now
 * on (those without are replaced before their next test). On @worker's
 * server without GLX it says nothing of the app: TRUE, and the test runs
 * again, as the same try. */
gboolean launch_glx_again (Runner *runner, Worker *worker, const RunResult *result);
/* Whether a test that failed for the infrastructure, or whose app could
 * not start, may run again (@error says why not). */
gboolean launch_infra_may_retry (Runner *runner, Worker *worker, guint infra_attempt,
                                 GError **error);
gboolean launch_may_retry (Runner *runner, const RunResult *result, guint attempt,
                           GError **error);

/* background.c: queued background tests started on idle workers; one's
 * end, answered through its callback (or run again). */
void background_launch (Runner *runner);
void background_done (Runner *runner, Worker *worker, Background *bg, gboolean killed,
                      gboolean launched, int status, const char *out, const char *err);
