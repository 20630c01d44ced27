/* pace.c — replay at the app's pace: wait for the app, not the clock.
 *
 * With --pace app (the default), after each action the replay waits until
 * the app has taken it, then goes on at once (at least --min-gap after the action):
 *   - a round trip to the app: _NET_WM_PING to its main window (toolkits
 *     answer from their event loop, so the answer comes only after the
 *     events queued before it were handled), after an XSync;
 *   - then its process tree quiet: no process of it running or runnable
 *     in two samples REPLAY_PACE_SAMPLE_MS apart, none started or ended
 *     (a browser's content process at work), for at most
 *     REPLAY_PACE_QUIET_MS; a tree at work that long REPLAY_TREE_GIVE_UP
 *     waits in a row, at most the recorded gap until it is quiet again
 *     (tree_bound());
 * each wait bounded by --timeout. An app that does not list _NET_WM_PING
 * (xterm, Xaw and Motif apps) cannot be asked; it has taken the action
 * when it is idle: after an XSync (the server has done the action and
 * sent the app its events, which wakes it), no thread of its process tree
 * nor the X server running, runnable or in a disk wait, and no process of
 * it asleep on a timer in a handler, in two glances REPLAY_QUIET_GLANCE_MS
 * apart (proctree_glance(), a few files of /proc each), each wait bounded
 * by --timeout; an app never idle in REPLAY_QUIET_GIVE_UP waits in a row
 * goes on at the recorded pace. Keys typed in a run into one window go
 * at once, as motion does (in_typing_run()). The result says how the
 * app was paced.
 *
 * Once the app has taken an action, it may still have work in flight
 * that the ping does not see: a worker thread, a disk wait, the X server
 * drawing for it, a timer its event loop waits on. When that was due
 * before the recorded gap was over, the next action waits for it, within
 * the recorded gap and --timeout (flight.c: a dialog that arms its OK
 * after two seconds, a folder loading in a file chooser).
 *
 * Gaps keep their meaning at any pace (pace-rules.h): two presses of one
 * button or key at nearly the same place stay a double click, or stay
 * none, by the app's double-click time (apptiming.c); a key released
 * before its auto-repeat delay is released before it.
 *
 * Motion the app has no work for does not wait: a motion followed by
 * another, with no button held, that left the pointer in the window it
 * was in (the server says which, no round trip to the app) goes on at
 * once; the run's last motion, and one that crosses into another window,
 * wait as every other action does (in_motion_run()); at the recorded
 * pace the same motion goes on at once, the gap after the run's last
 * motion or after a crossing stays as recorded. A person's minutes
 * of pointer motion cost round trips to the server, not a ping and
 * --min-gap each.
 *
 * Timing that is the meaning stays as recorded (divided by --speed):
 *   - a press held REPLAY_HOLD_MS or longer keeps its duration (a long
 *     press; a key held for its auto-repeat), but not a modifier's;
 *   - a key's auto-repeats (presses of the key held, in the session as
 *     the recording server made them) and its release after them keep
 *     their rhythm: no wait for the app after each;
 *   - the events of a double click (button events of the same button
 *     less than the recording desktop's double-click time apart, at
 *     nearly the same place) keep their gaps; those of one as recorded
 *     (pace_click_run(): its presses and the releases between) go to the
 *     X server at once, which spaces them (send.c), so that the replay
 *     waiting for a core between them cannot pull them apart;
 *   - a drag (motion with a button held, and its release) keeps its
 *     recorded speed.
 *
 * Start reading at pace_next(), which replay.c calls after each
 * action it injects. Pacing decides, replay.c acts (replay-private.h):
 * each function returns what to do next (inject in N ms, or wait), and
 * what a timer of pacing decides later reaches replay.c through r->act.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include <string.h>
#include <X11/Xlib.h>

/* A press held this long keeps its recorded duration. */
#define REPLAY_HOLD_MS PACE_HOLD_MS
/* The process tree is sampled this often while the replay waits for it. */
#define REPLAY_PACE_SAMPLE_MS 10
/* The most an action waits for the tree to be quiet, once the app answered. */
#define REPLAY_PACE_QUIET_MS 300
/* ... and after this many waits in a row that it never was idle in, the
 * rest goes at the recorded pace. */
