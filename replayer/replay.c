/* replay.c — one replay: the app, its windows, the actions, the verdict.
 *
 * Start reading at replay_run(). It sets things up (Xvfb, the connection,
 * the keyboard), spawns the app and runs one GMainLoop through the phases
 *
 *   STARTING   waiting for the app's first window (MapNotify on the root)
 *   ACTING     one timer per action; an action aimed at a window that is
 *              not there yet waits for it (MapNotify/ConfigureNotify/
 *              PropertyNotify, bounded by window_wait_ms)
 *   SETTLING   settle_ms after the last action, and more (up to
 *              timeout_ms more) while the app's process tree is busy
 *   PINGING    _NET_WM_PING to the main window, timeout_ms for the answer
 *
 * and ends as soon as the verdict is known: the app's death (pidfd) ends
 * any phase at once. Then cleanup, whatever happened: release what we
 * hold, restore the keymap, kill the app's group, stop the private Xvfb.
 * Nothing blocks the loop; the X connection is a GSource (xconn.c).
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay.h"
#include "replay-private.h"
#include "quote.h"
#include "xserver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>

/* How often the app's CPU and memory are sampled. */
#define REPLAY_USAGE_SAMPLE_MS 250

/* How long a private Xvfb may take to start. */
#define REPLAY_SERVER_TIMEOUT_MS 10000

/* How often a window manager that did not answer is asked again whether
 * its event loop runs (replay_wm_ready); how long one that lists the
 * question gets to answer it; how often its processes are sampled, and
 * how many idle samples in a row tell one that never answers that it has
 * started (one that does not list it), and that a started one has settled. */
#define REPLAY_WM_ASK_MS 100
#define REPLAY_WM_ANSWER_MS 1000
#define REPLAY_WM_SAMPLE_MS 50
#define REPLAY_WM_QUIET_SAMPLES 10
#define REPLAY_WM_SETTLED_SAMPLES 4

/* How long an action waits for the app to ask for a paste before it. */
#define REPLAY_PASTE_WAIT_MS 1000

/* How long the app gets to exit after SIGTERM before SIGKILL. */
#define REPLAY_KILL_GRACE_MS 300

G_DEFINE_QUARK (replay-error-quark, replay_error)

static void replay_schedule_next (Replay *r);
static GStrv replay_session_env (const Session *session);
static void replay_step (Replay *r);

void
replay_options_init (ReplayOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  replay_settings_init (&opts->settings);
}

static void
injector_note (const char *message, gpointer data)
{
  note_verbose (data, "%s", message);
}

static void
replay_clear_timers (Replay *r)
{
  if (r->timer != 0)
    g_source_remove (r->timer);
  if (r->wait_timer != 0)
    g_source_remove (r->wait_timer);
  if (r->quiet_timer != 0)
    g_source_remove (r->quiet_timer);
  if (r->usage_timer != 0)
    g_source_remove (r->usage_timer);
  if (r->pace_timer != 0)
    g_source_remove (r->pace_timer);
  if (r->window_timer != 0)
    g_source_remove (r->window_timer);
  if (r->paste_timer != 0)
    g_source_remove (r->paste_timer);
  r->timer = r->wait_timer = r->quiet_timer = r->usage_timer = r->pace_timer = 0;
  r->window_timer = r->paste_timer = 0;
}

/* The verdict: stop everything and leave the loop. */
static void
replay_finish (Replay *r, VerdictKind outcome)
{
  if (r->phase == PHASE_DONE)
    return;
  if (r->phase == PHASE_ACTING || r->phase == PHASE_STARTING)
    r->t_end_actions = note_now_ms ();
  r->phase = PHASE_DONE;
  r->result->verdict.kind = outcome;
  replay_clear_timers (r);
  g_main_loop_quit (r->loop);
}

static void
replay_fail (Replay *r, GError *error)
{
  if (r->phase == PHASE_DONE)
    {
      g_error_free (error);
      return;
    }
  g_clear_error (&r->error);
  r->error = error;
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    r->result->verdict.detail = g_strdup (error->message);
  replay_finish (r, VERDICT_INFRA_ERROR);
}

static void
replay_fail_x (Replay *r)
{
  replay_fail (r, g_error_new (G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE,
                               "lost the connection to the X server (did it die?)"));
}

/* ---- the app ---- */

static void
on_child_exit (ProcChild *child, int status, gpointer user_data)
{
  Replay *r = user_data;
  g_autofree char *how = NULL;
  Verdict died;

  verdict_from_wait_status (&died, sandbox_app_wait_status (r->sandbox, status));
  how = verdict_describe (&died);
  if (r->phase == PHASE_DONE)
    return;
  note_verbose (r, "the app %s", how);
  /* An app dies with its X server: then it is the server that failed. */
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return;
    }
  r->result->verdict.signal = died.signal;
  r->result->verdict.exit_status = died.exit_status;
  if (r->phase == PHASE_STARTING)
    {
      r->result->verdict.detail = g_strdup_printf ("the app %s before it mapped a window", how);
      replay_finish (r, VERDICT_COULD_NOT_START);
    }
  else
    replay_finish (r, died.kind);
}

static gboolean
on_start_timeout (gpointer user_data)
{
  Replay *r = user_data;

  r->timer = 0;
  r->result->verdict.detail = g_strdup_printf ("the app mapped no window within %u ms",
                                       r->opts->settings.start_timeout_ms);
  replay_finish (r, VERDICT_COULD_NOT_START);
  return G_SOURCE_REMOVE;
}

/* ---- the actions ---- */

/* "class\ntitle\nindex": the recorded identity of a window. */
static char *
identity_key (const SessionEvent *ev)
{
  return g_strdup_printf ("%s\n%s\n%d", ev->wm_class != NULL ? ev->wm_class : "",
                          ev->wm_name != NULL ? ev->wm_name : "", ev->window);
}

static gboolean
on_action_timer (gpointer user_data)
{
  Replay *r = user_data;

  r->timer = 0;
  r->waiting = r->wait_over = FALSE;
  replay_step (r);
  return G_SOURCE_REMOVE;
}

/* Carries out what pacing or settling decided (replay-private.h). */
static void
replay_act (Replay *r, Act act)
{
  switch (act.kind)
    {
    case ACT_INJECT:
      r->timer = g_timeout_add (act.ms, on_action_timer, r);
      break;
    case ACT_FINISH:
      replay_finish (r, act.verdict);
      break;
    case ACT_FAIL_X:
      replay_fail_x (r);
      break;
    case ACT_WAIT:
    default:
      break;
    }
}

static void
replay_schedule_next (Replay *r)
{
  const SessionEvent *prev = NULL, *next, *after = NULL;

  if (r->next >= r->actions->len)
    {
      replay_act (r, settle_start (r));
      return;
    }
  next = session_get_event (r->session, g_array_index (r->actions, guint, r->next));
  if (r->next > 0)
    prev = session_get_event (r->session, g_array_index (r->actions, guint, r->next - 1));
  if (r->next + 1 < r->actions->len)
    after = session_get_event (r->session, g_array_index (r->actions, guint, r->next + 1));
  replay_act (r, pace_next (r, prev, next, after));
}

/* --window-wait is the app's own time: what the app (its threads, the X
 * server's, the bus's) waited for a core meanwhile makes the wait as
 * much longer, up to REPLAY_WAIT_STARVED_MAX times (the parallel
 * replays of a reduction, a busy CI: a dialog that took 0.3 s for the
 * user may take 3 s of the wall clock). */
#define REPLAY_WAIT_STARVED_MAX 10

