/* send.c — an action on the wire: the focus and the pointer first, as a
 * person's key or click would have them, then the key, button or motion
 * through XTest, or the drop from the other app (outside.h). Start
 * reading at replay_send(), which replay_step() calls once the action's
 * window is there (aim.c) and pacing said it goes.
 */
#define G_LOG_DOMAIN "xreduce-replayer"

#include "replay-private.h"

#include <X11/Xlib.h>

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
      if (matched)
        injector_motion (r->injector, match->x + ev->x, match->y + ev->y);
      else if (ev->has_pos && !ev->added)
        injector_motion (r->injector, ev->root_x, ev->root_y);
      if (ev->kind != SESSION_EVENT_MOTION)
        injector_button (r->injector, ev->button, ev->kind == SESSION_EVENT_BUTTON_PRESS);
      break;
    default:
      g_assert_not_reached ();
    }
}
