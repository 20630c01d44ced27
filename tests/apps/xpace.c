/* xpace.c — an app whose bugs depend on timing, for the pacing tests.
 *
 * One plain Xlib window, "Pace" (class XPace), 400x200 at +100+100, with
 * _NET_WM_PID and _NET_WM_PING, and three areas (window-relative):
 *
 *   field  20,20 200x30   a click (on release) makes the app work for
 *                         --busy MS, then it gives the field the keyboard
 *                         focus (XSetInputFocus), as toolkits do; until
 *                         then the focus is None and keys are lost. "go"
 *                         typed into the field, then Return: SIGSEGV.
 *   double 250,20 100x30  a double click (two presses less than 400 ms
 *                         apart, server time): SIGABRT. Each press makes
 *                         the app work for --busy MS first.
 *   hold   20,100 100x30  a press held 800 ms or more (server time): SIGFPE.
 *   race   250,100 100x30 a click makes the app work for --busy MS; a click
 *                         that came in meanwhile (queued when the work is
 *                         done): SIGBUS. A person who clicks twice quickly
 *                         wins this race; a replay that waits for the app
 *                         after each click never does.
 *   hover  150,150 100x30 a window of its own: the pointer entering it makes
 *                         the app work for --busy MS, then, if the pointer
 *                         is still in it (a menu that opens on hover), the
 *                         app is armed;
 *   fire   270,150 100x30 a press while armed: SIGILL. A replay that moves
 *                         the pointer on before the app has taken its
 *                         entering the hover window never arms it.
 *
 * So a replay that injects keys before the app has taken the click loses
 * them, and one that waits for the app after every event stretches a
 * double click and shortens a long press. --no-ping leaves _NET_WM_PING
 * out of WM_PROTOCOLS (an app that cannot be asked whether it has taken
 * an action: xterm, Xaw and Motif apps). --sleep makes the work a sleep
 * (an app that waits in its handler) instead of a busy loop.
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

static int busy_ms = 0;
static int sleepy = 0;

static int
inside (int x, int y, int ax, int ay, int w, int h)
{
  return x >= ax && x < ax + w && y >= ay && y < ay + h;
}

/* Work, as a toolkit does when it handles an event: the event loop is
 * busy, nothing else is read meanwhile. */
static void
work (void)
{
  struct timespec start, now;

  if (sleepy)
    {
      struct timespec nap = { busy_ms / 1000, (busy_ms % 1000) * 1000000L };

      while (nanosleep (&nap, &nap) != 0)
        ;
      return;
    }
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    clock_gettime (CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < busy_ms);
}

