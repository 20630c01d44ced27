/* runner.c — runs candidate sessions on a pool of workers.
 *
 * Start reading at runner_run_batch(): it hands candidates to idle workers
 * in index order, and spins the main context until the batch is decided.
 * Each test is a child process in its own process group (launch_test), so
 * that killing a test that no longer matters takes its whole tree along.
 * xreplay answers with one JSON object (parse_replay_json).
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner.h"
#include "xserver.h"

#include <errno.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_DEFINE_QUARK (xreduce-runner-error-quark, runner_error)

typedef struct Runner Runner;

typedef struct
{
  Runner *runner;
  guint id;
  XServer *server;           /* owned; NULL with fresh_server */
  GSubprocess *process;      /* the running test, or NULL when idle */
  gint index;                /* candidate index in the current batch, -1 idle */
  char *path;                /* candidate file of the running test */
  gboolean killed;           /* we killed it: ignore its result */
  gint64 started_us;
  struct Background *background;  /* owned: the running test is a background one, or NULL */
  Session *session;          /* the running test's (borrowed), for a retry */
  gboolean retried;          /* the running test is a retry */
} Worker;

/* A background test (runner_start_background). */
typedef struct Background
{
  Session *session;          /* owned */
  RunnerPredicate predicate;
  gpointer predicate_data;
  RunnerDoneFunc done;
  gpointer done_data;
} Background;

static void
background_free (Background *bg)
{
  session_free (bg->session);
  g_free (bg);
}

struct Runner
{
  RunnerOptions options;     /* strings owned below */
  char *xreplay;
  char **xreplay_args, **app_argv, **test_argv;
  char *workdir;
  GPtrArray *workers;        /* of Worker* */
  gboolean cancelled;
  guint64 serial;
  guint window_wait_ms;      /* runner_set_window_wait(), or 0 */
  GQueue background;         /* of Background*: queued, not started yet */
  guint n_background;        /* queued or running */

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
  g_clear_pointer (&result->outcome, g_free);
  g_clear_pointer (&result->backtrace, g_strfreev);
  g_clear_pointer (&result->stderr_tail, g_free);
  g_clear_pointer (&result->detail, g_free);
}

static void
worker_free (Worker *worker)
{
  if (worker->process != NULL)
    {
      const char *id = g_subprocess_get_identifier (worker->process);
      if (id != NULL)
        kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGKILL);
      g_clear_object (&worker->process);
    }
  if (worker->server != NULL)
    xserver_free (worker->server);
  g_clear_pointer (&worker->background, background_free);
  g_free (worker->path);
  g_free (worker);
}

static gboolean
worker_start_server (Runner *runner, Worker *worker, GError **error)
{
  if (runner->options.fresh_server && runner->test_argv == NULL)
    return TRUE;
  g_clear_pointer (&worker->server, xserver_free);
  worker->server = xserver_start (runner->options.screen_width,
                                  runner->options.screen_height, error);
  return worker->server != NULL;
}

Runner *
runner_new (const RunnerOptions *options, GError **error)
{
  g_autoptr (Runner) runner = g_new0 (Runner, 1);

  runner->options = *options;
  runner->xreplay = g_strdup (options->xreplay);
  runner->xreplay_args = g_strdupv (options->xreplay_args);
  runner->app_argv = g_strdupv (options->app_argv);
  runner->test_argv = g_strdupv (options->test_argv);
  runner->workdir = g_strdup (options->workdir);
  runner->workers = g_ptr_array_new_with_free_func ((GDestroyNotify) worker_free);
  /* The workers' servers start all at once, then are waited for. */
  for (guint i = 0; i < MAX (options->workers, 1); i++)
    {
      Worker *worker = g_new0 (Worker, 1);

      worker->runner = runner;
      worker->id = i;
      worker->index = -1;
      g_ptr_array_add (runner->workers, worker);
      if (options->fresh_server && options->test_argv == NULL)
        continue;
      worker->server = xserver_spawn (options->screen_width, options->screen_height, error);
      if (worker->server == NULL)
        return NULL;
    }
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);
      if (worker->server != NULL && !xserver_wait_ready (worker->server, error))
        return NULL;
    }
  return g_steal_pointer (&runner);
}

