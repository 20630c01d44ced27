/* settle.c — after the last action: the app gets --settle, more while its
 * process tree is busy, then a _NET_WM_PING; and, from its start, what the
 * tree uses (CPU time, memory) for xreduce's pool.
 *
 * Start reading at settle_start(); replay.c calls it after the last
 * action, and settle_ping() and the samplers run from the main loop.
 * Settling decides, replay.c acts (replay-private.h): each function
 * returns what to do (finish with a verdict, or wait), and what a timer
 * of settling decides later reaches replay.c through r->act.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"
#include "proc.h"

#include <string.h>
#include <X11/Xlib.h>


/* On a loaded machine an app gets less than the wall clock's time: what
 * its threads spent waiting for a core does not count against --timeout
 * and --settle (up to REPLAY_STARVED_MAX times the wall clock's). A slow
 * crash under the load of parallel replays is still a crash, not a
 * hang and not a pass. */
#define REPLAY_STARVED_MAX 10
/* The app's first timer after its last action: its callback runs this
 * long after it is due, at most. */
#define REPLAY_TIMER_SLACK_MS 100

/* The app's time since @since_ms (the wall clock's), when it had starved
 * @starved_then ms. */
static gint64
app_time (Replay *r, gint64 since_ms, gint64 starved_then)
{
  gint64 wall = note_now_ms () - since_ms;
  gint64 starved = r->starved_ms - starved_then;

  return MAX (wall - starved, wall / REPLAY_STARVED_MAX);
}

/* The run delay of the app's threads, the X server's, the bus's and the
 * window manager's (--wm: it maps the app's windows): an app waits for
 * their work as for its own. */
static guint64
replay_run_delay (Replay *r)
{
  return proctree_run_delay_ms (proc_child_get_pid (r->child))
         + (r->server_pid > 0 ? proctree_run_delay_ms (r->server_pid) : 0)
         + (r->bus_pid > 0 ? proctree_run_delay_ms (r->bus_pid) : 0)
         + (r->wm != NULL ? proctree_run_delay_ms (proc_child_get_pid (r->wm)) : 0);
}

void
settle_starvation_start (Replay *r, ReplayStarvation *s)
{
  s->run_delay = replay_run_delay (r);
  s->at = note_now_ms ();
}

gint64
settle_starvation_take (Replay *r, ReplayStarvation *s)
{
  guint64 delay = replay_run_delay (r);
  gint64 now = note_now_ms ();
  /* Several threads may wait at once: no more than the time passed. (A
   * thread that ended took its run delay with it: none then.) */
  gint64 starved = delay > s->run_delay ? MIN ((gint64) (delay - s->run_delay), now - s->at) : 0;

  s->run_delay = delay;
  s->at = now;
  return starved;
}

/* Updates r->starved_ms from the tree's run delay. */
static void
count_starvation (Replay *r)
{
  gint64 now = note_now_ms ();
  guint64 delay = proctree_run_delay_ms (proc_child_get_pid (r->child));

  if (r->run_delay_at != 0 && delay > r->run_delay_ms)
    /* Several threads may wait at once: no more than the time passed. */
    r->starved_ms += MIN ((gint64) (delay - r->run_delay_ms), now - r->run_delay_at);
  r->run_delay_ms = MAX (r->run_delay_ms, delay);
  r->run_delay_at = now;
}

static gboolean
on_ping_timeout (gpointer user_data)
{
  Replay *r = user_data;
  gint64 waited;

  r->timer = 0;
  count_starvation (r);
  waited = app_time (r, r->ping_sent_ms, r->ping_starved_ms);
  if (waited < (gint64) r->opts->settings.timeout_ms)
    {
      /* Starved meanwhile: the app has not had its time yet. */
      r->timer = g_timeout_add ((guint) (r->opts->settings.timeout_ms - waited), on_ping_timeout,
                                r);
      return G_SOURCE_REMOVE;
    }
  note_verbose (r, "no answer to _NET_WM_PING within %u ms of the app's time (%" G_GINT64_FORMAT
                " ms on the clock)", r->opts->settings.timeout_ms,
                note_now_ms () - r->ping_sent_ms);
  r->act (r, act_finish (VERDICT_HUNG));
  return G_SOURCE_REMOVE;
}