#define REPLAY_QUIET_GIVE_UP 2
/* A tree at work to REPLAY_PACE_QUIET_MS this many waits in a row, after
 * the app answered, is at work of its own: see tree_bound(). */
#define REPLAY_TREE_GIVE_UP 2

#define ANY_BUTTON_MASK (Button1Mask | Button2Mask | Button3Mask | Button4Mask | Button5Mask)

static char *
held_key (const SessionEvent *ev)
{
  gboolean key = ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE;

  return g_strdup_printf ("%c%u", key ? 'k' : 'b', key ? ev->keycode : ev->button);
}

/* The deepest window under the pointer, or None (the server has done
 * every request before this one, the injected motion included). A few
 * round trips to the server, none to the app. */
static Window
pointer_window (Replay *r)
{
  Window at = DefaultRootWindow (r->dpy), root_ret, child = None;
  int rx, ry, wx, wy;
  unsigned int mask;

  for (int depth = 0; depth < 32; depth++)
    {
      if (!XQueryPointer (r->dpy, at, &root_ret, &child, &rx, &ry, &wx, &wy, &mask)
          || child == None)
        return depth == 0 ? None : at;
      at = child;
    }
  return at;
}

/* Remembers when a key or button was pressed (sent at @sent_ms, done by
 * the server now), and for a motion which window the pointer is in now
 * (replay.c, once the server has done the action). */
void
pace_injected (Replay *r, const SessionEvent *ev, gint64 sent_ms)
{
  PacePress press = { ev, sent_ms, note_now_ms () };
  g_autofree char *key = NULL;

  if (ev->kind == SESSION_EVENT_MOTION)
    {
      Window now = pointer_window (r);

      r->pointer_crossed = now != r->pointer_in;
      r->pointer_in = now;
    }
  if (ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_BUTTON_PRESS
      && ev->kind != SESSION_EVENT_KEY_RELEASE && ev->kind != SESSION_EVENT_BUTTON_RELEASE)
    return;
  key = held_key (ev);
  if (ev->kind == SESSION_EVENT_KEY_RELEASE || ev->kind == SESSION_EVENT_BUTTON_RELEASE)
    {
      g_hash_table_remove (r->held, key);
      return;
    }
  /* The presses that may begin a double click: a button's, and a key's
   * that is no auto-repeat of a key held (it is in r->held until its
   * release). */
  if (ev->kind == SESSION_EVENT_BUTTON_PRESS && pace_rules_is_click (ev))
    r->last_button = press;
  else if (ev->kind == SESSION_EVENT_KEY_PRESS && !g_hash_table_contains (r->held, key))
    r->last_key = press;
  if (!g_hash_table_contains (r->held, key))
    g_hash_table_replace (r->held, g_steal_pointer (&key), g_memdup2 (&press, sizeof press));
}

/* The recorded gap before the action recorded at @time_ms (divided by
 * --speed, within --min-gap and --max-gap): the recorded pace. */
static guint
bounded_recorded_gap (Replay *r, guint64 time_ms)
{
  double gap = time_ms > r->last_time_ms ? (double) (time_ms - r->last_time_ms) : 0.0;

  gap /= r->opts->settings.speed;
  gap = MIN (gap, (double) r->opts->settings.max_gap_ms);
  gap = MAX (gap, (double) r->opts->settings.min_gap_ms);
  return (guint) (gap + 0.5);
}

/* A modifier held long means nothing by its length (the replay server has
 * no auto-repeat): Shift, Control, Alt, Super and their kin. */
