/* send.c — an action on the wire: the focus and the pointer first, as a
 * person's key or click would have them, then the key, button or motion
 * through XTest, or the drop from the other app (outside.h). Start
 * reading at replay_send(), which replay_step() calls once the action's
 * window is there (aim.c) and pacing said it goes.
 *
 * A double (or triple) click as recorded goes at once instead
 * (replay_send_run(), pace_click_run()): its events in one write, each
 * with XTest's delay after the one before, so that the X server spaces
 * them by its own clock and stamps each as it makes it. A replay that
 * waits for a core between the clicks (a loaded machine: GTK's 400 ms
 * are soon gone) then cannot pull them apart into two clicks, as it
 * could when each went at a timer of its own.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include <X11/Xlib.h>

/* A pointer action (@ev): the pointer to its place in @match's window
 * (or at its root position), then its button. */
static void
send_pointer (Replay *r, const SessionEvent *ev, const WindowsMatch *match)
{
  if (match != NULL)
    injector_motion (r->injector, match->x + ev->x, match->y + ev->y);
  else if (ev->has_pos && !ev->added)
    injector_motion (r->injector, ev->root_x, ev->root_y);
  if (ev->kind != SESSION_EVENT_MOTION)
    injector_button (r->injector, ev->button, ev->kind == SESSION_EVENT_BUTTON_PRESS);
}

/* Sends action @number (@ev) with XTest, into @match's window (or NULL:
 * at its root position): the focus and the pointer first, as a person's
 * key or click would have them. */
void
replay_send (Replay *r, guint number, const SessionEvent *ev, const WindowsMatch *match)
{
  gboolean matched = match != NULL;

  switch (ev->kind)
    {
    case SESSION_EVENT_DROP:
      {
        int x = matched ? match->x + ev->x : ev->root_x;
        int y = matched ? match->y + ev->y : ev->root_y;
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
          if (r->is_wm && windows_focus (r->windows, match))
            note_verbose (r, "focus to 0x%lx for a key", match->window);
          replay_point_into (r, ev, match);
        }
      injector_key (r->injector, ev);
      break;
    case SESSION_EVENT_BUTTON_PRESS:
    case SESSION_EVENT_BUTTON_RELEASE:
    case SESSION_EVENT_MOTION:
      if (matched && ev->kind == SESSION_EVENT_BUTTON_PRESS && r->is_wm
          && !match->override_redirect)
        {
          /* Click to focus, and raise, as the window managers of most
           * desktops do; the press then lands on it. */
          XRaiseWindow (r->dpy, match->frame);
          if (windows_focus (r->windows, match))
            note_verbose (r, "focus to 0x%lx for a click", match->window);
        }
      send_pointer (r, ev, match);
      break;
    default:
      g_assert_not_reached ();
    }
}

static const SessionEvent *
action (Replay *r, guint number)
{
  return session_get_event (r->session, g_array_index (r->actions, guint, number));
}

/* The server has made the run's events (the round trip waits for the
 * last): each is done as replay_step() does an action, its press sent
 * when the server was to make it (it made it then or later: a window
 * pace-rules.h counts from it is no longer than the app's), done now. */
static gboolean
on_run_made (gpointer user_data)
{
  Replay *r = user_data;
  gint64 at = r->run_sent_ms;
  const SessionEvent *ev = NULL;

  r->timer = 0;
  if (!xconn_sync (r->conn))
    {
      r->act (r, act_fail_x ());
      return G_SOURCE_REMOVE;
    }
  for (guint i = 0; i < r->run.n; i++)
    {
      ev = action (r, r->run_first + i);
      at += r->run.delay_ms[i];
      pace_injected (r, ev, at);
    }
  r->t_last_action = note_now_ms ();
  r->last_time_ms = ev->time_ms;
  /* Done by the server, or held by another client's grab (held.c). */
  r->act (r, held_check (r, ev, r->run_matched ? &r->run_match : NULL));
  return G_SOURCE_REMOVE;
}

/* Every event of the run is said (the verbose log, the report's
 * pictures) and readied (a paste's selection) before any is sent, and
 * then all are sent with no round trip between: a round trip waits for
 * the server to make the delayed events before it, and the rest would go
 * whenever the replay got a core again. The first takes the focus for
 * the run (its window is theirs: pace_click_run). The actions count as
 * replayed once sent: the server makes them whatever the replay does. */
void
replay_send_run (Replay *r, const WindowsMatch *match)
{
  guint total = 0;

  for (guint i = 0; i < r->run.n; i++)
    {
      note_step (r, r->next + i, action (r, r->next + i), match);
      outside_before_action (r->outside, r->next + i);
    }
  r->run_sent_ms = note_now_ms ();
  for (guint i = 0; i < r->run.n; i++)
    {
      const SessionEvent *ev = action (r, r->next + i);

      injector_delay (r->injector, r->run.delay_ms[i]);
      if (i == 0)
        replay_send (r, r->next, ev, match);
      else
        send_pointer (r, ev, match);
      replay_remember_pos (r, ev);
      total += r->run.delay_ms[i];
    }
  XFlush (r->dpy);
  note_verbose (r, "actions %u to %u: a multi-click as recorded, sent at once: the X server "
                "makes them %u ms apart in all", r->next + 1, r->next + r->run.n, total);
  r->run_first = r->next;
  r->run_matched = match != NULL;
  if (match != NULL)
    r->run_match = *match;
  r->next += r->run.n;
  r->result->n_replayed = r->next;
  r->timer = g_timeout_add (total, on_run_made, r);
}
