/* runner.c — runs candidate sessions on a pool of workers.
 *
 * Start reading at runner_run_batch(): it hands candidates to idle workers
 * in index order, and spins the main context until the batch is decided.
 * Each test is a child process in its own process group (proc.h,
 * launch_test), so that killing a test that no longer matters takes its
 * whole tree along, and that nothing outlives a SIGKILLed xreduce. xreplay
 * answers with one JSON object (replay_result_from_json), whose verdict is typed
 * (verdict.h). The runner's state is in runner-private.h: a worker (its
 * X server, its test's stdin, stopping it) is worker.c's, one test's
 * launch and result launch.c's, the background tests background.c's;
 * this file keeps the pool, the batches and the retries.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner.h"
#include "frame.h"
#include "proc.h"
#include "interrupt.h"
#include "replay-args.h"
#include "xserver.h"
#include "runner-private.h"
#include "quote.h"


#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

static void runner_on_test_done (ProcChild *process, int status, gpointer data);

Runner *
runner_new (const RunnerOptions *options, GError **error)
{
  g_autoptr (Runner) runner = g_new0 (Runner, 1);

  runner->options = *options;
  runner->glx_needed = options->glx_needed;
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
  runner->test_done = runner_on_test_done;
  /* The first workers' servers start, and are waited for (the
   * verification's replays start on them); only then the others, which
   * are waited for before their first test. Started all at once, on two
   * cores, six servers kept the first ready until some 550 ms, two alone
   * are ready in 190 ms: every server loads Mesa and LLVM for GLX. The
   * others start without GLX (worker_server_options), in a third of the
   * time, until a replay's client asks for it (launch_glx_again). */
  for (guint i = 0; i < MAX (options->workers, 1); i++)
    {
      Worker *worker = g_new0 (Worker, 1);

      worker->runner = runner;
      worker->id = i;
      worker->index = -1;
      worker->stdin_fd = -1;
      g_ptr_array_add (runner->workers, worker);
    }
  if ((options->fresh_server && options->test_argv == NULL) || options->launcher_argv != NULL)
    {
      runner->active = runner->ceiling = runner->workers->len;
      return g_steal_pointer (&runner);
    }
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (runner->workers, i);

      if (i == RUNNER_READY_FIRST)
        for (guint w = 0; w < RUNNER_READY_FIRST; w++)
          if (!worker_ensure_ready (runner, g_ptr_array_index (runner->workers, w), error))
            return NULL;
      XServerOptions server_options = worker_server_options (runner, worker, TRUE);

      worker->server = xserver_spawn (&server_options, error);
      /* Each start is a fork of this process, slow once it holds a
       * large session: a signal stops the starting here. */
      if (worker->server == NULL || !proc_check_interrupt (error))
        return NULL;
    }
  for (guint i = 0; i < MIN (runner->workers->len, RUNNER_READY_FIRST); i++)
    if (!worker_ensure_ready (runner, g_ptr_array_index (runner->workers, i), error))
      return NULL;
  runner->active = runner->ceiling = runner->workers->len;
  return g_steal_pointer (&runner);
}

/* A running background test's end once runner_free() has told its
 * caller it was cancelled. */
static void
on_ended_unheard (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
}

/* Every background test's callback is called once (runner.h): those
 * queued or running when the runner goes, with RUNNER_ERROR_CANCELLED,
 * so that what their callers gave them goes too (a confirmation's share
 * of its batch, interrupted: LeakSanitizer's leak at the end of an
 * interrupted xreduce). */
static void
drop_background (Runner *runner)
{
  g_autoptr (GError) cancelled = g_error_new_literal (RUNNER_ERROR, RUNNER_ERROR_CANCELLED,
                                                      "interrupted");
  Background *bg;

  while ((bg = g_queue_pop_head (&runner->background)) != NULL)
    {
      runner->n_background--;
      bg->done (NULL, FALSE, cancelled, bg->done_data);
      background_free (bg);
    }
  for (guint i = 0; i < runner->workers->len; i++)
    {
      Background *running = ((Worker *) g_ptr_array_index (runner->workers, i))->background;
      RunnerDoneFunc done;

      if (running == NULL)
        continue;
      done = running->done;
      running->done = on_ended_unheard;
      done (NULL, FALSE, cancelled, running->done_data);
    }
}

