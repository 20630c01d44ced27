/* held.c — input the X server holds back: a pointer action injected while
 * another client's grab froze the pointer.
 *
 * A window manager's click to focus is a passive grab of the buttons on
 * the app's windows in GrabModeSync: at the press the server gives the
 * press to the window manager and freezes the pointer until the window
 * manager lets it through (XAllowEvents, ReplayPointer). Until then the
 * server queues every pointer event, the replay's too, and the app gets
 * none of them: an app paced by quiet looks idle, one that answers
 * _NET_WM_PING answers at once, and the replay goes on. On a loaded
 * machine the window manager may wait long for a core: the drag's motion
 * and release then reach the app together with the press, before it has
 * opened its menu (an Athena menu pressed, dragged, released under
 * openbox or xfwm4, issue 33's flake), and the item is not chosen.
 *
 * So after each pointer action the replay asks the server where the
 * pointer is and which buttons are down (XQueryPointer: one round trip,
 * none to the app); a frozen pointer's state does not change. While the
 * state is still the one before the action, and not what the action
 * makes it, the action is held: the replay looks again every
 * REPLAY_QUIET_GLANCE_MS, up to --timeout. Once the server has let it
 * through, the app got the held events at once: the replay waits for the
 * app (its ping or its quiet) before the next action, whatever the next
 * one's timing (a drag keeps its speed only from a press the app has
 * seen), within the next one's window (pace-rules.h). A pointer action
 * never held costs the round trip; a key none.
 * Start reading at held_check(), which replay.c calls after each action.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#define BUTTON_BITS (Button1Mask | Button2Mask | Button3Mask | Button4Mask | Button5Mask)

static gboolean
query (Replay *r, HeldPointer *now)
{
  Window root, child;
  int wx, wy;

  return XQueryPointer (r->dpy, DefaultRootWindow (r->dpy), &root, &child, &now->x, &now->y,
                        &wx, &wy, &now->mask);
}

/* Is r->held_want not done, and nothing of it either (@now as before)? */
static gboolean
still_held (Replay *r, const HeldPointer *now)
{
  const HeldPointer *want = &r->held_want, *before = &r->held_before;
  gboolean moved = now->x != before->x || now->y != before->y;
  gboolean pressed = (now->mask & BUTTON_BITS) != (before->mask & BUTTON_BITS);
  gboolean pos_done = !r->held_want_pos || (now->x == want->x && now->y == want->y);
  gboolean buttons_done = (now->mask & r->held_want_bits) == (want->mask & r->held_want_bits);

  return !(pos_done && buttons_done) && !moved && !pressed;
}

static const SessionEvent *
action (Replay *r, guint number)
{
  if (number >= r->actions->len)
    return NULL;
  return session_get_event (r->session, g_array_index (r->actions, guint, number));
}

/* The server let the action through, or the wait is over: the app gets
 * what the server held at once. The next action is paced as always (its
 * window: a double click's gaps), but what would go without a wait for
 * the app (a drag's speed, a run of motion or keys) waits for it too. */
static Act
released (Replay *r, const char *how)
{
  Act act;

  note_verbose (r, "action %u: %s after %" G_GINT64_FORMAT " ms: waiting for the app", r->next,
                how, note_now_ms () - r->held_since);
  r->t_last_action = note_now_ms ();
  if (r->next >= r->actions->len)
    return act_next ();
  act = pace_next (r, action (r, r->next - 1), action (r, r->next), action (r, r->next + 1));
  return act.kind == ACT_INJECT ? pace_wait (r) : act;
}

static gboolean
on_held_glance (gpointer user_data)
{
  Replay *r = user_data;
  HeldPointer now;

  r->held_timer = 0;
  if (r->phase != PHASE_ACTING)
    return G_SOURCE_REMOVE;
  if (!query (r, &now))
    {
      r->act (r, act_fail_x ());
      return G_SOURCE_REMOVE;
    }
  if (!still_held (r, &now))
    {
      r->held_before = now;
      r->act (r, released (r, "the X server let it through"));
      return G_SOURCE_REMOVE;
    }
  if (note_now_ms () - r->held_since >= r->opts->settings.timeout_ms)
    {
      /* A pointer confined where the motion cannot go looks the same:
       * looked at no more. */
      r->held_given_up = TRUE;
      r->held_before = now;
      r->act (r, released (r, "the pointer is still where it was"));
      return G_SOURCE_REMOVE;
    }
  r->held_timer = g_timeout_add (REPLAY_QUIET_GLANCE_MS, on_held_glance, r);
  return G_SOURCE_REMOVE;
}

/* After action r->next - 1 (@ev, into @match's window or NULL) was
 * injected and synced: act_next() if the server has done it, else a wait
 * until it has (then a wait for the app). */
Act
held_check (Replay *r, const SessionEvent *ev, const WindowsMatch *match)
{
  HeldPointer now;
  gboolean button = ev->kind == SESSION_EVENT_BUTTON_PRESS
                    || ev->kind == SESSION_EVENT_BUTTON_RELEASE;
  gboolean known = r->held_known;

  if (r->held_given_up || r->phase != PHASE_ACTING)
    return act_next ();
  if (!button && ev->kind != SESSION_EVENT_MOTION)
    {
      /* A key (the pointer may have gone into its window): no round
       * trip for each typed key; the pointer action after it is not
       * looked at, its release is. */
      r->held_known = FALSE;
      return act_next ();
    }
  if (!query (r, &now))
    return act_fail_x ();
  r->held_known = TRUE;
  if (!known)
    {
      r->held_before = now;
      return act_next ();
    }
  r->held_want_pos = match != NULL || (ev->has_pos && !ev->added);
  r->held_want.x = match != NULL ? match->x + ev->x : ev->root_x;
  r->held_want.y = match != NULL ? match->y + ev->y : ev->root_y;
  /* Where the server can put it: within the screen. */
  r->held_want.x = CLAMP (r->held_want.x, 0, DisplayWidth (r->dpy, DefaultScreen (r->dpy)) - 1);
  r->held_want.y = CLAMP (r->held_want.y, 0, DisplayHeight (r->dpy, DefaultScreen (r->dpy)) - 1);
  /* Buttons 1 to 5 have a bit in the state; the others say nothing. */
  r->held_want_bits = button && ev->button >= 1 && ev->button <= 5
                        ? (unsigned int) Button1Mask << (ev->button - 1) : 0;
  r->held_want.mask = ev->kind == SESSION_EVENT_BUTTON_PRESS ? r->held_want_bits : 0;
  if (!still_held (r, &now))
    {
      r->held_before = now;
      return act_next ();
    }
  note_verbose (r, "action %u: the X server holds it (another client's grab froze the "
                "pointer: a window manager's click to focus)", r->next);
  r->held_since = note_now_ms ();
  r->held_timer = g_timeout_add (REPLAY_QUIET_GLANCE_MS, on_held_glance, r);
  return act_wait ();
}