static gboolean
is_modifier (const SessionEvent *ev)
{
  if (ev->keysym == NULL
      || (ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_KEY_RELEASE))
    return FALSE;
  return session_keysym_is_modifier (ev->keysym) || session_keysym_is_lock (ev->keysym);
}

static gboolean
is_button (const SessionEvent *ev)
{
  return ev != NULL && (ev->kind == SESSION_EVENT_BUTTON_PRESS
                        || ev->kind == SESSION_EVENT_BUTTON_RELEASE);
}

/* @a then @b: two events of one multi-click (same button, close in time
 * and place, as the recording desktop counted it). Not the wheel
 * (buttons 4 to 7): its notches are steps, not a gesture. */
static gboolean
same_click_run (Replay *r, const SessionEvent *a, const SessionEvent *b)
{
  return is_button (a) && is_button (b) && a->button == b->button
         && (a->button < 4 || a->button > 7)
         && b->time_ms < a->time_ms + r->recorded_timing.double_click_ms
         && pace_rules_same_place (a, b, r->recorded_timing.double_click_distance);
}

/* @a and @b: events of one key (keycode and keysym). */
static gboolean
same_key (const SessionEvent *a, const SessionEvent *b)
{
  return a->keycode == b->keycode && g_strcmp0 (a->keysym, b->keysym) == 0;
}

/* Is action @number (of r->actions) an auto-repeat: a press of the key
 * the action before pressed, with no release between (the same keysym:
 * a new keysym on a held keycode is a new key)? Not a modifier's. */
static gboolean
is_repeat (Replay *r, guint number)
{
  const SessionEvent *ev, *before;

  if (number == 0 || number >= r->actions->len)
    return FALSE;
  ev = session_get_event (r->session, g_array_index (r->actions, guint, number));
  before = session_get_event (r->session, g_array_index (r->actions, guint, number - 1));
  return ev->kind == SESSION_EVENT_KEY_PRESS && before->kind == SESSION_EVENT_KEY_PRESS
         && same_key (ev, before) && !is_modifier (ev);
}

/* A press after a paste: the app may still work on what it pasted, out
 * of X's sight (GTK's file chooser looks up the folder of a pasted path,
 * and its Return before that opens nothing). As the user's came, no
 * sooner than the recording's time from the paste's data to it, counted
 * from when this app got the data (at most --max-gap). TRUE with the wait
 * in *@gap_ms while it is to come. */
static gboolean
after_paste (Replay *r, const SessionEvent *next, guint *gap_ms)
{
  guint after;
  guint64 recorded_ms;
  gint64 answered_ms, due, now = note_now_ms ();

  if ((next->kind != SESSION_EVENT_KEY_PRESS && next->kind != SESSION_EVENT_BUTTON_PRESS)
      || is_modifier (next)
      || !outside_last_paste (r->outside, &after, &recorded_ms, &answered_ms)
      || (after != G_MAXUINT && after >= r->next) || next->time_ms < recorded_ms)
    return FALSE;
  due = answered_ms + MIN (pace_recorded_gap (r, recorded_ms, next->time_ms),
                           r->opts->settings.max_gap_ms);
  if (due <= now)
    return FALSE;
  *gap_ms = (guint) (due - now);
  return TRUE;
}

/* The recorded gap from @prev to @next kept as it is (divided by
 * --speed, within --min-gap and --max-gap): a double click's, a drag's,
 * a key's repeats. */
static guint
kept_gap (Replay *r, const SessionEvent *prev, const SessionEvent *next)
{
  return MIN (MAX (pace_recorded_gap (r, prev->time_ms, next->time_ms),
                   r->opts->settings.min_gap_ms),
              r->opts->settings.max_gap_ms);
}

/* Does the time between @prev (injected just now) and @next mean
 * something? Then *@gap_ms is how long to wait for @next. @after is the
 * action after @next, or NULL. */
