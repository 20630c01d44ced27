/* selection-fixture.h — an X11 test waits for a selection's owner.
 *
 * An app takes CLIPBOARD or PRIMARY when it has handled the copy that
 * xdotool sent it (xdotool returns before); the owner is server state,
 * asked for with a round trip each look until it is there.
 *
 * Header-only: each test program includes it once.
 */
#pragma once

#include <glib.h>
#include <X11/Xlib.h>

/* Until @selection has an owner (another than @not), within @timeout_ms;
 * the test fails if it has none by then. */
static inline void
test_wait_selection_owner (Display *dpy, const char *selection, Window not, int timeout_ms)
{
  Atom atom = XInternAtom (dpy, selection, False);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  Window owner;

  while ((owner = XGetSelectionOwner (dpy, atom)) == None || owner == not)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("%s got no owner within %d ms", selection, timeout_ms);
      g_usleep (10000);
    }
}
