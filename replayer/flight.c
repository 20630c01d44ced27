/* flight.c — work in flight: after the app has taken an action.
 *
 * The app has answered (or gone idle), but may still be at work on the
 * action where the ping does not look: a worker thread reading a folder,
 * a disk wait, a timer its event loop waits on (a dialog that arms its
 * OK two seconds after it opened, an asynchronous load that lands on a
 * timeout). What came of it in the recording came before the next action
 * if it was due before the recorded gap was over: then the next action
 * waits for it, within the recorded gap (divided by --speed) and
 * --timeout; a timer due later (an autosave in ten minutes) did nothing
 * the user saw, and is not waited for. Start reading at flight_taken(),
 * which pace.c calls once the app has answered (or gone idle).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

/* Work in flight is glanced at as often as an idle app (a thread or the
 * server at work is done in a few milliseconds, most often). */
#define REPLAY_FLIGHT_GLANCE_MS REPLAY_QUIET_GLANCE_MS
/* A timer's callback runs a moment after it is due. */
#define REPLAY_FLIGHT_SLACK_MS 15
/* Work in flight that was seen is done once the app is quiet at two
 * glances and none of its threads ran between them (flight_still_quiet);
 * where the CPU time of threads cannot be read, once it is quiet at two
 * glances this far apart. */
#define REPLAY_FLIGHT_QUIET_MS 20

/* The gap is the app's own time: on a loaded machine (the parallel
 * replays of a reduction, a busy CI) what its threads waited for a core
 * (schedstat's run delay) is not time it had, and the recorded gap is
 * over only once the app has had it (up to REPLAY_FLIGHT_STARVED_MAX
 * times the gap). A folder that loaded in the user's 1.7 s may take 4 s
 * of the wall clock beside four other replays. */
#define REPLAY_FLIGHT_STARVED_MAX 10

static Act flight_check (Replay *r);
static guint flight_mid_work (Replay *r, const ProcTreeGlance *glance);
static gboolean flight_starved (Replay *r);
static gboolean flight_still_quiet (Replay *r, gint64 now, guint *next_look);

/* Had the recording opened or closed one of the app's windows since the
 * last action (r->next - 1), before the next one, that the replay has
 * not yet? Only a change is waited for, not a count: a session may not
 * say every window the app made (a version 1 session, an app xrecord
 * --all found running), and its counts are then too low throughout. */
static gboolean
windows_not_as_recorded (Replay *r, gint64 now_ms)
{
  guint before, now, shown;

  if (r->windows_open == NULL)
    r->windows_open = session_get_windows_open (r->session);
  if (r->next == 0 || r->next >= r->windows_open->len)
    return FALSE;
  before = g_array_index (r->windows_open, guint, r->next - 1);
  now = g_array_index (r->windows_open, guint, r->next);
  shown = windows_get_n_mapped (r->windows);
  if (now < before && shown > now)
    return TRUE;
  /* A window the recording opened is waited for as long as a window an
   * action aims at (--window-wait from the action, in the app's own
   * time): one that has not come by then is not coming (a reduction's
   * candidate without the action that opened it), and the rest of the
   * recorded gap would be waited in vain. */
  if (!(now > before && shown < now))
    return FALSE;
  if (now_ms >= r->t_last_action + r->opts->settings.window_wait_ms + r->flight_extended
      && r->flight_starvation.at != 0)
    flight_starved (r);
  if (now_ms < r->t_last_action + r->opts->settings.window_wait_ms + r->flight_extended)
    return TRUE;
  /* (The next action, if aimed at that window, is not kept waiting for
   * it a second time: replay_find_window.) */
  r->opened_waited = r->next + 1;
  return FALSE;
}

/* At the deadline: TRUE if the app starved since the last look, and
 * r->flight_deadline is pushed back by as long. */