gboolean
settle_send_ping (Replay *r, Window window, long stamp)
{
  XEvent ev;

  memset (&ev, 0, sizeof ev);
  ev.xclient.type = ClientMessage;
  ev.xclient.window = window;
  ev.xclient.message_type = r->wm_protocols;
  ev.xclient.format = 32;
  ev.xclient.data.l[0] = (long) r->net_wm_ping;
  ev.xclient.data.l[1] = stamp;
  ev.xclient.data.l[2] = (long) window;
  XSendEvent (r->dpy, window, False, NoEventMask, &ev);
  return xconn_sync (r->conn);
}

Act
settle_ping (Replay *r)
{
  Window main_window = windows_get_main (r->windows);

  r->phase = PHASE_PINGING;
  if (main_window == None || !windows_supports_ping (r->windows, main_window))
    {
      note_verbose (r, "the app has %s: it cannot be pinged",
                    main_window == None ? "no window mapped" : "no _NET_WM_PING");
      return settle_answered (r);
    }
  r->ping_window = main_window;
  r->ping_stamp = (long) (note_now_ms () & 0x7fffffff);
  r->ping_sent_ms = note_now_ms ();
  r->ping_starved_ms = r->starved_ms;
  if (!settle_send_ping (r, main_window, r->ping_stamp))
    return act_fail_x ();
  note_verbose (r, "pinging 0x%lx", main_window);
  r->timer = g_timeout_add (r->opts->settings.timeout_ms, on_ping_timeout, r);
  return act_wait ();
}

static gboolean
on_exit_overdue (gpointer user_data)
{
  Replay *r = user_data;

  r->timer = 0;
  note_verbose (r, "the app has not ended %u ms after it left the X server: passed",
                r->opts->settings.timeout_ms);
  r->act (r, act_finish (VERDICT_PASSED));
  return G_SOURCE_REMOVE;
}

/* Quiet, answered or not to be pinged: passed, unless no process of the
 * app is connected to the X server any more. An app that closed its
 * display is ending, and how it ends is the verdict: a crash on quit
 * (the clean-up after the windows follows a freed pointer), or a crash
 * whose windows the server closed a moment before the replay heard of the
 * exit (the app's parent reaps it, the sandbox's then exits). Its exit
 * comes through on_child_exit (replay.c); within --timeout, else the app
 * lives on without a window (a daemon it became), and has passed. */
static Act
settle_pass (Replay *r)
{
  if (windows_app_connected (r->windows))
    return act_finish (VERDICT_PASSED);
  note_verbose (r, "the app has left the X server: waiting for it to end");
  r->awaiting_exit = TRUE;
  r->timer = g_timeout_add (r->opts->settings.timeout_ms, on_exit_overdue, r);
  return act_wait ();
}

/* Settling. The actions are delivered, but the app may not have done
 * what they ask yet: under the load of parallel replays a terminal's
 * shell may still be starting when the last key is typed, a browser's
 * content process still loading. So the app is pinged at settle_ms as
 * before (no answer within timeout_ms: hung), but it has passed only once
 * it has answered and its process tree (its children in other groups and
 * sessions too) is no longer busy, or timeout_ms after settle_ms. Busy: a
 * process of it running or waiting for a core or the disk, a process
 * started or ended, or more than REPLAY_BUSY_PERCENT of a core used, over
 * the last REPLAY_QUIET_WINDOW_MS (a shell waiting in a retry loop for a
 * lock another replay's shell holds uses no CPU, but runs `sleep`).
 * An idle app passes when it answers, as before. */