static gboolean
on_wait_timeout (gpointer user_data)
{
  Replay *r = user_data;
  gint64 starved = settle_starvation_take (r, &r->wait_starvation);
  gint64 most = (gint64) r->opts->settings.window_wait_ms * (REPLAY_WAIT_STARVED_MAX - 1);

  r->wait_timer = 0;
  if (starved > 0 && r->wait_extended < most)
    {
      starved = MIN (starved, most - r->wait_extended);
      r->wait_extended += starved;
      note_verbose (r, "action %u: the app waited %" G_GINT64_FORMAT " ms for a core: the "
                    "window wait is as much longer", r->next + 1, starved);
      r->wait_timer = g_timeout_add ((guint) starved, on_wait_timeout, r);
      return G_SOURCE_REMOVE;
    }
  r->wait_over = TRUE;
  replay_step (r);
  return G_SOURCE_REMOVE;
}

/* Without a window manager the focus follows the pointer: a key aimed at
 * a window reaches it only with the pointer inside. Moves the pointer
 * there if it is not: to the recorded position if known, else the centre. */
static void
replay_point_into (Replay *r, const SessionEvent *ev, const WindowsMatch *match)
{
  Window root_ret, child;
  int px, py, wx, wy, x, y;
  unsigned int mask;
  gpointer known;

  if (XQueryPointer (r->dpy, DefaultRootWindow (r->dpy), &root_ret, &child, &px, &py, &wx,
                     &wy, &mask)
      && px >= match->x && px < match->x + match->width && py >= match->y
      && py < match->y + match->height)
    return;
  if (ev->has_pos)
    {
      x = ev->x;
      y = ev->y;
    }
  else
    {
      g_autofree char *key = identity_key (ev);
      if (g_hash_table_lookup_extended (r->last_pos, key, NULL, &known))
        {
          guint64 packed = *(guint64 *) known;
          x = (int) (gint32) (packed & 0xffffffff);
          y = (int) (gint32) (packed >> 32);
        }
      else
        {
          x = match->width / 2;
          y = match->height / 2;
        }
    }
  x = CLAMP (x, 0, MAX (match->width - 1, 0));
  y = CLAMP (y, 0, MAX (match->height - 1, 0));
  note_verbose (r, "moving the pointer into 0x%lx for a key", match->window);
  injector_motion (r->injector, match->x + x, match->y + y);
}

static void
replay_remember_pos (Replay *r, const SessionEvent *ev)
{
  guint64 *packed;

  if (!ev->has_pos || ev->window < 0)
    return;
  packed = g_new (guint64, 1);
  *packed = (guint64) (guint32) ev->x | ((guint64) (guint32) ev->y << 32);
  g_hash_table_replace (r->last_pos, identity_key (ev), packed);
}

static const char *const match_kind_names[] = {
  [WINDOWS_MATCH_NONE] = "root coordinates", [WINDOWS_MATCH_TITLE] = "class and title",
  [WINDOWS_MATCH_ALIAS] = "earlier fallback", [WINDOWS_MATCH_INDEX] = "class and index",
  [WINDOWS_MATCH_MAIN] = "main window",
};

/* A window of the app has just appeared after an action: how long that
 * took, measured from the last action injected (a lower bound of the time
 * from its cause, which is that action or an earlier one). The reducer
 * learns from it how long a missing window is worth waiting for. */
static void
replay_note_latency (Replay *r)
{
  gint64 latency;

  if (r->t_last_action == 0)
    return;
  latency = note_now_ms () - r->t_last_action;
  if (latency > r->result->window_latency_ms)
    r->result->window_latency_ms = latency;
}

typedef enum
{
  WINDOW_READY,              /* inject now (into the match, or at root coordinates) */
  WINDOW_WAIT,               /* not there yet: wait for it */
  WINDOW_MISSING,            /* never came, and nothing may stand in for it */
  WINDOW_GONE,               /* was there in this replay, and the app closed it
                              * sooner than in the recording */
} WindowState;

/* The replay cannot do what the session says: action @number aims at a
 * window that did not come. Never replayed on another window instead
 * (the click on an open menu would land on the menu bar): the verdict is
 * unresolved, said in words and in the result. A crash before that, or
 * while waiting, was a crash. */
static void
replay_missing_window (Replay *r, guint number, const SessionEvent *ev)
{
  ReplayResult *result = r->result;
  g_autofree char *words = session_event_describe (ev);

  result->missing_action = number + 1;
  result->missing_window = ev->window;
  result->missing_class = g_strdup (ev->wm_class);
  result->missing_title = g_strdup (ev->wm_name);
  result->missing_wait_ms = r->opts->settings.window_wait_ms;
  g_clear_pointer (&result->verdict.detail, g_free);
  result->verdict.detail =
    g_strdup_printf ("action %u (%s): its window %d%s%s%s did not appear within %u ms",
                     number + 1, words, ev->window, ev->wm_class != NULL ? " (class " : "",
                     ev->wm_class != NULL ? ev->wm_class : "",
                     ev->wm_class != NULL ? ")" : "", r->opts->settings.window_wait_ms);
  note_verbose (r, "action %u: window %d did not appear within %u ms: unresolved",
                number + 1, ev->window, r->opts->settings.window_wait_ms);
  replay_finish (r, VERDICT_UNRESOLVED);
}

/* Is the window action @number aims at there? The same class and title
 * (at any rank), or an earlier stand-in for it, at once; else it is
 * waited for (a dialog the previous action opens), event-driven and
 * bounded. When the wait is over, only what stands for the same window
 * may take its place: the same class at the same index (a title that
 * changed), the main window for index 0. Fills @match. */
static WindowState
replay_find_window (Replay *r, guint number, const SessionEvent *ev, WindowsMatch *match)
{
  g_autofree char *identity = identity_key (ev);
  /* A title that named the recording's folder, HOME, host or date names
   * the replay's (session-world.h): matched at once, not waited for. */
  g_autofree char *title = session_title_here (r->session, ev->wm_name, &r->here);
  gboolean exact, stand_in;

  windows_match (r->windows, ev->window, ev->wm_class, title, match);
  exact = match->kind == WINDOWS_MATCH_TITLE || match->kind == WINDOWS_MATCH_ALIAS;
  stand_in = match->kind == WINDOWS_MATCH_INDEX || match->kind == WINDOWS_MATCH_MAIN;
  if (!exact && !r->wait_over && !(stand_in && g_hash_table_contains (r->given_up, identity)))
    {
      /* (A window already waited for in vain, with a stand-in there, is
       * not waited for again: a candidate without the action that opens
       * it would wait at every action aimed at it.) */
      if (!r->waiting)
        {
          r->waiting = TRUE;
          note_verbose (r, "action %u waits for window %d", number + 1, ev->window);
          settle_starvation_start (r, &r->wait_starvation);
          r->wait_extended = 0;
          /* Waited for already, since the last action, as a window the
           * recording had opened by now (pace.c): not twice. */
          r->wait_timer = g_timeout_add (r->opened_waited == number + 1
                                           ? 0 : r->opts->settings.window_wait_ms,
                                         on_wait_timeout, r);
        }
      return WINDOW_WAIT;
    }
  if (r->waiting && !r->wait_over)
    replay_note_latency (r);
  if (r->wait_timer != 0)
    g_source_remove (r->wait_timer);
  r->wait_timer = 0;
  if (exact)
    {
      g_hash_table_add (r->seen, g_steal_pointer (&identity));
      return WINDOW_READY;
    }
  if (r->wait_over && g_hash_table_contains (r->seen, identity))
    return WINDOW_GONE;
  if (!stand_in)
    return WINDOW_MISSING;
  if (r->wait_over)
    {
      note_verbose (r, "action %u: window %d not as recorded after %u ms, using %s",
                    number + 1, ev->window, r->opts->settings.window_wait_ms,
                    match_kind_names[match->kind]);
      windows_add_alias (r->windows, ev->wm_class, title, match->window);
      g_hash_table_add (r->given_up, g_steal_pointer (&identity));
    }
  return WINDOW_READY;
}