void
runner_free (Runner *runner)
{
  if (runner == NULL)
    return;
  /* Kill every running test and stop every Xvfb. */
  g_ptr_array_unref (runner->workers);
  g_queue_clear_full (&runner->background, (GDestroyNotify) background_free);
  g_free (runner->xreplay);
  g_strfreev (runner->xreplay_args);
  g_strfreev (runner->app_argv);
  g_strfreev (runner->test_argv);
  g_free (runner->workdir);
  g_clear_error (&runner->batch_error);
  g_free (runner);
}

guint
runner_get_n_workers (const Runner *runner)
{
  return runner->workers->len;
}

void
runner_set_window_wait (Runner *runner, guint ms)
{
  runner->window_wait_ms = ms;
}

static void
child_setup (gpointer data)
{
  /* Own process group: a test is killed with everything it started. */
  setpgid (0, 0);
}

static void
worker_kill (Worker *worker)
{
  const char *id;

  if (worker->process == NULL || worker->killed)
    return;
  worker->killed = TRUE;
  id = g_subprocess_get_identifier (worker->process);
  if (id != NULL)
    {
      pid_t pid = (pid_t) g_ascii_strtoll (id, NULL, 10);
      /* xreplay cleans up its app on SIGTERM; the group kill reaches
       * everything else the test started. */
      kill (pid, SIGTERM);
      kill (-pid, SIGTERM);
    }
}

void
runner_cancel (Runner *runner)
{
  runner->cancelled = TRUE;
  for (guint i = 0; i < runner->workers->len; i++)
    worker_kill (g_ptr_array_index (runner->workers, i));
}

static gboolean
parse_replay_json (const char *text, RunResult *result, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *object;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA,
                   "xreplay printed no JSON object");
      return FALSE;
    }
  object = json_node_get_object (root);
  result->outcome = g_strdup (json_object_get_string_member_with_default (object, "outcome", "unknown"));
  if (json_object_has_member (object, "signal_number")
      && !json_object_get_null_member (object, "signal_number"))
    result->signal = (int) json_object_get_int_member (object, "signal_number");
  result->exit_status = -1;
  if (json_object_has_member (object, "exit_status")
      && !json_object_get_null_member (object, "exit_status"))
    result->exit_status = (int) json_object_get_int_member (object, "exit_status");
  result->stderr_matched = json_object_get_boolean_member_with_default (object, "stderr_matched", FALSE);
  result->actions = (guint) json_object_get_int_member_with_default (object, "actions", 0);
  result->actions_replayed = (guint) json_object_get_int_member_with_default (object, "actions_replayed", 0);
  result->stderr_tail = g_strdup (json_object_get_string_member_with_default (object, "stderr_tail", ""));
  if (json_object_has_member (object, "detail") && !json_object_get_null_member (object, "detail"))
    result->detail = g_strdup (json_object_get_string_member (object, "detail"));
  result->window_latency_ms = -1;
  if (json_object_has_member (object, "window_latency_ms")
      && !json_object_get_null_member (object, "window_latency_ms"))
    result->window_latency_ms = json_object_get_int_member (object, "window_latency_ms");
  if (json_object_has_member (object, "backtrace"))
    {
      JsonNode *node = json_object_get_member (object, "backtrace");
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *frames = json_node_get_array (node);
          GStrvBuilder *builder = g_strv_builder_new ();
          for (guint i = 0; i < json_array_get_length (frames); i++)
            {
              JsonNode *frame = json_array_get_element (frames, i);
              if (JSON_NODE_HOLDS_VALUE (frame) && json_node_get_value_type (frame) == G_TYPE_STRING)
                g_strv_builder_add (builder, json_node_get_string (frame));
            }
          result->backtrace = g_strv_builder_end (builder);
          g_strv_builder_unref (builder);
        }
    }
  return TRUE;
}