void
runner_free (Runner *runner)
{
  if (runner == NULL)
    return;
  drop_background (runner);
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
      if (worker->server != NULL)
        xserver_signal_stop (worker->server);
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
  /* What was queued and never started is told it was cancelled, and goes:
   * the next test is the caller's, not the search's. But for the caller's
   * own (runner_start_once: the report's replay, queued beside the last
   * checks), unless the runner was cancelled (interrupted: the report is
   * of another session then). */
  for (GList *l = runner->background.head, *next; l != NULL; l = next)
    {
      Background *bg = l->data;

      next = l->next;
      if (bg->deferred && !runner->cancelled)
        continue;
      g_queue_delete_link (&runner->background, l);
      runner->n_background--;
      bg->done (NULL, FALSE, cancelled, bg->done_data);
      background_free (bg);
    }
  runner->cancelled = FALSE;
}

/* A batch test that waits to run again (its app could not start). */
typedef struct
{
  gint index;
  Session *session;          /* borrowed from the batch */
  guint attempt;             /* tries so far */
  guint infra_attempt;       /* infrastructure failures so far */
} Retry;


static void
on_batch_done (Runner *runner, Worker *worker, Session *session, gint index, guint attempt,
               gboolean launched, int status, const char *out, const char *err)
{
  g_autoptr (GError) error = NULL;
  RunResult result = { 0 };

  result.elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  if (!launch_collect_result (runner, worker->by_test, launched, status, out, err, &result, &error))
    {
      if (g_error_matches (error, RUNNER_ERROR, RUNNER_ERROR_INFRA)
          && launch_infra_may_retry (runner, worker, worker->infra_attempt + 1, &error))
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
  if (launch_glx_again (runner, worker, &result))
    {
      Retry *retry = g_new (Retry, 1);

      /* Not a try of the app's: the same try again. */
      *retry = (Retry) { .index = index, .session = session, .attempt = attempt - 1,
                         .infra_attempt = worker->infra_attempt };
      g_queue_push_head (&runner->retries, retry);
      run_result_clear (&result);
      return;
    }
  if (runner->observe != NULL)
    runner->observe (&result, runner->observe_data);
  if (result.replay.verdict.kind == VERDICT_COULD_NOT_START && !runner->cancelled)
    {
      if (!launch_may_retry (runner, &result, attempt, &error))
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
  {
    /* (The detail may quote the app's window titles.) */
    g_autofree char *detail = result.replay.verdict.detail != NULL
                                ? quote_message (result.replay.verdict.detail) : NULL;

    g_debug ("worker %u: candidate %d (%u actions): %s%s after %" G_GINT64_FORMAT " ms%s%s",
             worker->id, index, result.replay.n_actions,
             verdict_kind_to_string (result.replay.verdict.kind),
             runner->failed[index] ? " (fails)" : "", result.elapsed_ms,
             detail != NULL ? ": " : "", detail != NULL ? detail : "");
  }
  runner->done[index] = TRUE;
}

static void
runner_on_test_done (ProcChild *process, int status, gpointer data)
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
       * candidate. launch_collect_result() takes it for a broken xreplay. */
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
    background_done (runner, worker, bg, killed, launched, status, out != NULL ? out : "",
                        said != NULL ? said : err);
  else if (!killed && index >= 0 && runner->results != NULL)
    on_batch_done (runner, worker, worker->session, index, worker->attempt, launched, status,
                   out != NULL ? out : "", said != NULL ? said : err);
}

/* Starts what waits, on idle workers: background tests, then the batch's
 * retries (in index order), then the batch's next candidates that may
 * start (@startable). */
static void
launch_pending (Runner *runner, Session *const *sessions, guint n, const gboolean *startable,
                guint *next)
{
  Worker *worker;

  background_launch (runner);
  while ((worker = worker_find_idle (runner)) != NULL)
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

/* Kills the batch's tests that can no longer matter (all of them if
 * @stop), and forgets their retries; *@busy if a test of the batch ran,
 * *@waiting if one that matters still does. */
static void
batch_drop_unwanted (Runner *runner, gboolean stop, const gboolean *wanted,
                     const gboolean *startable, gboolean *busy, gboolean *waiting)
{
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
      *busy = TRUE;
      if (stop || worker->index < 0 || !wanted[worker->index])
        worker_kill (worker);
      else
        *waiting = TRUE;
    }
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

      batch_drop_unwanted (runner, stop, wanted, startable, &busy, &waiting);
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