/* Asks once for what @key says (a size, a place) for @match's window;
 * FALSE if it was asked before (the app or its hints may refuse it). */
static gboolean
replay_ask_once (Replay *r, const WindowsMatch *match, char *key)
{
  g_autofree char *owned = key;

  if (g_hash_table_contains (r->arranged, owned))
    return FALSE;
  g_hash_table_add (r->arranged, g_steal_pointer (&owned));
  note_verbose (r, "%s", key);
  return TRUE;
}

/* The replay is the window manager of its own server, as the user's
 * desktop had one: before an action, the window it aims at gets the size
 * it had then (a tiling window manager's, a maximised window, the user's
 * resize: toolkits lay out their widgets by the size, and the recorded
 * positions mean the same widget only at the same size), and it is moved
 * where it was if the action would land off the screen; else it stays
 * where the toolkit put it. Menus and other override-redirect windows
 * are the toolkit's alone. TRUE if the window was changed: the action
 * waits for the app to take it. */
static gboolean
replay_arrange (Replay *r, const SessionEvent *ev, const WindowsMatch *match)
{
  gboolean changed = FALSE;
  int screen_w = DisplayWidth (r->dpy, DefaultScreen (r->dpy));
  int screen_h = DisplayHeight (r->dpy, DefaultScreen (r->dpy));

  if (!r->is_wm || match->override_redirect || match->window == None)
    return FALSE;
  if (ev->width > 0 && ev->height > 0
      && (match->width != ev->width || match->height != ev->height)
      && replay_ask_once (r, match, g_strdup_printf ("window 0x%lx to its recorded size %dx%d",
                                                      match->window, ev->width, ev->height)))
    {
      XResizeWindow (r->dpy, match->window,
                     (unsigned) (ev->width + match->extents[0] + match->extents[1]),
                     (unsigned) (ev->height + match->extents[2] + match->extents[3]));
      changed = TRUE;
    }
  if (ev->has_pos && ev->kind != SESSION_EVENT_KEY_PRESS && ev->kind != SESSION_EVENT_KEY_RELEASE
      && (match->x + ev->x < 0 || match->x + ev->x >= screen_w
          || match->y + ev->y < 0 || match->y + ev->y >= screen_h))
    {
      int x = CLAMP (ev->root_x - ev->x, -ev->x, screen_w - 1 - ev->x);
      int y = CLAMP (ev->root_y - ev->y, -ev->y, screen_h - 1 - ev->y);

      if (replay_ask_once (r, match, g_strdup_printf ("window 0x%lx to %+d%+d, where the action lands",
                                                 match->window, x, y)))
        {
          XMoveWindow (r->dpy, match->window, x - match->extents[0], y - match->extents[2]);
          changed = TRUE;
        }
    }
  return changed;
}

static gboolean
on_paste_timer (gpointer user_data)
{
  Replay *r = user_data;

  r->paste_timer = 0;
  replay_step (r);
  return G_SOURCE_REMOVE;
}

/* The recording's next action came once the app had asked for what it
 * pasted (outside.h): the replay's waits for it too, at most
 * REPLAY_PASTE_WAIT_MS (a candidate may lack what made it paste). TRUE
 * while it waits. */
static gboolean
replay_wait_paste (Replay *r, guint number)
{
  if (r->paste_timer != 0)
    return TRUE;
  if (r->paste_given_up == number + 1 || !outside_paste_pending (r->outside, number))
    {
      r->paste_since = 0;
      return FALSE;
    }
  if (r->paste_since == 0)
    r->paste_since = note_now_ms ();
  if (note_now_ms () - r->paste_since >= REPLAY_PASTE_WAIT_MS)
    {
      note_verbose (r, "action %u: the app did not ask for all of the paste before it within "
                    "%d ms", number + 1, REPLAY_PASTE_WAIT_MS);
      r->paste_given_up = number + 1;
      r->paste_since = 0;
      return FALSE;
    }
  r->paste_timer = g_timeout_add (10, on_paste_timer, r);
  return TRUE;
}

/* The input an action presses or releases: "k" and the keysym, "b" and
 * the button; NULL for motion and drops. */
static char *
input_key (const SessionEvent *ev)
{
  if (ev->kind == SESSION_EVENT_KEY_PRESS || ev->kind == SESSION_EVENT_KEY_RELEASE)
    return g_strconcat ("k", ev->keysym != NULL ? ev->keysym : "", NULL);
  if (ev->kind == SESSION_EVENT_BUTTON_PRESS || ev->kind == SESSION_EVENT_BUTTON_RELEASE)
    return g_strdup_printf ("b%u", ev->button);
  return NULL;
}

/* Action @number aims at a window the app showed in this replay and has
 * closed since, sooner than in the recording (the user's first Return
 * came while the app still read a folder and did nothing; the replay's,
 * later in the app's time, closed the dialog, and the user's second
 * Return has nothing left to go to). The app is ahead of the recording,
 * not off it: the action is skipped (@gone), and so is the release of a
 * press skipped; the release of a press made goes where the server sends
 * it. TRUE if skipped. */
static gboolean
replay_skip_gone (Replay *r, guint number, const SessionEvent *ev, gboolean gone)
{
  g_autofree char *input = input_key (ev);
  gboolean release = ev->kind == SESSION_EVENT_KEY_RELEASE
                     || ev->kind == SESSION_EVENT_BUTTON_RELEASE;

  if (release ? input == NULL || !g_hash_table_remove (r->skipped, input) : !gone)
    return FALSE;
  if (!release && input != NULL)
    g_hash_table_add (r->skipped, g_steal_pointer (&input));
  note_verbose (r, "action %u: window %d was there and the app has closed it, sooner than "
                "in the recording: skipped", number + 1, ev->window);
  r->waiting = r->wait_over = FALSE;
  r->next++;
  r->result->n_replayed = r->next;
  r->last_time_ms = ev->time_ms;
  replay_schedule_next (r);
  return TRUE;
}

