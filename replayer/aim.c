/* aim.c — where an action goes: its window found among the app's (by
 * title, class and rank, or a stand-in once waited for), waited for when
 * it is not there yet (a dialog the last action opens), arranged as
 * recorded, and the pointer put into it for a key. Start reading at
 * replay_find_window().
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include <X11/Xlib.h>

/* "class\ntitle\nindex": the recorded identity of a window. */
static char *
identity_key (const SessionEvent *ev)
{
  return g_strdup_printf ("%s\n%s\n%d", ev->wm_class != NULL ? ev->wm_class : "",
                          ev->wm_name != NULL ? ev->wm_name : "", ev->window);
}

/* --window-wait is the app's own time: what the app (its threads, the X
 * server's, the bus's) waited for a core meanwhile makes the wait as
 * much longer, up to REPLAY_WAIT_STARVED_MAX times (the parallel
 * replays of a reduction, a busy CI: a dialog that took 0.3 s for the
 * user may take 3 s of the wall clock). Not when a window that may stand
 * in for it is there (its class at its index: a title that changed, a
 * page a reduction's candidate never loads): the action goes there when
 * the wait is over, not nowhere, and a browser starting on two cores
 * waits for a core all along (its own threads), which made the wait for
 * a title that never comes 6 s of every Firefox test. */
#define REPLAY_WAIT_STARVED_MAX 10

/* And once that wait is over, a window still missing is waited for on
 * while the app, the X server, the session bus or the window manager is
 * at work, up to REPLAY_WAIT_AT_WORK_MAX_MS more: the learnt wait
 * (xreduce's, a few times the latency its replays saw) is short, and a
 * run delay is counted only once a thread has had its core, so a dialog
 * still on its way under load (the app drawing it, a starved window
 * manager mapping it) came too late for it, and the candidate was
 * unresolved. A window that is not coming has nothing at work for it:
 * the wait is over once all of them are quiet at two looks and none of
 * their threads ran between. Not with a stand-in there (a browser is at
 * work all along). */
#define REPLAY_WAIT_AT_WORK_MAX_MS REPLAY_DEFAULT_WINDOW_WAIT_MS
#define REPLAY_WAIT_AT_WORK_LOOK_MS (REPLAY_QUIET_GLANCE_MS * 2)

static gboolean
wait_at_work (Replay *r)
{
  ProcTreeGlance glance;
  gint64 now = note_now_ms ();
  gboolean quiet, looked = r->wait_work_since != 0;

  if (r->wait_stand_in || (looked && now - r->wait_work_since >= REPLAY_WAIT_AT_WORK_MAX_MS)
      || !proctree_glance_ran (proc_child_get_pid (r->child), r->server_pid, &glance))
    return FALSE;
  proctree_glance_add_helper (r->bus_pid, &glance);
  if (r->wm != NULL)
    proctree_glance_add_helper (proc_child_get_pid (r->wm), &glance);
  quiet = glance.n_active == 0;
  if (looked && quiet && r->wait_work_quiet
      && (!glance.ran_read || glance.ran_ns == r->wait_work_ran_ns))
    return FALSE;
  if (!looked)
    r->wait_work_since = now;
  /* (At work: busy now, or something ran since a quiet look.) */
  if (!r->wait_work_noted && (!quiet || looked))
    {
      r->wait_work_noted = TRUE;
      note_verbose (r, "action %u: window not there after %u ms, but the app, the X server or "
                    "the window manager is at work: waited for while it is, up to %u ms more",
                    r->next + 1, r->opts->settings.window_wait_ms, REPLAY_WAIT_AT_WORK_MAX_MS);
    }
  r->wait_work_quiet = quiet;
  r->wait_work_ran_ns = glance.ran_ns;
  return TRUE;
}

static gboolean
on_wait_timeout (gpointer user_data)
{
  Replay *r = user_data;
  gint64 starved = settle_starvation_take (r, &r->wait_starvation);
  gint64 most = (gint64) r->opts->settings.window_wait_ms * (REPLAY_WAIT_STARVED_MAX - 1);

  r->wait_timer = 0;
  if (starved > 0 && !r->wait_stand_in && r->wait_extended < most)
    {
      starved = MIN (starved, most - r->wait_extended);
      r->wait_extended += starved;
      note_verbose (r, "action %u: the app waited %" G_GINT64_FORMAT " ms for a core: the "
                    "window wait is as much longer", r->next + 1, starved);
      r->wait_timer = g_timeout_add ((guint) starved, on_wait_timeout, r);
      return G_SOURCE_REMOVE;
    }
  if (wait_at_work (r))
    {
      r->wait_timer = g_timeout_add (REPLAY_WAIT_AT_WORK_LOOK_MS, on_wait_timeout, r);
      return G_SOURCE_REMOVE;
    }
  r->wait_over = TRUE;
  r->act (r, act_step ());
  return G_SOURCE_REMOVE;
}

/* Without a window manager the focus follows the pointer: a key aimed at
 * a window reaches it only with the pointer inside. Moves the pointer
 * there if it is not: to the recorded position if known, else the centre. */
void
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

void
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
void
replay_note_latency (Replay *r)
{
  gint64 latency;

  if (r->t_last_action == 0)
    return;
  latency = note_now_ms () - r->t_last_action;
  if (latency > r->result->window_latency_ms)
    r->result->window_latency_ms = latency;
}