static gboolean
flight_starved (Replay *r)
{
  gint64 starved = settle_starvation_take (r, &r->flight_starvation);
  gint64 most = r->t_last_action + r->flight_gap_ms * REPLAY_FLIGHT_STARVED_MAX;

  if (starved <= 0 || r->flight_deadline >= most)
    return FALSE;
  r->flight_extended += MIN (r->flight_deadline + starved, most) - r->flight_deadline;
  r->flight_deadline = MIN (r->flight_deadline + starved, most);
  note_verbose (r, "action %u: the app waited %" G_GINT64_FORMAT " ms for a core: the recorded "
                "gap is as much longer", r->next + 1, starved);
  return TRUE;
}

static gboolean
on_flight_glance (gpointer user_data)
{
  Replay *r = user_data;

  return replay_timer_act (r, &r->pace_timer, flight_check);
}

static Act
flight_check (Replay *r)
{
  ProcTreeGlance glance;
  gint64 now = note_now_ms ();
  gint64 deadline = MIN (r->flight_deadline, r->window.not_after_ms);
  guint next_look;
  const char *what;

  if (now >= deadline && r->flight_starvation.at != 0 && flight_starved (r))
    deadline = MIN (r->flight_deadline, r->window.not_after_ms);
  /* The X server too: an app blocked on its reply (a one-descriptor poll
   * of Xlib's, as idle as it looks) is at work while the server is. */
  if (now >= deadline || !proctree_glance (proc_child_get_pid (r->child), r->server_pid, &glance))
    return pace_done (r, r->flight_noted ? "the recorded gap is over" : NULL);
  /* And the app's session bus: an app waiting for a reply (GTK's file
   * chooser asks the bus before it searches) is at work while the bus and
   * the services it started are. */
  proctree_glance_add_helper (r->bus_pid, &glance);
  glance.n_mid_work = flight_mid_work (r, &glance);
  if (glance.n_active == 0 && glance.n_mid_work == 0)
    {
      /* An armed timerfd is a timer too (an event loop on epoll). */
      gint64 timerfd = proctree_timerfd_ms (proc_child_get_pid (r->child));

      if (timerfd >= 0 && (glance.timer_ms < 0 || timerfd < glance.timer_ms))
        glance.timer_ms = timerfd;
    }
  if (glance.n_active > 0 || glance.n_mid_work > 0)
    {
      next_look = replay_glance_interval (r->t_last_action);
      what = "its threads (or the X server) are at work";
    }
  else if (windows_not_as_recorded (r, now))
    {
      /* Its answer is not all there: the recording had closed a window
       * that the app still shows (a dialog its Return closes once the
       * file is read: a click would go to its modal owner), or opened one
       * it does not show yet (an app may answer the ping before it makes
       * the dialog, and the timer that arms its OK). */
      next_look = REPLAY_FLIGHT_GLANCE_MS * 4;
      what = "its windows are not yet as recorded before the next action";
    }
  else if (glance.timer_ms >= 0 && now + glance.timer_ms < deadline)
    {
      next_look = (guint) glance.timer_ms + REPLAY_FLIGHT_SLACK_MS;
      what = "it waits on a timer due before the recorded gap is over";
    }
  else if (r->flight_noted && !flight_still_quiet (r, now, &next_look))
    {
      r->pace_timer = g_timeout_add ((guint) MIN ((gint64) next_look, MAX (deadline - now, 1)),
                                     on_flight_glance, r);
      return act_wait ();
    }
  else
    return pace_done (r, r->flight_noted ? "its work in flight is done" : NULL);
  r->flight_quiet_since = 0;
  if (r->flight_starvation.at == 0)
    /* Only an app that keeps the next action waiting pays for a look at
     * its threads' run delay (a browser has hundreds). */
    settle_starvation_start (r, &r->flight_starvation);
  if (!r->flight_noted)
    note_verbose (r, "action %u: the app has answered, but %s (%" G_GINT64_FORMAT " ms left "
                  "of the recorded gap)", r->next + 1, what, deadline - now);
  r->flight_noted = TRUE;
  r->pace_timer = g_timeout_add ((guint) MIN ((gint64) next_look, deadline - now),
                                 on_flight_glance, r);
  return act_wait ();
}

