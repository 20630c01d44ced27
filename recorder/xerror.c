/* xerror.c — a forgiving X error handler and a trap (see xerror.h). */
#define G_LOG_DOMAIN "xreduce-recorder"

#include "xerror.h"

#include <glib.h>

/* Xlib's handler is process-wide, so the trap state is too: xrecord runs
 * one thread and traps one request at a time. */
static Display *trap_display;
static int trap_error;

static int
xerror_handler (Display *dpy, XErrorEvent *ev)
{
  if (dpy == trap_display)
    {
      if (trap_error == 0)
        trap_error = ev->error_code;
      return 0;
    }
  if (ev->error_code != BadWindow && ev->error_code != BadDrawable
      && ev->error_code != BadMatch)
    {
      char text[128];

      XGetErrorText (dpy, ev->error_code, text, sizeof text);
      g_debug ("X error ignored: %s (request %d.%d)", text, ev->request_code,
               ev->minor_code);
    }
  return 0;
}

void
xerror_install (void)
{
  XSetErrorHandler (xerror_handler);
}

void
xerror_trap_push (Display *dpy)
{
  XSync (dpy, False);
  trap_display = dpy;
  trap_error = 0;
}

int
xerror_trap_pop (Display *dpy)
{
  int error;

  XSync (dpy, False);
  error = trap_error;
  trap_display = NULL;
  trap_error = 0;
  return error;
}