static gboolean
keeps_time (Replay *r, const SessionEvent *prev, const SessionEvent *next,
            const SessionEvent *after, guint *gap_ms)
{
  gboolean release = next->kind == SESSION_EVENT_KEY_RELEASE
                     || next->kind == SESSION_EVENT_BUTTON_RELEASE;
  /* The clicks of a double click: a release and the next press, and the
   * press and release of a click that another follows at once. */
  gboolean multi_click = same_click_run (r, prev, next)
                         && (prev->kind == SESSION_EVENT_BUTTON_RELEASE
                             || (next->kind == SESSION_EVENT_BUTTON_RELEASE
                                 && same_click_run (r, next, after)
                                 && after->kind == SESSION_EVENT_BUTTON_PRESS));

  /* A key held for its auto-repeat (the replay server has none, the
   * repeats are in the session): the repeats and the release after them
   * keep their recorded rhythm, not a wait for the app each. */
  if (is_repeat (r, r->next) || (release && is_repeat (r, r->next - 1)
                                 && same_key (prev, next)))
    {
      *gap_ms = kept_gap (r, prev, next);
      return TRUE;
    }
  if (release && !is_modifier (next))
    {
      g_autofree char *key = held_key (next);
      const PacePress *held = g_hash_table_lookup (r->held, key);

      if (held != NULL && next->time_ms >= held->ev->time_ms + REPLAY_HOLD_MS)
        {
          /* A long press: released its recorded hold after the press. */
          gint64 due = held->sent_ms + pace_recorded_gap (r, held->ev->time_ms, next->time_ms);

          *gap_ms = (guint) MAX (due - note_now_ms (), (gint64) r->opts->settings.min_gap_ms);
          return TRUE;
        }
    }
  if (multi_click
      || ((next->kind == SESSION_EVENT_MOTION || next->kind == SESSION_EVENT_BUTTON_RELEASE)
          && (next->state & ANY_BUTTON_MASK) != 0 && prev->kind == SESSION_EVENT_MOTION))
    {
      /* A double click's clicks, a drag's speed. */
      *gap_ms = kept_gap (r, prev, next);
      return TRUE;
    }
  return FALSE;
}

/* Does action r->next (@first, its window found) begin a multi-click
 * that goes at once, spaced by the X server (pace_rules_click_run)? Into
 * @run; returns its number of events (1: @first goes alone). Only events
 * aimed where @first is (its window as recorded), none xreduce added (a
 * release that ends a candidate), none that waits for a paste
 * (outside.h), and none while a skipped press's release is to come
 * (aim.c); each with the gap a double click's events keep. */
guint
pace_click_run (Replay *r, const SessionEvent *first, PaceClickRun *run)
{
  const SessionEvent *events[PACE_CLICK_RUN_MAX];
  guint gaps[PACE_CLICK_RUN_MAX] = { 0 };
  guint n = 0;

  for (; n < PACE_CLICK_RUN_MAX && r->next + n < r->actions->len; n++)
    {
      guint number = r->next + n;
      const SessionEvent *ev = session_get_event (r->session,
                                                  g_array_index (r->actions, guint, number));

      if (n > 0 && (ev->added || ev->window != first->window
                    || g_strcmp0 (ev->wm_class, first->wm_class) != 0
                    || g_strcmp0 (ev->wm_name, first->wm_name) != 0
                    || outside_paste_pending (r->outside, number)))
        break;
      events[n] = ev;
      if (n > 0)
        gaps[n] = kept_gap (r, events[n - 1], ev);
    }
  if (g_hash_table_size (r->skipped) > 0)
    n = MIN (n, 1);
  pace_rules_click_run (&r->recorded_timing, &r->app_timing, events, gaps, n, run);
  return run->n;
}

/* Did @prev (a motion, injected just now) leave the app nothing to do
 * before @next, a motion too? No button held (a drag keeps its speed),
 * and the pointer is in the window it was in before: no crossing, no
 * hover that changes; the app gets the motion events in order anyway, as
 * from a quick hand, and the replay waits for it after the last motion
 * of the run (before a click, a key), or after one that crosses into
 * another window (a menu that opens on hover, a tooltip). */
