/* xthreads.c — a multi-threaded Xlib app whose worker thread crashes
 * (SIGSEGV), for the crash report tests (tests/x11/test-crashes.c): the
 * report must name the worker's frame with its file and line, not the
 * main thread's.
 *
 * One window "Threads" (class XThreads, 300x200 at +0+0): a click of
 * button 1 in its right half hands a job to the worker thread, which
 * crashes on it; a click in its left half and keys do nothing. Two more
 * threads sleep all along. It answers _NET_WM_PING.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

static int jobs[2];
volatile int *xthreads_nowhere;   /* never set: the crash */

__attribute__((noinline)) static void
worker_crash (int job)
{
  xthreads_nowhere[job] = job;
}

static void *
worker (void *data)
{
  char job;

  while (read (jobs[0], &job, 1) == 1)
    if (job == 'c')
      worker_crash (1);
  return NULL;
}

static void *
sleeper (void *data)
{
  for (;;)
    pause ();
  return NULL;
}

int
main (int argc, char **argv)
{
  Display *dpy = XOpenDisplay (NULL);
  XClassHint class = { "xthreads", "XThreads" };
  Atom protocols, ping;
  pthread_t threads[3];
  Window window;
  GC gc;

  if (dpy == NULL)
    {
      fprintf (stderr, "xthreads: cannot open the display\n");
      return 1;
    }
  if (pipe (jobs) != 0 || pthread_create (&threads[0], NULL, worker, NULL) != 0
      || pthread_create (&threads[1], NULL, sleeper, NULL) != 0
      || pthread_create (&threads[2], NULL, sleeper, NULL) != 0)
    return 1;
  window = XCreateSimpleWindow (dpy, DefaultRootWindow (dpy), 0, 0, 300, 200, 0, 0,
                                WhitePixel (dpy, DefaultScreen (dpy)));
  XStoreName (dpy, window, "Threads");
  XSetClassHint (dpy, window, &class);
  protocols = XInternAtom (dpy, "WM_PROTOCOLS", False);
  ping = XInternAtom (dpy, "_NET_WM_PING", False);
  XSetWMProtocols (dpy, window, &ping, 1);
  XSelectInput (dpy, window, ExposureMask | ButtonPressMask | ButtonReleaseMask | KeyPressMask);
  gc = XCreateGC (dpy, window, 0, NULL);
  XMapWindow (dpy, window);
  for (;;)
    {
      XEvent ev;

      XNextEvent (dpy, &ev);
      switch (ev.type)
        {
        case Expose:
          XFillRectangle (dpy, window, gc, 150, 0, 150, 200);
          break;
        case ButtonRelease:
          if (ev.xbutton.button == 1 && ev.xbutton.x >= 150 && write (jobs[1], "c", 1) != 1)
            return 1;
          break;
        case ClientMessage:
          if (ev.xclient.message_type == protocols && (Atom) ev.xclient.data.l[0] == ping)
            {
              ev.xclient.window = DefaultRootWindow (dpy);
              XSendEvent (dpy, ev.xclient.window, False,
                          SubstructureNotifyMask | SubstructureRedirectMask, &ev);
              XFlush (dpy);
            }
          break;
        default:
          break;
        }
    }
}