int
main (int argc, char **argv)
{
  Display *dpy;
  Window win, field, hover;
  Atom wm_protocols, protocols[2];
  long pid = (long) getpid ();
  char text[64] = "";
  Time last_double_press = 0, hold_press = 0;
  int ping = 1, armed = 0;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--busy") == 0 && i + 1 < argc)
      busy_ms = atoi (argv[++i]);
    else if (strcmp (argv[i], "--no-ping") == 0)
      ping = 0;
    else if (strcmp (argv[i], "--sleep") == 0)
      sleepy = 1;
    else
      {
        fprintf (stderr, "usage: xpace [--busy MS] [--no-ping] [--sleep]\n");
        return 2;
      }
  dpy = XOpenDisplay (NULL);
  if (dpy == NULL)
    {
      fprintf (stderr, "xpace: cannot open the display\n");
      return 1;
    }
  win = XCreateSimpleWindow (dpy, DefaultRootWindow (dpy), 100, 100, 400, 200, 0,
                             BlackPixel (dpy, 0), WhitePixel (dpy, 0));
  field = XCreateSimpleWindow (dpy, win, 20, 20, 200, 30, 1, BlackPixel (dpy, 0),
                               WhitePixel (dpy, 0));
  hover = XCreateSimpleWindow (dpy, win, 150, 150, 100, 30, 1, BlackPixel (dpy, 0),
                               WhitePixel (dpy, 0));
  XStoreName (dpy, win, "Pace");
  XSetClassHint (dpy, win, &(XClassHint) { .res_name = "xpace", .res_class = "XPace" });
  wm_protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  protocols[0] = XInternAtom (dpy, "WM_DELETE_WINDOW", False);
  protocols[1] = XInternAtom (dpy, "_NET_WM_PING", False);
  XSetWMProtocols (dpy, win, protocols, ping ? 2 : 1);
  XChangeProperty (dpy, win, XInternAtom (dpy, "_NET_WM_PID", False), XA_CARDINAL, 32,
                   PropModeReplace, (unsigned char *) &pid, 1);
  XSelectInput (dpy, win, ButtonPressMask | ButtonReleaseMask | KeyPressMask);
  XSelectInput (dpy, field, ButtonPressMask | ButtonReleaseMask | KeyPressMask);
  XSelectInput (dpy, hover, EnterWindowMask);
  XMapWindow (dpy, hover);
  XMapWindow (dpy, field);
  XMapWindow (dpy, win);
  XSetInputFocus (dpy, None, RevertToNone, CurrentTime);
  XFlush (dpy);

  for (;;)
    {
      XEvent ev;
      int x, y;

      XNextEvent (dpy, &ev);
      switch (ev.type)
        {
        case ButtonPress:
          x = ev.xbutton.window == field ? ev.xbutton.x + 20 : ev.xbutton.x;
          y = ev.xbutton.window == field ? ev.xbutton.y + 20 : ev.xbutton.y;
          if (inside (x, y, 250, 20, 100, 30))
            {
              if (last_double_press != 0 && ev.xbutton.time - last_double_press < 400)
                abort ();
              last_double_press = ev.xbutton.time;
              work ();
            }
          if (inside (x, y, 20, 100, 100, 30))
            hold_press = ev.xbutton.time;
          if (ev.xbutton.window == win && inside (x, y, 270, 150, 100, 30) && armed)
            raise (SIGILL);
          break;
        case EnterNotify:
          {
            Window root_ret, child_ret;
            int rx, ry, wx, wy;
            unsigned int mask;

            work ();
            if (XQueryPointer (dpy, hover, &root_ret, &child_ret, &rx, &ry, &wx, &wy, &mask)
                && wx >= 0 && wy >= 0 && wx < 100 && wy < 30)
              armed = 1;
          }
          break;
        case ButtonRelease:
          if (ev.xbutton.window == field)
            {
              work ();
              XSetInputFocus (dpy, field, RevertToParent, CurrentTime);
              XFlush (dpy);
            }
          else if (hold_press != 0 && ev.xbutton.time - hold_press >= 800)
            raise (SIGFPE);
          else if (inside (ev.xbutton.x, ev.xbutton.y, 250, 100, 100, 30))
            {
              XEvent queued;

              work ();
              XSync (dpy, False);
              if (XCheckTypedEvent (dpy, ButtonPress, &queued))
                raise (SIGBUS);
            }
          hold_press = 0;
          break;
        case KeyPress:
          if (ev.xkey.window == field)
            {
              KeySym sym = XLookupKeysym (&ev.xkey, 0);

              if (sym == XK_Return && strcmp (text, "go") == 0)
                raise (SIGSEGV);
              if (sym >= XK_a && sym <= XK_z && strlen (text) + 1 < sizeof text)
                {
                  size_t n = strlen (text);
                  text[n] = (char) ('a' + (sym - XK_a));
                  text[n + 1] = '\0';
                }
            }
          break;
        case ClientMessage:
          if (ev.xclient.message_type == wm_protocols
              && (Atom) ev.xclient.data.l[0] == protocols[1])
            {
              ev.xclient.window = DefaultRootWindow (dpy);
              XSendEvent (dpy, DefaultRootWindow (dpy), False,
                          SubstructureNotifyMask | SubstructureRedirectMask, &ev);
              XFlush (dpy);
            }
          else if (ev.xclient.message_type == wm_protocols)
            return 0;
          break;
        default:
          break;
        }
    }
}