static void launch_pending (Runner *runner, Session *const *sessions, guint n,
                            guint *next);

/* What a finished test said: FALSE with RUNNER_ERROR_INFRA if xreplay
 * broke or answered nonsense. */
static gboolean
collect_result (Runner *runner, GSubprocess *process, const char *out, char *err,
                RunResult *result, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (runner->test_argv != NULL)
    {
      gboolean still_fails = g_subprocess_get_if_exited (process)
                             && g_subprocess_get_exit_status (process) == 0;
      result->outcome = g_strdup (still_fails ? "test-failed" : "test-passed");
      result->exit_status = g_subprocess_get_if_exited (process)
                              ? g_subprocess_get_exit_status (process) : -1;
      result->stderr_tail = g_strdup (err != NULL ? err : "");
      result->window_latency_ms = -1;
      return TRUE;
    }

  int status = g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
  if (status == 2 || status == 3 || status < 0
      || !parse_replay_json (out != NULL ? out : "", result, &local))
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "xreplay failed (exit status %d)%s%s",
                   status, err != NULL && *err ? ": " : "", err != NULL ? g_strstrip (err) : "");
      run_result_clear (result);
      return FALSE;
    }
  if (g_strcmp0 (result->outcome, "infrastructure-error") == 0)
    {
      g_set_error (error, RUNNER_ERROR, RUNNER_ERROR_INFRA, "replay infrastructure error: %s",
                   err != NULL ? g_strstrip (err) : "");
      run_result_clear (result);
      return FALSE;
    }
  return TRUE;
}

static gboolean launch_test (Runner *runner, Worker *worker, Session *session, gint index,
                             GError **error);

/* An app that could not start (no window before --start-timeout, or it
 * died first) is most often an app starting slowly beside the other
 * workers' replays: such a test runs once more on the same worker before
 * its result counts (a pass, for the search). Returns TRUE if it was
 * started again. */
static gboolean
retry_if_not_started (Runner *runner, Worker *worker, const RunResult *result, gint index,
                      gboolean retried, Background *bg)
{
  g_autoptr (GError) error = NULL;

  if (retried || runner->cancelled || runner->test_argv != NULL
      || g_strcmp0 (result->outcome, "could-not-start") != 0)
    return FALSE;
  if (!launch_test (runner, worker, worker->session, index, &error))
    return FALSE;
  g_debug ("worker %u: the app could not start; once more", worker->id);
  worker->retried = TRUE;
  worker->background = bg;
  return TRUE;
}

static void
on_test_done (GObject *source, GAsyncResult *res, gpointer data)
{
  Worker *worker = data;
  Runner *runner = worker->runner;
  GSubprocess *process = G_SUBPROCESS (source);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) finished = g_steal_pointer (&worker->process);
  Background *bg = g_steal_pointer (&worker->background);
  gint index = worker->index;
  gboolean killed = worker->killed, retried = worker->retried;
  RunResult result = { 0 };

  g_subprocess_communicate_utf8_finish (process, res, &out, &err, &error);
  if (worker->path != NULL)
    {
      unlink (worker->path);
      g_clear_pointer (&worker->path, g_free);
    }
  result.elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  worker->index = -1;
  worker->killed = FALSE;

  if (bg != NULL)
    {
      gboolean failed = FALSE;

      runner->n_background--;
      if (killed)
        g_set_error_literal (&error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
      else if (error == NULL && collect_result (runner, process, out, err, &result, &error))
        {
          if (retry_if_not_started (runner, worker, &result, index, retried, bg))
            {
              run_result_clear (&result);
              runner->n_background++;
              return;
            }
          failed = bg->predicate (&result, bg->predicate_data);
        }
      if (error == NULL)
        g_debug ("worker %u: background test (%u actions): %s%s after %" G_GINT64_FORMAT " ms",
                 worker->id, result.actions, result.outcome, failed ? " (fails)" : "",
                 result.elapsed_ms);
      bg->done (error == NULL ? &result : NULL, failed, error, bg->done_data);
      run_result_clear (&result);
      background_free (bg);
      return;
    }

  if (killed || index < 0 || runner->results == NULL)
    return;   /* no longer matters */

  if (error != NULL || !collect_result (runner, process, out, err, &result, &error))
    {
      if (runner->batch_error == NULL)
        runner->batch_error = g_steal_pointer (&error);
      return;
    }
  if (retry_if_not_started (runner, worker, &result, index, retried, NULL))
    {
      run_result_clear (&result);
      return;
    }
  runner->results[index] = result;
  runner->failed[index] = runner->predicate (&runner->results[index], runner->predicate_data);
  g_debug ("worker %u: candidate %d (%u actions): %s%s after %" G_GINT64_FORMAT " ms",
           worker->id, index, result.actions, result.outcome,
           runner->failed[index] ? " (fails)" : "", result.elapsed_ms);
  runner->done[index] = TRUE;
}