/* Injects action r->next, or waits for its window. */
static void
replay_step (Replay *r)
{
  guint number = r->next;
  const SessionEvent *ev = session_get_event (r->session, g_array_index (r->actions, guint, number));
  WindowsMatch match = { 0 };
  gboolean matched = FALSE, came;
  gint64 sent_ms;

  if (r->phase != PHASE_ACTING || replay_wait_paste (r, number))
    return;
  /* A release xreduce added (so that nothing stays held) goes where the
   * X server sends it, to the window that holds the grab or the focus:
   * its press's window may be gone (a dialog the click closed), and no
   * release of ours is a reason to wait, or to stop unresolved. */
  if (g_hash_table_size (r->skipped) > 0 && replay_skip_gone (r, number, ev, FALSE))
    return;
  if (ev->window >= 0 && !ev->added)
    {
      switch (replay_find_window (r, number, ev, &match))
        {
        case WINDOW_WAIT:
          return;
        case WINDOW_MISSING:
          replay_missing_window (r, number, ev);
          return;
        case WINDOW_GONE:
          if (replay_skip_gone (r, number, ev, TRUE))
            return;
          break;
        case WINDOW_READY:
        default:
          matched = match.kind != WINDOWS_MATCH_NONE;
          break;
        }
    }
  came = r->waiting && !r->wait_over && matched;
  r->waiting = r->wait_over = FALSE;
  if (came && r->result->pace == REPLAY_PACE_APP)
    {
      /* The window the action waited for came (a dialog the last action
       * opened): what the app has in flight now (the timer that arms the
       * dialog's OK) is waited for as after any action, within the
       * recorded gap. */
      replay_act (r, pace_wait (r));
      return;
    }
  if (matched && replay_arrange (r, ev, &match))
    {
      if (!xconn_sync (r->conn))
        replay_fail_x (r);
      else
        replay_act (r, pace_wait (r));
      return;
    }

  note_step (r, number, ev, matched ? &match : NULL);
  /* The other apps' selections, before the gesture that pastes. */
  outside_before_action (r->outside, number);
  sent_ms = note_now_ms ();
  switch (ev->kind)
    {
    case SESSION_EVENT_DROP:
      {
        int x = matched ? match.x + ev->x : ev->root_x;
        int y = matched ? match.y + ev->y : ev->root_y;
        g_autofree char *what = NULL;

        if (!outside_drop (r->outside, number, ev, x, y, &what))
          note_verbose (r, "action %u: %s", number + 1, what);
      }
      break;
    case SESSION_EVENT_KEY_PRESS:
    case SESSION_EVENT_KEY_RELEASE:
      if (matched && ev->kind == SESSION_EVENT_KEY_PRESS)
        {
          /* Keys go to the window that had the focus when they were
           * recorded. */
          if (r->is_wm && windows_focus (r->windows, &match))
            note_verbose (r, "focus to 0x%lx for a key", match.window);
          replay_point_into (r, ev, &match);
        }
      injector_key (r->injector, ev);
      break;
    case SESSION_EVENT_BUTTON_PRESS:
    case SESSION_EVENT_BUTTON_RELEASE:
    case SESSION_EVENT_MOTION:
      if (matched && ev->kind == SESSION_EVENT_BUTTON_PRESS && r->is_wm
          && !match.override_redirect)
        {
          /* Click to focus, and raise, as the window managers of most
           * desktops do; the press then lands on it. */
          XRaiseWindow (r->dpy, match.frame);
          if (windows_focus (r->windows, &match))
            note_verbose (r, "focus to 0x%lx for a click", match.window);
        }
      if (matched)
        injector_motion (r->injector, match.x + ev->x, match.y + ev->y);
      else if (ev->has_pos && !ev->added)
        injector_motion (r->injector, ev->root_x, ev->root_y);
      if (ev->kind != SESSION_EVENT_MOTION)
        injector_button (r->injector, ev->button, ev->kind == SESSION_EVENT_BUTTON_PRESS);
      break;
    default:
      g_assert_not_reached ();
    }
  replay_remember_pos (r, ev);
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return;
    }
  pace_injected (r, ev, sent_ms);
  r->next++;
  r->result->n_replayed = r->next;
  r->t_last_action = note_now_ms ();
  r->last_time_ms = ev->time_ms;
  replay_schedule_next (r);
}

/* ---- X events ---- */

static void
on_windows_changed (Replay *r, XEvent *ev)
{
  if (!windows_handle_event (r->windows, ev))
    return;
  if (windows_get_n_ever_mapped (r->windows) > r->n_ever_mapped)
    {
      r->n_ever_mapped = windows_get_n_ever_mapped (r->windows);
      if (r->phase == PHASE_ACTING || r->phase == PHASE_SETTLING)
        replay_note_latency (r);
    }
  if (r->phase == PHASE_STARTING && windows_get_n_ever_mapped (r->windows) > 0)
    {
      Window first = windows_get_main (r->windows);
      g_autofree char *what = windows_describe (r->windows, first);

      r->t_first_window = note_now_ms ();
      r->result->first_window_ms = r->t_first_window - r->t_spawn;
      note_verbose (r, "first window %s after %" G_GINT64_FORMAT " ms", what,
                    r->result->first_window_ms);
      if (r->timer != 0)
        g_source_remove (r->timer);
      r->timer = 0;
      r->phase = PHASE_ACTING;
      /* Without a window manager, the replay is one (replay_arrange). */
      r->is_wm = !windows_wm_running (r->windows);
      if (!r->is_wm)
        note_verbose (r, "a window manager runs: the windows are left to it");
      pace_start (r);
      replay_schedule_next (r);
    }
  else if (r->phase == PHASE_ACTING && r->waiting && !r->wait_over)
    replay_step (r);
}

static void
on_client_message (Replay *r, XEvent *ev)
{
  if (r->phase == PHASE_PINGING && ev->xclient.message_type == r->wm_protocols
      && ev->xclient.format == 32 && (Atom) ev->xclient.data.l[0] == r->net_wm_ping
      && ev->xclient.data.l[1] == r->ping_stamp)
    {
      note_verbose (r, "the app answered the ping");
      replay_act (r, settle_answered (r));
    }
  else if (r->phase == PHASE_ACTING && r->pace_waiting
           && ev->xclient.message_type == r->wm_protocols && ev->xclient.format == 32
           && (Atom) ev->xclient.data.l[0] == r->net_wm_ping
           && ev->xclient.data.l[1] == r->pace_stamp)
    replay_act (r, pace_answered (r));
}

static void
on_mapping (Replay *r, XEvent *ev)
{
  injector_refresh (r->injector, ev);
}

/* dwm's handler table: one function per event type, NULL to ignore. */
static void (*const handlers[LASTEvent]) (Replay *r, XEvent *ev) = {
  [MapNotify] = on_windows_changed,
  [UnmapNotify] = on_windows_changed,
  [DestroyNotify] = on_windows_changed,
  [ReparentNotify] = on_windows_changed,
  [ConfigureNotify] = on_windows_changed,
  [PropertyNotify] = on_windows_changed,
  [ClientMessage] = on_client_message,
  [MappingNotify] = on_mapping,
};

static void
on_x_event (XEvent *ev, gpointer user_data)
{
  Replay *r = user_data;

  if (r->phase != PHASE_DONE && ev->type >= 0 && ev->type < LASTEvent
      && handlers[ev->type] != NULL)
    handlers[ev->type] (r, ev);
}

static void
on_x_dead (gpointer user_data)
{
  replay_fail_x (user_data);
}

static gboolean
on_cancelled (GCancellable *cancellable, gpointer user_data)
{
  Replay *r = user_data;

  note_verbose (r, "interrupted");
  replay_fail (r, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "interrupted"));
  return G_SOURCE_REMOVE;
}

/* ---- setting up and tearing down ---- */

/* The recorded time the first action's gap counts from: the first
 * MapNotify of the recording (the app's first window), if any. */
static guint64
first_window_time (const Session *session, guint64 first_action)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);
      if (ev->kind == SESSION_EVENT_SERVER && g_strcmp0 (ev->name, "MapNotify") == 0)
        return MIN (ev->time_ms, first_action);
      if (session_event_is_action (ev))
        break;
    }
  return first_action;
}

static void
replay_cleanup (Replay *r)
{
  ReplayResult *result = r->result;
  gsize len = 0;
  const char *text;

  replay_clear_timers (r);
  if (r->conn != NULL && !xconn_is_dead (r->conn) && r->injector != NULL)
    {
      /* Before the kill: a key left down would stay down on a server
       * the reducer reuses. */
      injector_release_all (r->injector);
      injector_restore_keymap (r->injector);
      xconn_sync (r->conn);
    }
  if (r->child != NULL)
    {
      proc_child_kill (r->child, REPLAY_KILL_GRACE_MS);
      proc_child_drain (r->child);
      text = proc_child_get_stderr (r->child, &len);
      len = MIN (len, REPLAY_STDERR_KEEP);
      result->stderr_text = g_malloc (len + 1);
      if (len > 0)
        memcpy (result->stderr_text, text, len);
      result->stderr_text[len] = '\0';
      result->stderr_len = len;
    }
  g_clear_pointer (&r->child, proc_child_free);
  if (r->wm != NULL)
    proc_child_kill (r->wm, REPLAY_KILL_GRACE_MS);
  g_clear_pointer (&r->wm, proc_child_free);
  g_clear_pointer (&r->injector, injector_free);
  g_clear_pointer (&r->windows, windows_free);
  g_clear_pointer (&r->outside, outside_free);
  g_clear_pointer (&r->conn, xconn_free);
}