Act
settle_answered (Replay *r)
{
  gint64 elapsed = app_time (r, r->t_end_actions, 0);

  if (r->awaiting_exit)
    return act_wait ();
  r->answered = TRUE;
  if (r->timer != 0)
    g_source_remove (r->timer);   /* the ping's timeout */
  r->timer = 0;
  if (!r->busy || elapsed >= (gint64) r->opts->settings.settle_ms + r->opts->settings.timeout_ms)
    {
      if (r->noted_busy)
        note_verbose (r, "the app %s after %" G_GINT64_FORMAT " ms",
                      r->busy ? "is still busy" : "is idle", elapsed);
      return settle_pass (r);
    }
  return act_wait ();
}

/* What the app's process tree has used so far (xreduce sizes its pool of
 * workers by it): the CPU time of the tree as last seen (it includes the
 * children it has reaped) and the most resident memory at any sample. */
static void
settle_note_usage (Replay *r, const ProcTreeSample *sample)
{
  gint64 cpu_ms = (gint64) (sample->ticks * 1000 / proctree_ticks_per_second ());

  if (sample->n_procs == 0)
    return;
  r->result->app_cpu_ms = MAX (r->result->app_cpu_ms, cpu_ms);
  r->result->app_peak_rss_kb = MAX (r->result->app_peak_rss_kb, (gint64) sample->rss_kb);
}

/* Starting: an app that never maps a window looks like a slow one until
 * the start timeout, and xreduce would give it its tries (which help a
 * slow start under load). Told apart at once: a slow start runs, waits
 * for a core or the disk, or talks to the X server; an app (`sleep 100`,
 * a program that is no X11 app, one waiting on something that never
 * comes) whose processes have all sat idle for REPLAY_START_IDLE_MS, none
 * of them connected to the server, will not map a window. */
static Act
settle_check_start (Replay *r, const ProcTreeSample *sample)
{
  const ProcTreeSample *last = &r->start_sample;
  gboolean idle = sample->n_procs > 0 && sample->n_active == 0 && sample->ticks == last->ticks
                  && sample->n_procs == last->n_procs && sample->pid_sum == last->pid_sum;
  gint64 now = note_now_ms ();

  r->start_sample = *sample;
  if (!idle || windows_app_connected (r->windows))
    {
      r->start_idle_since = 0;
      return act_wait ();
    }
  if (r->start_idle_since == 0)
    r->start_idle_since = now;
  if (now - r->start_idle_since < REPLAY_START_IDLE_MS)
    return act_wait ();
  r->result->never_connected = TRUE;
  r->result->verdict.detail = g_strdup_printf (
    "the app did not connect to the X server, and its processes sat idle for %d s: not an "
    "X11 app, or waiting for something", REPLAY_START_IDLE_MS / 1000);
  return act_finish (VERDICT_COULD_NOT_START);
}

gboolean
settle_on_usage_sample (gpointer user_data)
{
  Replay *r = user_data;
  ProcTreeSample sample;

  proctree_sample (proc_child_get_pid (r->child), &sample);
  settle_note_usage (r, &sample);
  if (r->phase == PHASE_STARTING)
    r->act (r, settle_check_start (r, &sample));
  return G_SOURCE_CONTINUE;
}