/* The replay cannot do what the session says: action @number aims at a
 * window that did not come. Never replayed on another window instead
 * (the click on an open menu would land on the menu bar): the verdict is
 * unresolved, said in words and in the result. A crash before that, or
 * while waiting, was a crash. */
void
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
  r->act (r, act_finish (VERDICT_UNRESOLVED));
}

/* Is the window action @number aims at there? The same class and title
 * (at any rank), or an earlier stand-in for it, at once; else it is
 * waited for (a dialog the previous action opens), event-driven and
 * bounded. When the wait is over, only what stands for the same window
 * may take its place: the same class at the same index (a title that
 * changed), the main window for index 0. Fills @match. */
WindowState
replay_find_window (Replay *r, guint number, const SessionEvent *ev, WindowsMatch *match)
{
  g_autofree char *identity = identity_key (ev);
  /* A title that named the recording's folder, HOME, host or date names
   * the replay's (session-world.h): matched at once, not waited for. */
  g_autofree char *title = session_title_here (r->session, ev->wm_name, &r->here);
  gboolean exact, stand_in;
  gpointer found_before;

  windows_match (r->windows, ev->window, ev->wm_class, title, match);
  exact = match->kind == WINDOWS_MATCH_TITLE || match->kind == WINDOWS_MATCH_ALIAS;
  if (!exact && g_hash_table_lookup_extended (r->seen, identity, NULL, &found_before)
      && windows_still_mapped (r->windows, (Window) GPOINTER_TO_SIZE (found_before),
                               ev->wm_class))
    {
      /* The window this identity found earlier in this replay is still
       * there under another title: the app renamed it sooner than in the
       * recording (a browser's page loaded, a welcome page opened). It is
       * the same window, at once: waiting would not bring the old title
       * back, and it is not gone. */
      note_verbose (r, "action %u: window %d is there under another title, renamed sooner "
                    "than in the recording", number + 1, ev->window);
      windows_add_alias (r->windows, ev->wm_class, title,
                         (Window) GPOINTER_TO_SIZE (found_before));
      windows_match (r->windows, ev->window, ev->wm_class, title, match);
      exact = match->kind == WINDOWS_MATCH_TITLE || match->kind == WINDOWS_MATCH_ALIAS;
    }
  stand_in = match->kind == WINDOWS_MATCH_INDEX || match->kind == WINDOWS_MATCH_MAIN;
  if (!exact && !r->wait_over && !(stand_in && g_hash_table_contains (r->given_up, identity)))
    {
      /* (A window already waited for in vain, with a stand-in there, is
       * not waited for again: a candidate without the action that opens
       * it would wait at every action aimed at it.) */
      r->wait_stand_in = stand_in;
      if (!r->waiting)
        {
          r->waiting = TRUE;
          note_verbose (r, "action %u waits for window %d", number + 1, ev->window);
          settle_starvation_start (r, &r->wait_starvation);
          r->wait_extended = 0;
          r->wait_work_since = 0;
          r->wait_work_quiet = r->wait_work_noted = FALSE;
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
      g_hash_table_replace (r->seen, g_steal_pointer (&identity),
                            GSIZE_TO_POINTER ((gsize) match->window));
      return WINDOW_READY;
    }
  /* Found earlier, and that window is gone since (unmapped: see above). */
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
gboolean
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
gboolean
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
  r->act (r, act_next ());
  return TRUE;
}

gboolean
replay_aim (Replay *r, guint number, const SessionEvent *ev, WindowsMatch *match,
            gboolean *matched)
{
  gboolean came;

  /* A release xreduce added (so that nothing stays held) goes where the
   * X server sends it, to the window that holds the grab or the focus:
   * its press's window may be gone (a dialog the click closed), and no
   * release of ours is a reason to wait, or to stop unresolved. So does
   * a key's release: it goes to the focus, wherever its window is, and
   * the window as recorded is no reason to wait either (a browser whose
   * page loaded between the press of Return and its release has a new
   * title; the recording's, a slower page, did not). */
  if (g_hash_table_size (r->skipped) > 0 && replay_skip_gone (r, number, ev, FALSE))
    return FALSE;
  if (ev->window >= 0 && !ev->added && ev->kind != SESSION_EVENT_KEY_RELEASE)
    {
      switch (replay_find_window (r, number, ev, match))
        {
        case WINDOW_WAIT:
          return FALSE;
        case WINDOW_MISSING:
          replay_missing_window (r, number, ev);
          return FALSE;
        case WINDOW_GONE:
          if (replay_skip_gone (r, number, ev, TRUE))
            return FALSE;
          break;
        case WINDOW_READY:
        default:
          *matched = match->kind != WINDOWS_MATCH_NONE;
          break;
        }
    }
  came = r->waiting && !r->wait_over && *matched;
  r->waiting = r->wait_over = FALSE;
  if (came && r->result->pace == REPLAY_PACE_APP)
    {
      /* The window the action waited for came (a dialog the last action
       * opened): what the app has in flight now (the timer that arms the
       * dialog's OK) is waited for as after any action, within the
       * recorded gap. */
      r->act (r, pace_wait (r));
      return FALSE;
    }
  if (*matched && replay_arrange (r, ev, match))
    {
      if (!xconn_sync (r->conn))
        r->act (r, act_fail_x ());
      else
        r->act (r, pace_wait (r));
      return FALSE;
    }
  return TRUE;
}