static gboolean
replay_stderr_matches (const ReplayResult *result, GRegex *regex)
{
  g_autofree char *valid = NULL;

  if (regex == NULL || result->stderr_text == NULL)
    return FALSE;
  if (g_regex_get_compile_flags (regex) & G_REGEX_RAW)
    return g_regex_match_full (regex, result->stderr_text, (gssize) result->stderr_len, 0, 0,
                               NULL, NULL);
  valid = g_utf8_make_valid (result->stderr_text, (gssize) result->stderr_len);
  return g_regex_match (regex, valid, 0, NULL);
}

/* The environment of the app (and of --wm's window manager): the
 * sandbox's allowlist, HOME and bus, or ours; DISPLAY and the display's
 * cookie either way. */
static GStrv
replay_app_environ (Replay *r)
{
  GStrv envp;

  if (r->sandbox != NULL)
    return sandbox_environ (r->sandbox, DisplayString (r->dpy));
  envp = g_environ_setenv (g_get_environ (), "DISPLAY", DisplayString (r->dpy), TRUE);
  {
    /* --share-home: ours, and the recording's variables over them. */
    g_auto (GStrv) recorded = replay_session_env (r->session);

    for (char **e = recorded; *e != NULL; e++)
      {
        const char *eq = strchr (*e, '=');
        g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
        envp = g_environ_setenv (envp, name, eq + 1, TRUE);
      }
  }
  envp = sandbox_without_crash_reporters (envp);
  if (r->xauth_dir != NULL)
    {
      g_autofree char *xauthority = g_build_filename (proc_tempdir_get_path (r->xauth_dir),
                                                      "Xauthority", NULL);
      envp = g_environ_setenv (envp, "XAUTHORITY", xauthority, TRUE);
    }
  return envp;
}

/* The app, in its own process group, with DISPLAY and the sandbox's
 * HOME and bus; its stderr captured (and echoed when verbose). */
static ProcChild *
replay_spawn_app (Replay *r, const char *const *argv, GError **error)
{
  g_auto (GStrv) envp = replay_app_environ (r);
  g_auto (GStrv) command = NULL;
  ProcSpawnOptions spawn;

  /* In the sandbox: bwrap's command line. */
  if (r->sandbox != NULL)
    {
      g_autofree char *notes = NULL;

      command = sandbox_command (r->sandbox, argv, DisplayString (r->dpy), error);
      if (command == NULL)
        return NULL;
      argv = (const char *const *) command;
      if ((notes = sandbox_take_notes (r->sandbox)) != NULL)
        {
          g_autofree char *shown = quote_terminal (notes);

          g_printerr ("xreplay: warning: %s\n", shown);
        }
    }
  proc_spawn_options_init (&spawn);
  spawn.argv = argv;
  spawn.envp = (const char *const *) envp;
  spawn.out = r->opts->verbose ? PROC_OUTPUT_TO_STDERR : PROC_OUTPUT_NULL;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.echo_stderr = r->opts->verbose;
  spawn.stderr_keep = REPLAY_STDERR_KEEP;
  spawn.on_exit = on_child_exit;
  spawn.user_data = r;
  return proc_spawn (&spawn, error);
}

static void
on_wm_exit (ProcChild *child, int status, gpointer user_data)
{
  Replay *r = user_data;

  if (r->phase != PHASE_DONE && r->phase != PHASE_STARTING)
    note_verbose (r, "the window manager exited");
}

static gboolean
on_wm_poll (gpointer user_data)
{
  return G_SOURCE_CONTINUE;   /* only wakes the loop up */
}

/* Starting --wm's window manager: what has been seen of it. */
typedef struct
{
  Window asked;              /* the window asked about, or None */
  gint64 first_asked, asked_at;
  gboolean answered;
  guint quiet;               /* samples in a row with its processes idle */
  gint64 sampled_at;
  gint64 starved;            /* ms it and the X server waited for a core, since its start */
  guint64 run_delay;         /* ... their run delay at the last sample */
} WmStart;

/* Is the window manager ready: its event loop running, its start over,
 * and a compositor it starts running? An EWMH window manager answers
 * _NET_REQUEST_FRAME_EXTENTS from its loop by setting _NET_FRAME_EXTENTS
 * on the window asked about (a window of ours, never mapped): the answer
 * says it takes events now. (A request that came before its loop ran may
 * be lost as a MapRequest is: asked again every REPLAY_WM_ASK_MS.) One
 * that lists the request and never answers it (fluxbox) is taken at its
 * word after REPLAY_WM_ANSWER_MS once its processes idle; one that does
 * not list it (twm; xfwm4 until its settings are read) once its processes
 * have idled for REPLAY_WM_QUIET_SAMPLES samples in a row. Either way a
 * compositor must then run (_NET_WM_CM_S0 owned: xfwm4 --compositor=on,
 * metacity), or its processes idle a while, by when one it starts would:
 * the app starts composited, as on the desktop it was recorded on. Its
 * time counts as the app's does (settle.c): what it and the X server
 * waited for a core is not time it had. */
static gboolean
replay_wm_ready (Replay *r, WmStart *start)
{
  Display *dpy = r->dpy;
  Atom extents = XInternAtom (dpy, "_NET_FRAME_EXTENTS", False);
  Atom request = XInternAtom (dpy, "_NET_REQUEST_FRAME_EXTENTS", False);
  Atom supported = XInternAtom (dpy, "_NET_SUPPORTED", False);
  gint64 now = note_now_ms ();
  gboolean loop_runs;
  XEvent ev;

  if (!windows_wm_running (r->windows))
    return FALSE;
  if (start->asked == None && windows_root_lists (r->windows, supported, request))
    {
      XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };

      start->asked = XCreateWindow (dpy, DefaultRootWindow (dpy), -10, -10, 1, 1, 0,
                                    CopyFromParent, InputOnly, CopyFromParent, CWEventMask,
                                    &attrs);
      start->first_asked = now;
    }
  if (start->asked != None && !start->answered)
    {
      while (XCheckTypedWindowEvent (dpy, start->asked, PropertyNotify, &ev))
        start->answered |= ev.xproperty.atom == extents;
      if (!start->answered && now - start->asked_at >= REPLAY_WM_ASK_MS)
        {
          XEvent msg = { 0 };

          start->asked_at = now;
          msg.xclient.type = ClientMessage;
          msg.xclient.window = start->asked;
          msg.xclient.message_type = request;
          msg.xclient.format = 32;
          XSendEvent (dpy, DefaultRootWindow (dpy), False,
                      SubstructureRedirectMask | SubstructureNotifyMask, &msg);
          XSync (dpy, False);
        }
    }
  if (now - start->sampled_at >= REPLAY_WM_SAMPLE_MS)
    {
      ProcTreeSample sample;

      guint64 delay = proctree_run_delay_ms (proc_child_get_pid (r->wm))
                      + (r->server_pid > 0 ? proctree_run_delay_ms (r->server_pid) : 0);

      /* On a loaded machine (several replays starting their window
       * manager and compositor at once) what they waited for a core is
       * not their start's time. */
      if (start->sampled_at != 0 && delay > start->run_delay)
        start->starved += MIN ((gint64) (delay - start->run_delay), now - start->sampled_at);
      start->run_delay = MAX (start->run_delay, delay);
      start->sampled_at = now;
      proctree_sample (proc_child_get_pid (r->wm), &sample);
      start->quiet = sample.n_active == 0 ? start->quiet + 1 : 0;
    }
  loop_runs = start->answered
              || (start->asked != None && now - start->first_asked >= REPLAY_WM_ANSWER_MS
                  && start->quiet >= 2)
              || (start->asked == None && start->quiet >= REPLAY_WM_QUIET_SAMPLES);
  /* Started: a compositor runs (it keeps a window manager busy, under
   * load, as it paints), or its processes have idled a while, by when a
   * compositor it starts would run. */
  return loop_runs
         && (start->quiet >= REPLAY_WM_SETTLED_SAMPLES
             || XGetSelectionOwner (dpy, XInternAtom (dpy, "_NET_WM_CM_S0", False)) != None);
}