static gboolean
in_motion_run (Replay *r, const SessionEvent *prev, const SessionEvent *next)
{
  return prev != NULL && prev->kind == SESSION_EVENT_MOTION && next->kind == SESSION_EVENT_MOTION
         && (prev->state & ANY_BUTTON_MASK) == 0 && (next->state & ANY_BUTTON_MASK) == 0
         && !r->pointer_crossed && r->pointer_in != None;
}

/* Keys typed in a run go at once (pace_rules_typing_run), with an app
 * paced by quiet, which cannot be asked. */
static gboolean
in_typing_run (Replay *r, const SessionEvent *prev, const SessionEvent *next)
{
  return r->pace_by_quiet && prev != NULL
         && pace_rules_typing_run (r->session, g_array_index (r->actions, guint, r->next - 1),
                                   g_array_index (r->actions, guint, r->next));
}

/* ---- waiting for the app ---- */

/* A wait for the app that would keep the next action past its window's
 * end (the second click of a double click, a key's release before it
 * repeats) ends there: the app gets the events in order anyway. */
static gboolean
on_window_over (gpointer user_data)
{
  Replay *r = user_data;

  r->window_timer = 0;
  r->act (r, pace_done (r, r->window.why != NULL ? r->window.why : "its time is up"));
  return G_SOURCE_REMOVE;
}

static void
bound_wait (Replay *r)
{
  gint64 now = note_now_ms ();

  if (r->window.not_after_ms == G_MAXINT64)
    return;
  r->window_timer = g_timeout_add ((guint) CLAMP (r->window.not_after_ms - now, 0, G_MAXINT),
                                   on_window_over, r);
}

/* ---- pacing by quiet (no _NET_WM_PING) ---- */

/* A glance at the app's tree and the server: TRUE when idle, with the
 * same processes as at the glance before (unless this is the @first of
 * a wait: none of it came before). */
static gboolean
glance_idle (Replay *r, gboolean first)
{
  ProcTreeGlance glance;
  pid_t root = proc_child_get_pid (r->child);
  gboolean idle;

  if (!proctree_glance (root, r->server_pid, &glance))
    {
      /* No children lists: the whole of /proc, the app's tree only. */
      ProcTreeSample sample;

      proctree_sample (root, &sample);
      glance.n_active = sample.n_active;
      glance.n_procs = sample.n_procs;
      glance.pid_sum = sample.pid_sum;
    }
  proctree_glance_add_helper (r->bus_pid, &glance);
  idle = pace_rules_idle (&glance, &r->pace_glance, first);
  r->pace_glance = glance;
  return idle;
}

static gboolean
on_quiet_glance (gpointer user_data)
{
  Replay *r = user_data;

  if (glance_idle (r, FALSE))
    r->pace_quiet++;
  else
    r->pace_quiet = 0;
  if (r->pace_quiet >= 2)
    {
      r->pace_timer = 0;
      r->pace_busy_runs = 0;
      r->act (r, flight_taken (r));
      return G_SOURCE_REMOVE;
    }
  if (note_now_ms () - r->pace_started >= r->pace_bound_ms)
    {
      r->pace_timer = 0;
      if (++r->pace_busy_runs >= REPLAY_QUIET_GIVE_UP)
        {
          /* Never idle (an animation, a busy loop): waiting for it only
           * costs --timeout an action. */
          note_verbose (r, "the app was never idle after %u actions: the rest at the recorded pace",
                        REPLAY_QUIET_GIVE_UP);
          r->pace_by_quiet = FALSE;
          r->result->pace = REPLAY_PACE_RECORDED;
          g_free (r->result->pace_detail);
          r->result->pace_detail = g_strdup_printf (
            "the app does not answer _NET_WM_PING and was never idle after %u actions",
            REPLAY_QUIET_GIVE_UP);
        }
      r->act (r, pace_done (r, "the app is still busy: going on"));
      return G_SOURCE_REMOVE;
    }
  /* At work (or idle once): glanced at again, the sooner the less long
   * it has been at work. */
  r->pace_timer = g_timeout_add (r->pace_quiet > 0 ? REPLAY_QUIET_GLANCE_MS
                                                   : replay_glance_interval (r->pace_started),
                                 on_quiet_glance, r);
  return G_SOURCE_REMOVE;
}