static gboolean
launch_test (Runner *runner, Worker *worker, Session *session, gint index,
             GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *path = NULL;
  const char *display = worker->server != NULL ? xserver_get_display (worker->server) : NULL;
  char window_wait[32];

  path = g_strdup_printf ("%s/candidate-%u-%" G_GUINT64_FORMAT ".log",
                          runner->workdir, worker->id, runner->serial++);
  if (!session_save (session, path, error))
    return FALSE;

  if (runner->test_argv != NULL)
    {
      for (char **a = runner->test_argv; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      g_ptr_array_add (argv, path);
    }
  else
    {
      g_ptr_array_add (argv, runner->xreplay);
      g_ptr_array_add (argv, (char *) "--json");
      for (char **a = runner->xreplay_args; a != NULL && *a != NULL; a++)
        g_ptr_array_add (argv, *a);
      if (runner->window_wait_ms > 0)
        {
          /* After the user's options: the last one counts. */
          g_snprintf (window_wait, sizeof window_wait, "--window-wait=%u", runner->window_wait_ms);
          g_ptr_array_add (argv, window_wait);
        }
      if (display != NULL)
        {
          g_ptr_array_add (argv, (char *) "--display");
          g_ptr_array_add (argv, (char *) display);
        }
      g_ptr_array_add (argv, path);
      g_ptr_array_add (argv, (char *) "--");
      for (char **a = runner->app_argv; *a != NULL; a++)
        g_ptr_array_add (argv, *a);
    }
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  if (display != NULL)
    {
      g_subprocess_launcher_setenv (launcher, "DISPLAY", display, TRUE);
      g_subprocess_launcher_setenv (launcher, "XREDUCE_DISPLAY", display, TRUE);
    }
  worker->process = g_subprocess_launcher_spawnv (launcher,
                                                  (const char *const *) argv->pdata,
                                                  error);
  if (worker->process == NULL)
    return FALSE;
  worker->index = index;
  worker->session = session;
  worker->retried = FALSE;
  worker->killed = FALSE;
  worker->path = g_steal_pointer (&path);
  worker->started_us = g_get_monotonic_time ();
  g_debug ("worker %u: candidate %d (%u actions) started", worker->id, index,
           session_get_n_actions (session));
  g_subprocess_communicate_utf8_async (worker->process, NULL, NULL,
                                       on_test_done, worker);
  return TRUE;
}

/* Starts queued background tests on idle workers. */
static void
launch_background (Runner *runner)
{
  for (guint w = 0; w < runner->workers->len && !g_queue_is_empty (&runner->background); w++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, w);
      Background *bg;
      g_autoptr (GError) error = NULL;

      if (worker->process != NULL)
        continue;
      bg = g_queue_pop_head (&runner->background);
      if (!launch_test (runner, worker, bg->session, -1, &error))
        {
          runner->n_background--;
          bg->done (NULL, FALSE, error, bg->done_data);
          background_free (bg);
          continue;
        }
      worker->background = bg;
    }
}