/* --wm: runs the window manager on the replay's server, with the app's
 * environment (the sandbox's HOME: its configuration is its own), and
 * waits until it manages the display, or has exited, or start_timeout_ms
 * is over. It manages the display once it holds SubstructureRedirect on
 * the root (the root's all-event mask tells) and its event loop runs
 * (replay_wm_ready): openbox takes the redirect early in its start and
 * loses a MapRequest that comes before its loop runs; the app's window
 * then stays unmapped for good. */
static gboolean
replay_start_wm (Replay *r, GError **error)
{
  /* (Not in bubblewrap: a program the user chose, not the stranger's.) */
  g_auto (GStrv) envp = replay_app_environ (r);
  gint64 started = note_now_ms ();
  g_autofree char *name = g_shell_quote (r->opts->settings.wm_argv[0]);
  ProcSpawnOptions spawn;
  guint poll_source;
  WmStart start = { None, 0, 0, FALSE, 0, 0, 0, 0 };
  Atom cm = XInternAtom (r->dpy, "_NET_WM_CM_S0", False);

  proc_spawn_options_init (&spawn);
  spawn.argv = r->opts->settings.wm_argv;
  spawn.envp = (const char *const *) envp;
  spawn.out = PROC_OUTPUT_NULL;
  spawn.err = PROC_OUTPUT_CAPTURE;
  spawn.echo_stderr = r->opts->verbose;
  spawn.on_exit = on_wm_exit;
  spawn.user_data = r;
  r->wm = proc_spawn (&spawn, error);
  if (r->wm == NULL)
    {
      g_prefix_error (error, "--wm: ");
      return FALSE;
    }
  /* The window manager's own windows are not the app's: on a server with
   * a window manager, the app's windows are known by whose client made
   * them (windows_new without private_server). */
  poll_source = g_timeout_add (20, on_wm_poll, NULL);
  while (!replay_wm_ready (r, &start))
    {
      if (proc_child_has_exited (r->wm))
        {
          g_autofree char *how = proc_describe_wait_status (proc_child_get_wait_status (r->wm));
          gsize len = 0;
          const char *said = proc_child_get_stderr (r->wm, &len);
          g_autofree char *valid = g_utf8_make_valid (said != NULL ? said : "",
                                                       (gssize) MIN (len, 400));
          g_autofree char *last = quote_terminal (g_strchomp (valid));

          g_source_remove (poll_source);
          g_set_error (error, REPLAY_ERROR, REPLAY_ERROR_WM,
                       "--wm: the window manager %s %s before it managed the display%s%s",
                       name, how, *last != '\0' ? "; it said: " : "", last);
          return FALSE;
        }
      if (g_cancellable_set_error_if_cancelled (r->opts->cancellable, error))
        {
          g_source_remove (poll_source);
          return FALSE;
        }
      /* --start-timeout of the window manager's own time (and ten times
       * that by the clock at most). */
      if (MAX (note_now_ms () - started - start.starved, (note_now_ms () - started) / 10)
          > (gint64) r->opts->settings.start_timeout_ms)
        {
          g_source_remove (poll_source);
          g_set_error (error, REPLAY_ERROR, REPLAY_ERROR_WM,
                       "--wm: the window manager %s did not manage the display within %u ms "
                       "(%s; %s)", name, r->opts->settings.start_timeout_ms,
                       !windows_wm_running (r->windows) ? "it never took the root's redirect"
                       : start.answered ? "it answered, but its processes never went idle"
                       : start.asked != None ? "it did not answer _NET_REQUEST_FRAME_EXTENTS"
                       : "it lists no _NET_REQUEST_FRAME_EXTENTS, and did not go idle",
                       XGetSelectionOwner (r->dpy, cm) != None ? "a compositor runs"
                                                               : "no compositor runs");
          return FALSE;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (poll_source);
  if (start.asked != None)
    XDestroyWindow (r->dpy, start.asked);
  note_verbose (r, "window manager %s manages the display%s%s", r->opts->settings.wm_argv[0],
                start.answered ? "" : " (it did not answer _NET_REQUEST_FRAME_EXTENTS)",
                XGetSelectionOwner (r->dpy, cm) != None ? "; a compositor runs" : "");
  return TRUE;
}

/* Everything between the connection and the verdict; FALSE with
 * r->error set on an infrastructure error. */
static gboolean
replay_drive (Replay *r, const char *display, const char *const *argv)
{
  g_autoptr (GError) local = NULL;
  GSource *cancel_source = NULL;
  guint n_bound;

  r->conn = xconn_open (display, &local);
  /* ... and the other apps' (outside.h), with the same cookie. */
  if (r->conn != NULL)
    r->outside = outside_new (display, r->session, &local);
  /* Our own Xvfb's cookie (replay_prepare) was for these connections only. */
  XSetAuthorization (NULL, 0, NULL, 0);
  if (r->conn == NULL || local != NULL)
    {
      r->result->verdict.detail = g_strdup (local->message);
      r->error = g_steal_pointer (&local);
      return FALSE;
    }
  r->dpy = xconn_get_display (r->conn);
  /* A display of xreduce's workers, or the user's: its server's pid, if
   * local, for pacing by quiet (pace.c). */
  if (r->server_pid == 0 && (r->server_pid = xconn_server_pid (r->conn)) > 0)
    note_verbose (r, "the X server of %s is pid %d", display, (int) r->server_pid);
  r->wm_protocols = XInternAtom (r->dpy, "WM_PROTOCOLS", False);
  r->net_wm_ping = XInternAtom (r->dpy, "_NET_WM_PING", False);
  r->windows = windows_new (r->dpy, r->opts->display == NULL && r->opts->settings.wm_argv == NULL);
  /* Xvfb has it; a display of the user's may not. */
  if (r->opts->display != NULL && !windows_server_tells_pids (r->windows))
    g_printerr ("xreplay: warning: %s has no X-Resource extension (1.2): the app's windows "
                "are known by their _NET_WM_PID, or by being new\n", DisplayString (r->dpy));
  if (r->opts->settings.wm_argv != NULL && !replay_start_wm (r, &local))
    {
      r->result->verdict.detail = g_strdup (local->message);
      r->error = g_steal_pointer (&local);
      return FALSE;
    }
  r->injector = injector_new (r->dpy, r->opts->verbose ? injector_note : NULL, r);
  injector_reset_input (r->injector);
  windows_reset_focus (r->windows);
  n_bound = injector_bind_keysyms (r->injector, r->session);
  if (n_bound > 0)
    note_verbose (r, "bound %u keysyms to spare keycodes", n_bound);
  if (!xconn_sync (r->conn))
    {
      replay_fail_x (r);
      return FALSE;
    }

  /* What the app pasted before any action: owned before it starts. */
  outside_start (r->outside);
  r->t_spawn = note_now_ms ();
  r->child = replay_spawn_app (r, argv, &local);
  if (r->child == NULL)
    {
      if (!g_error_matches (local, PROC_ERROR, PROC_ERROR_NOT_FOUND)
          && !g_error_matches (local, PROC_ERROR, PROC_ERROR_EXEC))
        {
          r->result->verdict.detail = g_strdup (local->message);
          r->error = g_steal_pointer (&local);
          return FALSE;
        }
      r->result->verdict.kind = VERDICT_COULD_NOT_START;
      r->result->verdict.detail = g_strdup (local->message);
      r->phase = PHASE_DONE;
      return TRUE;
    }
  note_verbose (r, "app pid %d: %s", (int) proc_child_get_pid (r->child), argv[0]);
  windows_set_app (r->windows, proc_child_get_pid (r->child));
  xconn_watch (r->conn, on_x_event, on_x_dead, r);
  r->usage_timer = g_timeout_add (REPLAY_USAGE_SAMPLE_MS, settle_on_usage_sample, r);

  r->phase = PHASE_STARTING;
  r->timer = g_timeout_add (r->opts->settings.start_timeout_ms, on_start_timeout, r);
  if (r->opts->cancellable != NULL)
    {
      cancel_source = g_cancellable_source_new (r->opts->cancellable);
      g_source_set_callback (cancel_source, G_SOURCE_FUNC (on_cancelled), r, NULL);
      g_source_attach (cancel_source, NULL);
    }
  g_main_loop_run (r->loop);
  if (cancel_source != NULL)
    {
      g_source_destroy (cancel_source);
      g_source_unref (cancel_source);
    }
  return r->error == NULL;
}

/* On a display given (--display), the app gets our X authority: the
 * file XAUTHORITY names, else ~/.Xauthority, copied into the sandbox
 * (the real one may be in a folder the app does not see). */
static gboolean
replay_pass_xauthority (Replay *r, GError **error)
{
  const char *given = g_getenv ("XAUTHORITY");
  g_autofree char *path = given != NULL && *given != '\0' ? g_strdup (given)
    : g_build_filename (g_get_home_dir (), ".Xauthority", NULL);
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return TRUE;   /* none: a server without access control */
  return sandbox_set_xauthority (r->sandbox, (const guint8 *) data, len, error);
}

/* --share-home: no sandbox, but the app still needs the private Xvfb's
 * cookie: in a folder of its own, removed with it (even after SIGKILL). */
static gboolean
replay_share_xauthority (Replay *r, XServer *server, GError **error)
{
  g_autofree char *path = NULL;

  r->xauth_dir = proc_tempdir_new ("xreplay-xauth-XXXXXX", error);
  if (r->xauth_dir == NULL)
    return FALSE;
  path = g_build_filename (proc_tempdir_get_path (r->xauth_dir), "Xauthority", NULL);
  return xserver_write_xauthority (server, path, error);
}

/* The recording's variables as a replay on X sets them
 * (session_env_replay_value: a Wayland choice becomes X11's). */
static GStrv
replay_session_env (const Session *session)
{
  g_autoptr (GStrvBuilder) env = g_strv_builder_new ();

  for (const char *const *e = session_get_env (session); *e != NULL; e++)
    {
      const char *eq = strchr (*e, '=');
      g_autofree char *name = g_strndup (*e, (gsize) (eq - *e));
      g_autofree char *value = session_env_replay_value (name, eq + 1);

      if (value != NULL)
        {
          g_autofree char *pair = g_strconcat (name, "=", value, NULL);
          g_strv_builder_add (env, pair);
        }
    }
  return g_strv_builder_end (env);
}

/* The files the app read, whose copies are in the files folder, where it
 * found them: under the recording's HOME in the sandbox's, others at
 * their path (sandbox_add_file). */
static void
replay_place_files (Replay *r)
{
  const char *dir = r->opts->settings.files_dir;
  g_autoptr (GPtrArray) files = session_get_files (r->session);
  guint placed = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const SessionEvent *file = g_ptr_array_index (files, i);
      g_autofree char *source = dir != NULL ? g_build_filename (dir, file->sha256, NULL) : NULL;
      g_autofree char *dest = session_file_path_at (file->path, sandbox_get_home (r->sandbox));
      g_autoptr (GError) local = NULL;
      GStatBuf st;

      if (!file->copied || source == NULL || g_stat (source, &st) != 0 || !S_ISREG (st.st_mode)
          || (guint64) st.st_size != file->size)
        {
          g_autofree char *shown = quote_terminal (file->path);
          note_verbose (r, "the file %s is not in the files folder: not placed", shown);
          continue;
        }
      if (!sandbox_add_file (r->sandbox, dest, source, &local))
        {
          g_autofree char *shown = quote_message (local->message);
          note_verbose (r, "%s", shown);
          continue;
        }
      placed++;
    }
  if (placed > 0)
    note_verbose (r, "%u file%s the app read placed in its sandbox", placed,
                  placed == 1 ? "" : "s");
}

/* Where the app runs, for titles that name it. */
static void
replay_note_here (Replay *r)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();

  r->here.home = g_strdup (r->sandbox != NULL ? sandbox_get_home (r->sandbox)
                                              : g_get_home_dir ());
  r->here.cwd = r->sandbox != NULL ? sandbox_get_app_cwd (r->sandbox) : g_get_current_dir ();
  r->here.host = g_strdup (g_get_host_name ());
  r->here.date = g_date_time_format (now, "%Y-%m-%d");
}

