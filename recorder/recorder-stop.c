/* recorder-stop.c — the end of a recording (recorder-private.h): the app
 * exits or crashes, a signal comes, the stop key, no window of the app's
 * within the start timeout, the log cannot be written, or the server
 * goes. recorder_begin_stop() disables the context; the loop runs until
 * the server has sent everything it recorded before (or a timeout);
 * recorder_run() then writes the footer and stops the app.
 */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "recorder-private.h"

#include <signal.h>

#include "verdict.h"

/* After the context is disabled, how long the server may take to send
 * the rest of the recorded data. */
#define DRAIN_TIMEOUT_MS 3000
/* How long the app gets to exit after SIGTERM, before SIGKILL. */
#define APP_TERM_TIMEOUT_MS 2000
/* ... when a signal ends the recording: xrecord ends within a second. */
#define APP_TERM_SIGNAL_MS 300
#define DRAIN_SIGNAL_MS 300

static gboolean
on_drain_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->drain_timeout = 0;
  if (!recorder->drained)
    g_debug ("the RECORD data did not end within %d ms", DRAIN_TIMEOUT_MS);
  recorder->drained = TRUE;
  g_main_loop_quit (recorder->loop);
  return G_SOURCE_REMOVE;
}

/* Ends the recording: what the server recorded until now is still
 * written (the loop runs until EndOfData), nothing after. */
void
recorder_begin_stop (Recorder *recorder, const char *why)
{
  if (recorder->stopping)
    return;
  g_debug ("stopping: %s", why);
  recorder->stopping = TRUE;
  if (recorder->capture != NULL && recorder->enabled && !recorder->server_gone)
    capture_stop (recorder->capture);
  else
    recorder->drained = TRUE;
  if (recorder->drained)
    g_main_loop_quit (recorder->loop);
  else
    recorder->drain_timeout = g_timeout_add (recorder->signal != 0 ? DRAIN_SIGNAL_MS
                                             : DRAIN_TIMEOUT_MS, on_drain_timeout, recorder);
}

void
recorder_on_app_exit (ProcChild *app, int status, gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->app_exited = TRUE;
  recorder->app_status = status;
  if (!recorder->outcome_known)
    {
      Verdict died;

      recorder->outcome_known = TRUE;
      verdict_from_wait_status (&died, status);
      recorder->outcome = verdict_to_session_outcome (&died);
    }
  recorder_begin_stop (recorder, "the app exited");
  /* The app may be the last thing the loop waits for (see recorder_stop_app). */
  if (recorder->stopping && recorder->drained)
    g_main_loop_quit (recorder->loop);
}

void
recorder_on_signal (int signum, gpointer user_data)
{
  Recorder *recorder = user_data;

  if (recorder->signal == 0)
    recorder->signal = signum;
  if (!recorder->outcome_known)
    {
      recorder->outcome_known = TRUE;
      recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
    }
  recorder_begin_stop (recorder, "signal");
  /* (Also during set-up: the loop may not run yet.) */
  g_main_loop_quit (recorder->loop);
}

/* No window of the app's came: a window manager may be waiting for the
 * user to place it (twm), or the app shows none. */
gboolean
recorder_on_start_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  recorder->start_timer = 0;
  if (toplevels_get_n_app_mapped (recorder->tops) == 0)
    {
      recorder->start_timed_out = TRUE;
      if (!recorder->outcome_known)
        {
          recorder->outcome_known = TRUE;
          recorder->outcome = (SessionOutcome) { .kind = SESSION_OUTCOME_NONE };
        }
      recorder_begin_stop (recorder, "no window of the app's");
    }
  return G_SOURCE_REMOVE;
}

static gboolean
on_app_term_timeout (gpointer user_data)
{
  Recorder *recorder = user_data;

  g_main_loop_quit (recorder->loop);
  return G_SOURCE_REMOVE;
}

/* Terminates the app's process group, SIGKILL if it lingers, and reaps. */
void
recorder_stop_app (Recorder *recorder)
{
  int sig[2] = { SIGTERM, SIGKILL };

  if (recorder->app == NULL)
    return;
  for (int i = 0; i < 2 && !recorder->app_exited; i++)
    {
      guint timeout;

      proc_child_signal (recorder->app, sig[i]);
      timeout = g_timeout_add (recorder->signal != 0 || recorder->start_timed_out
                               ? APP_TERM_SIGNAL_MS : APP_TERM_TIMEOUT_MS,
                               on_app_term_timeout, recorder);
      while (!recorder->app_exited && g_main_context_iteration (NULL, TRUE))
        if (g_main_context_find_source_by_id (NULL, timeout) == NULL)
          break;
      if (g_main_context_find_source_by_id (NULL, timeout) != NULL)
        g_source_remove (timeout);
    }
  /* Whatever the app left in its group. */
  proc_child_kill (recorder->app, 0);
}