void
runner_start_background (Runner *runner, Session *session, RunnerPredicate predicate,
                         gpointer predicate_data, RunnerDoneFunc done, gpointer done_data)
{
  Background *bg = g_new0 (Background, 1);

  bg->session = session;
  bg->predicate = predicate;
  bg->predicate_data = predicate_data;
  bg->done = done;
  bg->done_data = done_data;
  g_queue_push_tail (&runner->background, bg);
  runner->n_background++;
  if (!runner->cancelled)
    launch_background (runner);
}

guint
runner_get_n_background (const Runner *runner)
{
  return runner->n_background;
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

static void
launch_pending (Runner *runner, Session *const *sessions, guint n, guint *next)
{
  launch_background (runner);
  for (guint w = 0; w < runner->workers->len && *next < n; w++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, w);

      if (worker->process != NULL)
        continue;
      if (!launch_test (runner, worker, sessions[*next], (gint) *next,
                        runner->batch_error == NULL ? &runner->batch_error : NULL))
        return;
      (*next)++;
    }
}

/* The index of the first failing candidate from @from on such that every
 * candidate before it is done, or -1. */
static gint
decided_failure (Runner *runner, guint from, guint n)
{
  for (guint i = 0; i < from; i++)
    if (!runner->done[i])
      return -1;
  for (guint i = from; i < n; i++)
    {
      if (!runner->done[i])
        return -1;
      if (runner->failed[i])
        return (gint) i;
    }
  return -1;
}

gboolean
runner_run_batch (Runner *runner, Session *const *sessions, guint n,
                  RunnerPredicate predicate, gpointer predicate_data,
                  guint n_always,
                  RunResult *results, gboolean *failed, gboolean *done,
                  GError **error)
{
  guint next = 0;
  gint first_failure = -1;
  gboolean busy;

  runner->predicate = predicate;
  runner->predicate_data = predicate_data;
  runner->results = results;
  runner->failed = failed;
  runner->done = done;
  for (guint i = 0; i < n; i++)
    {
      done[i] = FALSE;
      failed[i] = FALSE;
      memset (&results[i], 0, sizeof results[i]);
    }

  for (;;)
    {
      guint all_done = 0;

      if (!runner->cancelled && runner->batch_error == NULL)
        launch_pending (runner, sessions, n, &next);
      if (n_always < n)
        {
          /* Kill what comes after any failure: it cannot matter. */
          for (guint i = n_always; i < n; i++)
            if (done[i] && failed[i])
              {
                for (guint w = 0; w < runner->workers->len; w++)
                  {
                    Worker *worker = g_ptr_array_index (runner->workers, w);
                    if (worker->index > (gint) i)
                      worker_kill (worker);
                  }
                next = n;  /* start nothing more: all before i have started */
                break;
              }
          first_failure = decided_failure (runner, n_always, n);
        }
      for (guint i = 0; i < n; i++)
        all_done += done[i];

      /* Background tests are not the batch's: they run on. */
      busy = FALSE;
      for (guint w = 0; w < runner->workers->len; w++)
        {
          Worker *worker = g_ptr_array_index (runner->workers, w);
          busy |= worker->process != NULL && worker->background == NULL;
        }

      if (runner->cancelled || runner->batch_error != NULL
          || first_failure >= 0 || all_done == n)
        {
          if (runner->cancelled || runner->batch_error != NULL || first_failure >= 0)
            for (guint w = 0; w < runner->workers->len; w++)
              {
                Worker *worker = g_ptr_array_index (runner->workers, w);
                if (worker->background == NULL)
                  worker_kill (worker);
              }
          if (!busy)
            break;
        }
      g_main_context_iteration (NULL, TRUE);
    }

  runner->results = NULL;
  runner->failed = NULL;
  runner->done = NULL;

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
