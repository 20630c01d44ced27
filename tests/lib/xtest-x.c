/* xtest-x.c — an X11 test watches windows come and go, and drives the
 * apps with xdotool (xtest-x.h). */
#include <poll.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <glib.h>
#include <X11/Xlib.h>

#include "xtest-x.h"

gboolean
test_x_named (Display *dpy, Window w, const char *title)
{
  char *name = NULL;
  gboolean match;

  if (!XFetchName (dpy, w, &name) || name == NULL)
    return FALSE;
  match = g_str_equal (name, title);
  XFree (name);
  return match;
}

Window
test_x_find_named (Display *dpy, Window w, const char *title, int depth)
{
  Window root, parent, *children = NULL, found = None;
  unsigned int n = 0;

  if (test_x_named (dpy, w, title))
    return w;
  if (depth == 0 || !XQueryTree (dpy, w, &root, &parent, &children, &n))
    return None;
  for (unsigned int i = 0; i < n && found == None; i++)
    found = test_x_find_named (dpy, children[i], title, depth - 1);
  if (children != NULL)
    XFree (children);
  return found;
}

Window
test_x_find_mapped (Display *dpy, const char *title, int depth)
{
  Window root = DefaultRootWindow (dpy), parent, *children = NULL, found = None;
  unsigned int n = 0;

  if (XQueryTree (dpy, root, &root, &parent, &children, &n))
    {
      for (unsigned int i = 0; i < n && found == None; i++)
        {
          XWindowAttributes attrs;

          if (XGetWindowAttributes (dpy, children[i], &attrs) && attrs.map_state == IsViewable)
            found = test_x_find_named (dpy, children[i], title, depth);
        }
      if (children != NULL)
        XFree (children);
    }
  return found;
}

void
test_x_next_event (Display *dpy, XEvent *ev, gint64 deadline, const char *waiting_for,
                   int timeout_ms, const GString *said)
{
  while (XPending (dpy) == 0)
    {
      struct pollfd pfd = { .fd = ConnectionNumber (dpy), .events = POLLIN };
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

      if (left <= 0 || poll (&pfd, 1, left) <= 0)
        g_error ("waited %d ms for %s in vain; xrecord said: %s", timeout_ms, waiting_for,
                 said != NULL ? said->str : "");
    }
  XNextEvent (dpy, ev);
}

void
test_x_drain (Display *dpy)
{
  XSync (dpy, False);
  while (XPending (dpy) > 0)
    {
      XEvent ev;
      XNextEvent (dpy, &ev);
    }
}

Window
test_x_wait_window (Display *dpy, const char *title, int depth, int timeout_ms,
                    const GString *said)
{
  Window root = DefaultRootWindow (dpy), found;
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  g_autofree char *what = g_strdup_printf ("a window \"%s\"", title);

  XSync (dpy, False);
  /* The tree again after each event: a window mapped before it had its
   * name is found once it has it. */
  while ((found = test_x_find_mapped (dpy, title, depth)) == None)
    {
      XEvent ev;

      test_x_next_event (dpy, &ev, deadline, what, timeout_ms, said);
      if (ev.type == MapNotify && ev.xmap.event == root)
        found = test_x_find_named (dpy, ev.xmap.window, title, depth);
      if (found != None)
        break;
    }
  return found;
}

void
test_x_wait_gone (Display *dpy, Window w, const char *title, int timeout_ms,
                  const GString *said)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  g_autofree char *what = g_strdup_printf ("\"%s\" to close", title);
  XWindowAttributes attrs;

  XSync (dpy, False);
  if (!XGetWindowAttributes (dpy, w, &attrs) || attrs.map_state != IsViewable)
    return;
  for (;;)
    {
      XEvent ev;

      test_x_next_event (dpy, &ev, deadline, what, timeout_ms, said);
      if ((ev.type == UnmapNotify && ev.xunmap.window == w)
          || (ev.type == DestroyNotify && ev.xdestroywindow.window == w))
        return;
    }
}

void
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

void
test_xdo (char **envp, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;
  va_list ap;

  g_ptr_array_add (argv, (char *) "xdotool");
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("xdotool failed: %s", err);
}

void
test_xdo_click_in (char **envp, Window w, int x, int y, const char *button)
{
  g_autofree char *id = g_strdup_printf ("%lu", w);
  g_autofree char *xs = g_strdup_printf ("%d", x);
  g_autofree char *ys = g_strdup_printf ("%d", y);

  if (button != NULL)
    test_xdo (envp, "mousemove", "--window", id, xs, ys, "click", button, NULL);
  else
    test_xdo (envp, "mousemove", "--window", id, xs, ys, NULL);
}

Display *
test_x_open (const char *display, XErrorHandler on_error)
{
  Display *dpy = XOpenDisplay (display);

  g_assert_nonnull (dpy);
  if (on_error != NULL)
    XSetErrorHandler (on_error);
  XSelectInput (dpy, DefaultRootWindow (dpy), SubstructureNotifyMask);
  return dpy;
}

char **
test_x_app_environ (const char *display)
{
  char **envp = g_environ_setenv (g_get_environ (), "DISPLAY", display, TRUE);

  return g_environ_setenv (envp, "NO_AT_BRIDGE", "1", TRUE);
}

int
test_x_error_but_bad_window (Display *dpy, XErrorEvent *ev)
{
  if (ev->error_code != BadWindow)
    g_error ("X error %d (request %d)", ev->error_code, ev->request_code);
  return 0;
}