/* Waits until the app is idle, at most @bound_ms. */
static Act
wait_for_quiet (Replay *r, guint bound_ms)
{
  r->result->app_waits++;
  r->pace_started = note_now_ms ();
  r->pace_waiting = TRUE;
  r->pace_bound_ms = bound_ms;
  /* replay.c has synced after the action: the server has done it and
   * sent the app its events, so from here on the app is awake until it
   * has handled them. */
  r->pace_quiet = glance_idle (r, TRUE) ? 1 : 0;
  r->pace_timer = g_timeout_add (REPLAY_QUIET_GLANCE_MS, on_quiet_glance, r);
  bound_wait (r);
  return act_wait ();
}

static gboolean
on_pace_sample (gpointer user_data)
{
  Replay *r = user_data;
  ProcTreeSample sample;
  gboolean changed;

  proctree_sample (proc_child_get_pid (r->child), &sample);
  changed = sample.n_procs != r->pace_sample.n_procs || sample.pid_sum != r->pace_sample.pid_sum;
  r->pace_sample = sample;
  if (sample.n_active == 0 && !changed)
    {
      if (++r->pace_quiet >= 2)
        {
          r->pace_timer = 0;
          if (r->pace_tree_runs >= REPLAY_TREE_GIVE_UP)
            note_verbose (r, "action %u: the app's processes are quiet again: waited for "
                          "as before", r->next + 1);
          r->pace_tree_runs = 0;
          r->act (r, flight_taken (r));
          return G_SOURCE_REMOVE;
        }
    }
  else
    r->pace_quiet = 0;
  if (note_now_ms () - r->pace_answered_at >= r->pace_tree_bound_ms)
    {
      r->pace_timer = 0;
      if (r->pace_tree_runs < REPLAY_TREE_GIVE_UP && ++r->pace_tree_runs == REPLAY_TREE_GIVE_UP)
        note_verbose (r, "action %u: the app's processes were at work after %u actions in a "
                      "row: work of their own; each next action waits for them at most its "
                      "recorded gap, until they are seen quiet", r->next + 1,
                      REPLAY_TREE_GIVE_UP);
      r->act (r, pace_done (r, "the app's processes are still busy: going on"));
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* How long the tree may take, after the app answered: REPLAY_PACE_QUIET_MS;
 * but a tree that was at work that long REPLAY_TREE_GIVE_UP waits in a row
 * is at work of its own (a browser starting its content processes, for
 * seconds after its window came), which says nothing of the action's: the
 * user gave it the recorded gap, and so does the replay (within --max-gap),
 * until it is seen quiet again. */
static guint
tree_bound (Replay *r)
{
  gint64 spent, gap;

  if (r->pace_tree_runs < REPLAY_TREE_GIVE_UP)
    return REPLAY_PACE_QUIET_MS;
  gap = bounded_recorded_gap (r, r->pace_next_time_ms);
  spent = note_now_ms () - r->t_last_action;
  return (guint) CLAMP (gap - spent, 0, REPLAY_PACE_QUIET_MS);
}

/* The app answered the ping: its event loop has handled the action. */
Act
pace_answered (Replay *r)
{
  if (!r->pace_waiting)
    return act_wait ();
  if (r->pace_timer != 0)
    g_source_remove (r->pace_timer);
  r->pace_timer = 0;
  r->pace_answered_at = note_now_ms ();
  r->pace_quiet = 0;
  proctree_sample (proc_child_get_pid (r->child), &r->pace_sample);
  /* An app of one process has done all it will when it answers: only a
   * tree (a browser's content processes, a terminal's shell) can still
   * be at work. */
  if (r->pace_sample.n_procs <= 1 + sandbox_helper_processes (r->sandbox))
    return flight_taken (r);
  if (r->pace_sample.n_active == 0)
    r->pace_quiet = 1;
  r->pace_tree_bound_ms = tree_bound (r);
  r->pace_timer = g_timeout_add (REPLAY_PACE_SAMPLE_MS, on_pace_sample, r);
  return act_wait ();
}

static gboolean
on_pace_timeout (gpointer user_data)
{
  Replay *r = user_data;

  r->pace_timer = 0;
  r->act (r, pace_done (r, "no answer to the ping: going on"));
  return G_SOURCE_REMOVE;
}

static Act
wait_for_app (Replay *r)
{
  r->result->app_waits++;
  r->pace_started = note_now_ms ();
  r->pace_waiting = TRUE;
  r->pace_stamp = (long) ((note_now_ms () + 1) & 0x7fffffff);
  if (!settle_send_ping (r, windows_get_main (r->windows), r->pace_stamp))
    return act_fail_x ();
  r->pace_timer = g_timeout_add (r->opts->settings.timeout_ms, on_pace_timeout, r);
  bound_wait (r);
  return act_wait ();
}

Act
pace_wait (Replay *r)
{
  /* No ping to tell at the recorded pace: a frame's time (the app redraws
   * at its size). */
  if (r->result->pace == REPLAY_PACE_RECORDED)
    return act_inject (MAX (r->opts->settings.min_gap_ms, 50));
  if (r->pace_by_quiet)
    return wait_for_quiet (r, r->opts->settings.timeout_ms);
  return wait_for_app (r);
}

/* Once the first window is there: what a double click and a held key
 * are for the app and were for the user (apptiming.c); can the app be
 * paced? */
void
pace_start (Replay *r)
{
  Window main_window = windows_get_main (r->windows);

  apptiming_read (r);
  r->result->pace = r->opts->settings.pace;
  if (r->opts->settings.pace != REPLAY_PACE_APP)
    return;
  if (main_window == None || !windows_supports_ping (r->windows, main_window))
    {
      note_verbose (r, "the app does not answer _NET_WM_PING: paced by the app and the X server "
                       "going idle");
      r->pace_by_quiet = TRUE;
      r->result->pace_detail = g_strdup ("the app does not answer _NET_WM_PING: paced by its "
                                         "processes and the X server going idle");
    }
}

/* After action r->next - 1 (@prev, or NULL before the first): when to
 * inject the next one (@next; @after follows it, or NULL). */
Act
pace_next (Replay *r, const SessionEvent *prev, const SessionEvent *next,
           const SessionEvent *after)
{
  guint gap;
  g_autofree char *key = held_key (next);

  pace_rules_window (&r->recorded_timing, &r->app_timing,
                     next->kind == SESSION_EVENT_KEY_PRESS ? &r->last_key : &r->last_button,
                     g_hash_table_lookup (r->held, key), next, &r->window);
  r->pace_next_time_ms = next->time_ms;
  if (in_motion_run (r, prev, next))
    return act_inject (0);
  if (r->result->pace == REPLAY_PACE_RECORDED)
    return pace_inject_within (r, bounded_recorded_gap (r, next->time_ms));
  if (prev != NULL && keeps_time (r, prev, next, after, &gap))
    return pace_inject_within (r, gap);
  if (prev != NULL && after_paste (r, next, &gap))
    return pace_inject_within (r, gap);
  if (in_typing_run (r, prev, next)
      && (r->opts->wait_before == NULL || !r->opts->wait_before (r->next, r->opts->hook_data)))
    return pace_inject_within (r, 0);
  if (r->pace_by_quiet)
    return wait_for_quiet (r, r->opts->settings.timeout_ms);
  return wait_for_app (r);
}