/* The room and the screen: the sandbox first (a --home that cannot be
 * copied is the user's mistake, said before any server starts), then a
 * private Xvfb unless a display was given. */
static gboolean
replay_prepare (Replay *r, XServer **server, const char **display, GError **error)
{
  const ReplayOptions *opts = r->opts;
  gint64 t_start = note_now_ms ();

  if (!opts->settings.share_home)
    {
      g_auto (GStrv) app_env = replay_session_env (r->session);
      SandboxOptions sandbox_options = {
        .home_seed = opts->settings.home_seed,
        .isolate = opts->settings.isolate,
        .share_net = opts->settings.share_net,
        .app_env = (const char *const *) app_env,
        .keep_env = opts->settings.keep_env,
        .set_env = opts->settings.set_env,
      };

      r->sandbox = sandbox_new (&sandbox_options, error);
      if (r->sandbox == NULL)
        return FALSE;
      r->bus_pid = sandbox_get_bus_pid (r->sandbox);
      replay_place_files (r);
    }
  replay_note_here (r);
  *display = opts->display;
  if (*display != NULL && r->sandbox != NULL && !replay_pass_xauthority (r, error))
    return FALSE;
  if (*display == NULL)
    {
      /* A cookie of its own: no other client of the machine (another
       * replay's app, anything the app started) connects to it. */
      XServerOptions server_options = { .kind = XSERVER_XVFB, .no_autorepeat = TRUE,
                                        .auth = TRUE };
      const guint8 *cookie;
      gsize len;

      session_get_screen (r->session, &server_options.width, &server_options.height);
      *server = xserver_start (&server_options, REPLAY_SERVER_TIMEOUT_MS, error);
      r->result->server_ms = note_now_ms () - t_start;
      if (*server == NULL)
        return FALSE;
      *display = xserver_get_display (*server);
      cookie = xserver_get_cookie (*server, &len);
      XSetAuthorization ((char *) "MIT-MAGIC-COOKIE-1", 18, (char *) cookie, (int) len);
      if (r->sandbox != NULL)
        {
          const guint8 *xauthority = xserver_get_xauthority (*server, &len);
          if (!sandbox_set_xauthority (r->sandbox, xauthority, len, error))
            return FALSE;
        }
      else if (!replay_share_xauthority (r, *server, error))
        return FALSE;
      r->server_pid = xserver_get_pid (*server);
      note_verbose (r, "Xvfb %s pid %d started in %" G_GINT64_FORMAT " ms", *display,
                    (int) xserver_get_pid (*server), r->result->server_ms);
    }
  return TRUE;
}