static gboolean
on_quiet_sample (gpointer user_data)
{
  Replay *r = user_data;
  gint64 now = note_now_ms (), elapsed = now - r->t_end_actions;
  ProcTreeSample sample;
  guint oldest = r->quiet_n < REPLAY_QUIET_SAMPLES ? 0 : r->quiet_next;
  const ProcTreeSample *then = &r->quiet[oldest];
  gint64 span = now - r->quiet_at[oldest];
  double used_ms;
  gboolean forked;

  proctree_sample (proc_child_get_pid (r->child), &sample);
  settle_note_usage (r, &sample);
  count_starvation (r);
  if (!r->settle_timer_checked && sample.n_active == 0)
    {
      ProcTreeGlance glance;

      /* Once the app has handled the last action: the first timer it
       * waits on, if due within --timeout, where the failure may be. (Only
       * the first: a cursor's blinking would keep every pass waiting.) */
      r->settle_timer_checked = TRUE;
      if (proctree_glance (proc_child_get_pid (r->child), 0, &glance))
        {
          gint64 timerfd = proctree_timerfd_ms (proc_child_get_pid (r->child));

          if (timerfd >= 0 && (glance.timer_ms < 0 || timerfd < glance.timer_ms))
            glance.timer_ms = timerfd;
        }
      if (glance.timer_ms >= 0 && glance.timer_ms <= (gint64) r->opts->settings.timeout_ms)
        {
          r->settle_timer_due = now + glance.timer_ms + REPLAY_TIMER_SLACK_MS;
          note_verbose (r, "the app waits on a timer due in %" G_GINT64_FORMAT " ms",
                        glance.timer_ms);
        }
    }
  used_ms = (double) (sample.ticks - MIN (sample.ticks, then->ticks)) * 1000.0
            / proctree_ticks_per_second ();
  forked = sample.n_procs != then->n_procs || sample.pid_sum != then->pid_sum;
  /* Busy, or waiting on its first timer after the last action (a crash
   * two seconds after a click, on a timeout): time it still works in. */
  r->busy = sample.n_active > 0 || forked
            || (span > 0 && used_ms * 100.0 > (double) span * REPLAY_BUSY_PERCENT)
            || (r->settle_timer_due != 0 && now < r->settle_timer_due);
  r->quiet_at[r->quiet_next] = now;
  r->quiet[r->quiet_next] = sample;
  r->quiet_next = (r->quiet_next + 1) % REPLAY_QUIET_SAMPLES;
  r->quiet_n = MIN (r->quiet_n + 1, REPLAY_QUIET_SAMPLES);
  if (r->busy && !r->noted_busy && elapsed + REPLAY_QUIET_SAMPLE_MS / 2 >= (gint64) r->opts->settings.settle_ms)
    {
      note_verbose (r, "the app is busy (%.0f ms of CPU in the last %" G_GINT64_FORMAT
                    " ms, %u of its %u processes running%s): it gets more time", used_ms, span,
                    sample.n_active, sample.n_procs, forked ? ", processes started or ended" : "");
      r->noted_busy = TRUE;
    }
  if (r->answered)
    {
      /* Finishing must not remove this source from inside it. */
      guint id = r->quiet_timer;

      r->quiet_timer = 0;
      r->act (r, settle_answered (r));
      if (r->phase == PHASE_DONE)
        return G_SOURCE_REMOVE;
      r->quiet_timer = id;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_settled (gpointer user_data)
{
  Replay *r = user_data;

  return replay_timer_act (r, &r->timer, settle_ping);
}

Act
settle_start (Replay *r)
{
  r->t_end_actions = note_now_ms ();
  r->phase = PHASE_SETTLING;
  note_verbose (r, "all %u actions replayed; settling %u ms", r->actions->len,
                r->opts->settings.settle_ms);
  /* The first CPU sample now, the others every REPLAY_QUIET_SAMPLE_MS. */
  r->quiet_at[0] = r->t_end_actions;
  proctree_sample (proc_child_get_pid (r->child), &r->quiet[0]);
  r->quiet_n = r->quiet_next = 1;
  r->starved_ms = 0;
  r->run_delay_at = 0;
  count_starvation (r);
  r->settle_timer_due = 0;
  r->settle_timer_checked = FALSE;
  r->quiet_timer = g_timeout_add (REPLAY_QUIET_SAMPLE_MS, on_quiet_sample, r);
  if (r->opts->settings.settle_ms == 0)
    return settle_ping (r);
  r->timer = g_timeout_add (r->opts->settings.settle_ms, on_settled, r);
  return act_wait ();
}
