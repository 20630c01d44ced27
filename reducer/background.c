/* background.c — the runner's background tests: tests that are not a
 * batch's candidates (the verification's replays, the rechecks, the
 * report's replay), queued, started on idle workers between batches and
 * beside them, retried like a candidate, each answered through its own
 * callback; runner_run_once() runs one and waits for it.
 */
#define G_LOG_DOMAIN "xreduce-reducer"

#include "runner-private.h"

void
background_done (Runner *runner, Worker *worker, Background *bg, gboolean killed,
                    gboolean launched, int status, const char *out, const char *err)
{
  g_autoptr (GError) error = NULL;
  RunResult result = { 0 };
  gboolean failed = FALSE;

  bg->attempt++;
  result.elapsed_ms = (g_get_monotonic_time () - worker->started_us) / 1000;
  if (killed)
    g_set_error_literal (&error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED, "interrupted");
  else if (!launch_collect_result (runner, worker->by_test, launched, status, out, err, &result,
                            &error))
    {
      if (g_error_matches (error, RUNNER_ERROR, RUNNER_ERROR_INFRA)
          && launch_infra_may_retry (runner, worker, ++bg->infra_attempt, &error))
        {
          /* First in the queue: the verification waits for it. */
          bg->attempt--;
          g_queue_push_head (&runner->background, bg);
          return;
        }
    }
  else if (launch_glx_again (runner, worker, &result))
    {
      /* First in the queue, as the same try. */
      bg->attempt--;
      run_result_clear (&result);
      g_queue_push_head (&runner->background, bg);
      return;
    }
  else
    {
      if (runner->observe != NULL)
        runner->observe (&result, runner->observe_data);
      if (result.replay.verdict.kind == VERDICT_COULD_NOT_START && !runner->cancelled
          && launch_may_retry (runner, &result, bg->attempt, &error))
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

/* The next background test to start: the first in the queue that is not
 * deferred, else the first. */
static Background *
pop_next (Runner *runner)
{
  for (GList *l = runner->background.head; l != NULL; l = l->next)
    if (!((Background *) l->data)->deferred)
      {
        Background *bg = l->data;

        g_queue_delete_link (&runner->background, l);
        return bg;
      }
  return g_queue_pop_head (&runner->background);
}

/* Starts queued background tests on idle workers. */
void
background_launch (Runner *runner)
{
  Worker *worker;

  while (!g_queue_is_empty (&runner->background) && (worker = worker_find_idle (runner)) != NULL)
    {
      Background *bg = pop_next (runner);
      g_autoptr (GError) error = NULL;

      if (!launch_test (runner, worker, bg->session, -1, bg, &error))
        {
          /* Given up at a signal or --limit-time (its file was being
           * written): so is every test queued behind it, without writing
           * theirs (a large session's is a second each). */
          gboolean stopped = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

          runner->n_background--;
          bg->done (NULL, FALSE, error, bg->done_data);
          background_free (bg);
          while (stopped && (bg = g_queue_pop_head (&runner->background)) != NULL)
            {
              runner->n_background--;
              bg->done (NULL, FALSE, error, bg->done_data);
              background_free (bg);
            }
          continue;
        }
      worker->background = bg;
      worker->infra_attempt = bg->infra_attempt;
    }
}

static void
queue_background (Runner *runner, Session *session, gboolean shared, const char *report_dir,
                  gboolean no_backtrace, gboolean deferred,
                  RunnerPredicate predicate, gpointer predicate_data,
                  RunnerDoneFunc done, gpointer done_data)
{
  Background *bg = g_new0 (Background, 1);

  bg->session = session;
  bg->shared = shared;
  bg->report_dir = g_strdup (report_dir);
  bg->no_backtrace = no_backtrace;
  bg->deferred = deferred;
  bg->predicate = predicate;
  bg->predicate_data = predicate_data;
  bg->done = done;
  bg->done_data = done_data;
  g_queue_push_tail (&runner->background, bg);
  runner->n_background++;
  /* A deferred one starts at the next look for idle workers, after what
   * the caller queues next. */
  if (!runner->cancelled && !deferred)
    background_launch (runner);
}

void
runner_start_background (Runner *runner, Session *session, RunnerPredicate predicate,
                         gpointer predicate_data, RunnerDoneFunc done, gpointer done_data)
{
  queue_background (runner, session, FALSE, NULL, FALSE, FALSE, predicate, predicate_data, done,
                    done_data);
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
  queue_background (runner, (Session *) session, TRUE, NULL, FALSE, FALSE, predicate,
                    predicate_data, done, done_data);
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
      background_launch (runner);
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
  do
    if (!runner_step_background (runner, error))
      return FALSE;
  while (runner->n_background > 0);
  return TRUE;
}

struct RunnerOnce
{
  gboolean done;
  RunResult result;
  GError *error;
};

static void
on_once_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
  RunnerOnce *once = data;

  once->done = TRUE;
  if (error != NULL)
    once->error = g_error_copy (error);
  else
    {
      /* Taken whole: the caller clears what is left. */
      once->result = *result;
      memset (result, 0, sizeof *result);
    }
}

static RunnerOnce *
start_once (Runner *runner, const Session *session, const char *report_dir, gboolean traced,
            gboolean deferred)
{
  guint n = session_get_n_actions (session);
  g_autofree guint *all = g_new (guint, MAX (n, 1));
  RunnerOnce *once = g_new0 (RunnerOnce, 1);

  for (guint i = 0; i < n; i++)
    all[i] = i;
  queue_background (runner, session_subset (session, all, n), FALSE, report_dir, !traced,
                    deferred, NULL, NULL, on_once_done, once);
  return once;
}

RunnerOnce *
runner_start_once (Runner *runner, const Session *session, const char *report_dir,
                   gboolean traced)
{
  return start_once (runner, session, report_dir, traced, TRUE);
}

gboolean
runner_finish_once (Runner *runner, RunnerOnce *once, RunResult *result, GError **error)
{
  gboolean ok;

  memset (result, 0, sizeof *result);
  /* Until it is over: on_once_done() writes to it. */
  while (!once->done)
    {
      if (runner->cancelled)
        {
          /* Never started: nothing will call back. */
          for (GList *l = runner->background.head; l != NULL; l = l->next)
            if (((Background *) l->data)->done_data == once)
              {
                background_free (l->data);
                g_queue_delete_link (&runner->background, l);
                runner->n_background--;
                g_free (once);
                g_set_error_literal (error, RUNNER_ERROR, RUNNER_ERROR_CANCELLED,
                                     "interrupted");
                return FALSE;
              }
        }
      else
        background_launch (runner);
      g_main_context_iteration (NULL, TRUE);
    }
  ok = once->error == NULL;
  if (!ok)
    g_propagate_error (error, once->error);
  else
    *result = once->result;
  g_free (once);
  return ok;
}

/* A running replay's end, once runner_abandon_once() dropped it. */
static void
on_dropped_done (RunResult *result, gboolean failed, const GError *error, gpointer data)
{
}

void
runner_abandon_once (Runner *runner, RunnerOnce *once)
{
  if (once == NULL)
    return;
  /* Not started yet: it never will. Running: it ends as it would (or
   * with the runner), told to no one, its worker free again. */
  for (GList *l = runner->background.head; !once->done && l != NULL; l = l->next)
    if (((Background *) l->data)->done_data == once)
      {
        background_free (l->data);
        g_queue_delete_link (&runner->background, l);
        runner->n_background--;
        break;
      }
  for (guint w = 0; !once->done && w < runner->workers->len; w++)
    {
      Background *bg = ((Worker *) g_ptr_array_index (runner->workers, w))->background;

      if (bg != NULL && bg->done_data == once)
        {
          bg->done = on_dropped_done;
          bg->done_data = NULL;
        }
    }
  run_result_clear (&once->result);
  g_clear_error (&once->error);
  g_free (once);
}

gboolean
runner_run_once (Runner *runner, Session *session, const char *report_dir, gboolean traced,
                 RunResult *result, GError **error)
{
  return runner_finish_once (runner, start_once (runner, session, report_dir, traced, FALSE),
                             result, error);
}
