/* xslow.c — an app whose crash comes seconds after the action that
 * causes it, for the slow-crash test (tests/x11/test-faithful.c): it works
 * it out first, as an app deep in an unbounded recursion does.
 *
 * One plain Xlib window, "Slow" (class XSlow), 300x200 at +100+100, with
 * _NET_WM_PID and _NET_WM_PING. Keys typed into it are remembered; a
 * click after both x and y were typed makes it work (on the CPU, its
 * event loop stopped: no ping is answered meanwhile) for one unit plus
 * one for each other letter typed, four at most, then SIGSEGV: a unit is
 * a second, or the milliseconds of its argument (`xslow 200`). Work is
 * counted in the CPU time it gets, so on a loaded machine it takes
 * longer by the clock, as the recursion does. Without x and y a click
 * does nothing.
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CPU time spent, in ms. */
static long
cpu_ms (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return (long) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void
work (long ms)
{
  long start = cpu_ms ();
  volatile unsigned long sink = 0;

  while (cpu_ms () - start < ms)
    for (int i = 0; i < 100000; i++)
      sink += (unsigned long) i;
}

int
main (int argc, char **argv)
{
  Display *dpy = XOpenDisplay (NULL);
  long unit_ms = argc > 1 ? atol (argv[1]) : 1000;
  Window win;
  Atom wm_protocols, protocols[2];
  long pid = (long) getpid ();
  int typed[26] = { 0 };

  if (dpy == NULL)
    {
      fprintf (stderr, "xslow: cannot open the display\n");
      return 1;
    }
  if (unit_ms <= 0)
    {
      fprintf (stderr, "usage: xslow [UNIT_MS]\n");
      return 2;
    }
  win = XCreateSimpleWindow (dpy, DefaultRootWindow (dpy), 100, 100, 300, 200, 0,
                             BlackPixel (dpy, 0), WhitePixel (dpy, 0));
  XStoreName (dpy, win, "Slow");
  XSetClassHint (dpy, win, &(XClassHint) { .res_name = "xslow", .res_class = "XSlow" });
  wm_protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  protocols[0] = XInternAtom (dpy, "WM_DELETE_WINDOW", False);
  protocols[1] = XInternAtom (dpy, "_NET_WM_PING", False);
  XSetWMProtocols (dpy, win, protocols, 2);
  XChangeProperty (dpy, win, XInternAtom (dpy, "_NET_WM_PID", False), XA_CARDINAL, 32,
                   PropModeReplace, (unsigned char *) &pid, 1);
  XSelectInput (dpy, win, ButtonPressMask | KeyPressMask);
  XMapWindow (dpy, win);
  XFlush (dpy);
  for (;;)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
      if (ev.type == KeyPress)
        {
          KeySym sym = XLookupKeysym (&ev.xkey, 0);

          if (sym >= XK_a && sym <= XK_z)
            typed[sym - XK_a] = 1;
        }
      else if (ev.type == ButtonPress && typed['x' - 'a'] && typed['y' - 'a'])
        {
          int others = 0;

          for (int i = 0; i < 26; i++)
            others += typed[i] && i != 'x' - 'a' && i != 'y' - 'a';
          work (unit_ms * (1 + (others < 4 ? others : 4)));
          raise (SIGSEGV);
        }
      else if (ev.type == ClientMessage && ev.xclient.message_type == wm_protocols
               && (Atom) ev.xclient.data.l[0] == protocols[1])
        {
          ev.xclient.window = DefaultRootWindow (dpy);
          XSendEvent (dpy, ev.xclient.window, False,
                      SubstructureNotifyMask | SubstructureRedirectMask, &ev);
          XFlush (dpy);
        }
    }
}
