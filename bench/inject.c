/* inject.c — a synthetic user for bench-record.sh: injects N XTest events
 * at a fixed rate, all aimed at the point given (the demo app's window).
 *
 *   inject N RATE X Y
 *
 * Eight events in ten are pointer motion (between X,Y and X+1,Y+1, so
 * each is a real move), two are a Shift_L press or release: every event
 * is a user action the recorder must write. Paced on absolute deadlines
 * (clock_nanosleep), so a slow round trip does not slow the rate down.
 * Prints the number of events sent (N, plus the first move to X+1,Y+1,
 * which is a user action too) and the achieved rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

int
main (int argc, char **argv)
{
  Display *dpy;
  long n, rate;
  int x, y;
  KeyCode shift;
  struct timespec next, start, end;
  int shift_down = 0;
  long moves = 0;
  double secs;

  if (argc != 5)
    {
      fprintf (stderr, "usage: inject N RATE X Y\n");
      return 2;
    }
  n = atol (argv[1]);
  rate = atol (argv[2]);
  x = atoi (argv[3]);
  y = atoi (argv[4]);
  if (n <= 0 || rate <= 0 || (dpy = XOpenDisplay (NULL)) == NULL)
    {
      fprintf (stderr, "inject: bad arguments or no display\n");
      return 2;
    }
  shift = XKeysymToKeycode (dpy, XK_Shift_L);
  /* Start where the first motion is not a move. */
  XTestFakeMotionEvent (dpy, 0, x + 1, y + 1, CurrentTime);
  XSync (dpy, False);

  clock_gettime (CLOCK_MONOTONIC, &start);
  next = start;
  for (long i = 0; i < n; i++)
    {
      if (i % 10 == 4 || i % 10 == 9)
        {
          shift_down = !shift_down;
          XTestFakeKeyEvent (dpy, shift, shift_down, CurrentTime);
        }
      else
        {
          XTestFakeMotionEvent (dpy, 0, x + (int) (moves % 2), y + (int) (moves % 2),
                                CurrentTime);
          moves++;
        }
      XFlush (dpy);
      next.tv_nsec += 1000000000L / rate;
      while (next.tv_nsec >= 1000000000L)
        {
          next.tv_nsec -= 1000000000L;
          next.tv_sec++;
        }
      clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
  if (shift_down)
    fprintf (stderr, "inject: N leaves Shift_L down\n");
  XSync (dpy, False);
  clock_gettime (CLOCK_MONOTONIC, &end);
  secs = (double) (end.tv_sec - start.tv_sec) + (double) (end.tv_nsec - start.tv_nsec) / 1e9;
  printf ("%ld %.0f\n", n + 1, (double) n / secs);
  XCloseDisplay (dpy);
  return 0;
}