/* How many of @glance's processes in the middle of work are X clients.
 * Their main thread, in a lock or a write, has not yet come back to its
 * loop after the action (GTK's, blocked on another thread's lock). A
 * process with no connection to the server is no event loop of the
 * app's windows: a browser's renderers and utility processes idle in a
 * lock (Chromium's message pump waits in a futex), and what they do for
 * the action shows as their threads at work. The clients are read once
 * a flight (one round trip, only when some process is in the middle of
 * work); a server that cannot say counts them all. */
static guint
flight_mid_work (Replay *r, const ProcTreeGlance *glance)
{
  guint n = 0;

  if (glance->n_mid_work == 0)
    return 0;
  if (!r->flight_clients_read)
    {
      g_clear_pointer (&r->flight_clients, g_array_unref);
      r->flight_clients = windows_client_pids (r->windows);
      r->flight_clients_read = TRUE;
    }
  if (r->flight_clients == NULL || glance->n_mid_work > PROCTREE_GLANCE_MID_MAX)
    return glance->n_mid_work;
  for (guint i = 0; i < glance->n_mid_work; i++)
    for (guint j = 0; j < r->flight_clients->len; j++)
      if (g_array_index (r->flight_clients, pid_t, j) == glance->mid_work_pid[i])
        {
          n++;
          break;
        }
  return n;
}

/* Work it had looks done (quiet at this glance): quiet for sure? A worker
 * thread's result reaches the main thread after the worker is done,
 * through its loop's wakeup (GTK's file chooser completing a typed name),
 * and the server's reply reaches the app after the server is done: a
 * glance reads one thread after another, and on a loaded machine it may
 * read the main thread asleep, then the worker asleep, the main thread
 * woken between. So quiet is quiet for sure once none of the threads (the
 * app's, the server's, the bus's) ran since the last quiet glance: then
 * none was woken either, or it would be running or waiting to run. FALSE,
 * with *@next_look, until then. */
static gboolean
flight_still_quiet (Replay *r, gint64 now, guint *next_look)
{
  ProcTreeGlance again;

  if (proctree_glance_ran (proc_child_get_pid (r->child), r->server_pid, &again))
    proctree_glance_add_helper (r->bus_pid, &again);
  if (!again.ran_read)
    {
      /* No CPU times (a kernel without schedstat): quiet at two glances
       * a while apart. */
      if (r->flight_quiet_since == 0)
        r->flight_quiet_since = now;
      *next_look = REPLAY_FLIGHT_QUIET_MS;
      return now - r->flight_quiet_since >= REPLAY_FLIGHT_QUIET_MS;
    }
  *next_look = REPLAY_FLIGHT_GLANCE_MS;
  if (again.n_active > 0)
    {
      r->flight_quiet_since = 0;
      return FALSE;
    }
  if (r->flight_quiet_since != 0 && again.ran_ns == r->flight_quiet_ran_ns)
    return TRUE;
  r->flight_quiet_since = now;
  r->flight_quiet_ran_ns = again.ran_ns;
  return FALSE;
}

/* The app has taken the action (answered the ping, its tree quiet; or
 * idle): whatever it still has in flight, within the recorded gap. */
Act
flight_taken (Replay *r)
{
  guint gap;

  if (r->pace_timer != 0)
    g_source_remove (r->pace_timer);
  r->pace_timer = 0;
  gap = r->pace_next_time_ms > r->last_time_ms
          ? pace_recorded_gap (r, r->last_time_ms, r->pace_next_time_ms) : 0;
  r->flight_gap_ms = MIN (gap, r->opts->settings.timeout_ms);
  r->flight_deadline = r->t_last_action + r->flight_gap_ms;
  r->flight_starvation.at = 0;
  r->flight_extended = 0;
  r->flight_noted = FALSE;
  r->flight_quiet_since = 0;
  r->flight_clients_read = FALSE;
  return flight_check (r);
}