/* --backtrace: `xreduce-crashtrace --frames-file F -- APP...` instead of
 * APP: the wrapper traces the app's processes, dies like the app and
 * leaves what it knew of a crash in F (crash.h). *@wrapped holds the new
 * command line. */
static gboolean
replay_wrap_crashtrace (Replay *r, const char *const **argv, GPtrArray **wrapped,
                        char **frames_path, GError **error)
{
  /* In the sandbox's TMPDIR, which the isolated app and its tracer see too and
   * which goes with the sandbox; else in a temporary folder of its own,
   * not a bare file in TMPDIR: the folder's cleaner removes it when
   * xreplay dies, however (a SIGKILL left xreplay-frames-* behind every
   * time). */
  if (r->sandbox != NULL)
    *frames_path = g_build_filename (sandbox_get_tmpdir (r->sandbox), "xreplay-frames",
                                     NULL);
  else
    {
      r->frames_dir = proc_tempdir_new ("xreplay-frames-XXXXXX", error);
      if (r->frames_dir == NULL)
        return FALSE;
      *frames_path = g_build_filename (proc_tempdir_get_path (r->frames_dir), "frames", NULL);
    }
  if (!g_file_set_contents (*frames_path, "", 0, error))
    return FALSE;
  *wrapped = g_ptr_array_new ();
  g_ptr_array_add (*wrapped, (char *) r->opts->crashtrace);
  g_ptr_array_add (*wrapped, (char *) "--frames-file");
  g_ptr_array_add (*wrapped, *frames_path);
  g_ptr_array_add (*wrapped, (char *) "--");
  for (const char *const *a = *argv; *a != NULL; a++)
    g_ptr_array_add (*wrapped, (char *) *a);
  g_ptr_array_add (*wrapped, NULL);
  *argv = (const char *const *) (*wrapped)->pdata;
  return TRUE;
}

/* What crashtrace knew of the crash (crash.h), from the file it wrote,
 * which goes. A crash it could not say anything of says so. */
static void
replay_take_frames (ReplayResult *result, const char *frames_path)
{
  g_autoptr (GError) error = NULL;

  if (result->verdict.kind == VERDICT_CRASHED
      && !crash_info_load (frames_path, &result->crash, &error))
    {
      crash_info_clear (&result->crash);
      result->crash.signal = result->verdict.signal;
      result->crash.no_frames = g_strdup ("the app's tracer (xreduce-crashtrace) said "
                                          "nothing of it");
    }
  g_unlink (frames_path);
}

static void
replay_init (Replay *r, const Session *session, const ReplayOptions *opts,
             ReplayResult *result)
{
  memset (result, 0, sizeof *result);
  verdict_init (&result->verdict, VERDICT_INFRA_ERROR);
  result->window_latency_ms = -1;
  result->app_cpu_ms = result->app_peak_rss_kb = -1;
  result->n_actions = session_get_n_actions (session);
  r->session = session;
  r->opts = opts;
  r->result = result;
  r->loop = g_main_loop_new (NULL, FALSE);
  r->act = replay_act;
  r->phase = PHASE_STARTING;
  r->actions = session_get_actions (session);
  r->last_pos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->given_up = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->skipped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->arranged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  result->pace = opts->settings.pace;
  if (r->actions->len > 0)
    {
      const SessionEvent *first = session_get_event (session, g_array_index (r->actions, guint, 0));
      r->last_time_ms = first_window_time (session, first->time_ms);
    }
}

static void
replay_clear (Replay *r)
{
  /* Last: the app and everything it started are gone by now. */
  g_clear_pointer (&r->sandbox, sandbox_free);
  g_clear_pointer (&r->xauth_dir, proc_tempdir_free);
  g_free ((char *) r->here.home);
  g_free ((char *) r->here.cwd);
  g_free ((char *) r->here.host);
  g_free ((char *) r->here.date);
  g_array_unref (r->actions);
  g_clear_pointer (&r->windows_open, g_array_unref);
  g_hash_table_unref (r->last_pos);
  g_hash_table_unref (r->given_up);
  g_hash_table_unref (r->seen);
  g_hash_table_unref (r->skipped);
  g_hash_table_unref (r->arranged);
  g_hash_table_unref (r->held);
  g_main_loop_unref (r->loop);
  g_clear_error (&r->error);
}

gboolean
replay_run (const Session *session, const char *const *argv, const ReplayOptions *opts,
            ReplayResult *result, GError **error)
{
  Replay replay = { 0 }, *r = &replay;
  g_autoptr (XServer) server = NULL;
  g_autoptr (GPtrArray) wrapped = NULL;
  g_autofree char *frames_path = NULL;
  gint64 t_start = note_now_ms ();
  const char *display = NULL;
  gboolean ok;

  g_return_val_if_fail (opts->settings.speed > 0, FALSE);
  replay_init (r, session, opts, result);
  if (argv == NULL || argv[0] == NULL)
    argv = session_get_command (session);
  if (argv == NULL || argv[0] == NULL)
    {
      result->verdict.kind = VERDICT_COULD_NOT_START;
      result->verdict.detail = g_strdup ("no command to run (none given, none recorded)");
      ok = TRUE;
      goto out;
    }
  if (g_cancellable_set_error_if_cancelled (opts->cancellable, &r->error)
      || !replay_prepare (r, &server, &display, &r->error)
      || (opts->crashtrace != NULL
          && !replay_wrap_crashtrace (r, &argv, &wrapped, &frames_path, &r->error))
      /* A signal taken while the server and the sandbox started: the
       * app is not started only to be stopped. */
      || !proc_check_interrupt (&r->error))
    {
      if (!g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        result->verdict.detail = g_strdup (r->error->message);
      ok = FALSE;
      goto out;
    }

  ok = replay_drive (r, display, argv);
  if (r->windows != NULL)
    result->app_classes = windows_get_classes (r->windows);
  if (opts->on_end != NULL && r->conn != NULL && !xconn_is_dead (r->conn))
    opts->on_end (r->dpy, result, opts->hook_data);
  if (r->t_first_window != 0)
    {
      gint64 end = r->t_end_actions != 0 ? r->t_end_actions : note_now_ms ();
      result->replay_ms = end - r->t_first_window;
      if (r->t_end_actions != 0)
        result->settle_ms = note_now_ms () - r->t_end_actions;
    }
  replay_cleanup (r);
  if (ok)
    result->stderr_matched = replay_stderr_matches (result, opts->stderr_match);
  g_clear_pointer (&server, xserver_free);
  if (frames_path != NULL)
    replay_take_frames (result, frames_path);

out:
  if (!ok)
    {
      result->verdict.kind = VERDICT_INFRA_ERROR;
      g_propagate_error (error, g_steal_pointer (&r->error));
    }
  g_clear_pointer (&server, xserver_free);
  g_clear_pointer (&r->frames_dir, proc_tempdir_free);
  replay_clear (r);
  result->total_ms = note_now_ms () - t_start;
  return ok;
}
