/* test-windows.c — whose a window is, and which window names it, as the
 * recorder and the replayer see it (xapp/): the X client that created a
 * window decides, not its _NET_WM_PID; an app reparenting its window into
 * a wrapper of its own keeps the wrapper's name, a window manager's frame
 * holds the app's named window.
 *
 * The test's own X connections play the app's toolkit and a window
 * manager. Synchronisation: xrecord and xreplay say when they record or
 * replay (their first lines), windows on MapNotify, and XSync makes the
 * server handle the test's requests before it goes on. No sleeps.
 *
 * Programs come from the environment: XRECORD, XREPLAY, XDEMO, XAW_CRASH. Start
 * reading at main().
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "session.h"
#include "xvfb-fixture.h"

#define WAIT_MS 20000

typedef struct
{
  TestXvfb xvfb;
  char *dir;
  GPid pid;                  /* xrecord or xreplay, 0: none */
  int err_fd;
  GString *err;              /* what it said */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dir = g_dir_make_tmp ("test-windows-XXXXXX", &error);
  g_assert_no_error (error);
  f->err = g_string_new (NULL);
  f->err_fd = -1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (f->pid > 0)
    {
      kill (f->pid, SIGKILL);
      waitpid (f->pid, NULL, 0);
    }
  if (f->err_fd >= 0)
    close (f->err_fd);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_string_free (f->err, TRUE);
}

/* Runs @argv with its stderr to f->err_fd. */
static void
spawn (Fixture *f, const char *const *argv)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                           NULL, NULL, &f->pid, NULL, NULL, &f->err_fd, &error));
  g_assert_no_error (error);
}

static void
wait_said (Fixture *f, const char *what)
{
  if (!test_read_until (f->err_fd, f->err, what, WAIT_MS))
    g_error ("no \"%s\" within %d ms; it said: %s", what, WAIT_MS, f->err->str);
}

static int
wait_exit (Fixture *f)
{
  int status = test_wait_said (&f->pid, f->err_fd, f->err, WAIT_MS);

  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A top-level of @dpy's client at the root, named (@class NULL: not). */
static Window
top (Display *dpy, int x, int y, const char *class, const char *title)
{
  Window w = XCreateSimpleWindow (dpy, DefaultRootWindow (dpy), x, y, 200, 150, 0, 0, 0);

  if (class != NULL)
    {
      XClassHint hint = { .res_name = (char *) "test", .res_class = (char *) class };

      XSetClassHint (dpy, w, &hint);
      XStoreName (dpy, w, title);
    }
  return w;
}

/* Waits for @w to be mapped (@dpy selects SubstructureNotify on the root). */
static void
wait_mapped (Display *dpy, Window w)
{
  XWindowAttributes attrs;

  XSync (dpy, False);
  for (;;)
    {
      XEvent ev;

      if (XGetWindowAttributes (dpy, w, &attrs) && attrs.map_state == IsViewable)
        return;
      XNextEvent (dpy, &ev);   /* blocks: the map is on its way */
    }
}

static void
click (Display *dpy, int x, int y)
{
  XTestFakeMotionEvent (dpy, 0, x, y, CurrentTime);
  XTestFakeButtonEvent (dpy, 1, True, CurrentTime);
  XTestFakeButtonEvent (dpy, 1, False, CurrentTime);
  XSync (dpy, False);
}

static const SessionEvent *
press_at (const Session *session, guint n)
{
  for (guint i = 0; i < session_get_n_events (session); i++)
    {
      const SessionEvent *ev = session_get_event (session, i);

      if (ev->kind == SESSION_EVENT_BUTTON_PRESS && n-- == 0)
        return ev;
    }
  g_error ("no press %u", n);
}

/* Tk's structure and a window manager's frame, recorded: the wrapper the
 * app reparents its own inner window into keeps its name (it was taken
 * for a window manager's frame, and named after the inner window: no
 * name); the frame another client puts the app's window into is named
 * after the app's window. */
static void
test_wrapper_and_frame (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "session.log", NULL);
  const char *const argv[] = { env ("XRECORD"), "--headless", "--stop-key", "Pause", "-o", log,
                               "--", env ("XDEMO"), "--bug", "none", NULL };
  g_autofree char *display = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (GError) error = NULL;
  Display *app, *wm;
  Window inner, wrapper, framed, frame;
  const SessionEvent *ev;
  const char *on;

  spawn (f, argv);
  wait_said (f, "xrecord: recording ");
  on = strstr (f->err->str, " on :");
  g_assert_nonnull (on);
  display = g_strndup (on + 4, strcspn (on + 4, "\n"));
  /* On xrecord's private server every client but its own is the app's:
   * these two connections too (xdemo's windows are above y = 600). */
  app = XOpenDisplay (display);
  wm = XOpenDisplay (display);
  g_assert_nonnull (app);
  g_assert_nonnull (wm);
  XSelectInput (app, DefaultRootWindow (app), SubstructureNotifyMask);

  /* Tk: the inner window at the root, then its wrapper, named; the inner
   * one reparented into it. */
  inner = top (app, 100, 700, NULL, NULL);
  wrapper = top (app, 100, 700, "Wrapped", "Wrapper");
  XReparentWindow (app, inner, wrapper, 0, 0);
  XMapWindow (app, inner);
  XMapWindow (app, wrapper);
  /* A window manager: the app's window, named, into a frame of its own. */
  framed = top (app, 500, 700, "Framed", "Framed");
  XSync (app, False);
  frame = XCreateSimpleWindow (wm, DefaultRootWindow (wm), 490, 680, 220, 180, 0, 0, 0);
  XReparentWindow (wm, framed, frame, 10, 20);
  XMapWindow (wm, framed);
  XMapWindow (wm, frame);
  XSync (wm, False);
  wait_mapped (app, wrapper);
  wait_mapped (app, frame);

  click (app, 150, 750);
  click (app, 560, 780);
  XTestFakeKeyEvent (app, XKeysymToKeycode (app, XK_Pause), True, CurrentTime);
  XTestFakeKeyEvent (app, XKeysymToKeycode (app, XK_Pause), False, CurrentTime);
  XCloseDisplay (wm);
  XCloseDisplay (app);
  g_assert_cmpint (wait_exit (f), ==, 0);

  session = session_load (log, &error);
  g_assert_no_error (error);
  ev = press_at (session, 0);
  g_assert_cmpstr (ev->wm_class, ==, "Wrapped");
  g_assert_cmpstr (ev->wm_name, ==, "Wrapper");
  g_assert_cmpint (ev->x, ==, 50);
  g_assert_cmpint (ev->y, ==, 50);
  ev = press_at (session, 1);
  g_assert_cmpstr (ev->wm_class, ==, "Framed");
  g_assert_cmpstr (ev->wm_name, ==, "Framed");
  g_assert_cmpint (ev->x, ==, 60);
  g_assert_cmpint (ev->y, ==, 80);
}

/* Titles as people read them, whatever their encoding: _NET_WM_NAME
 * (UTF-8) before WM_NAME, which a browser fills with COMPOUND_TEXT escapes;
 * a WM_NAME alone as ICCCM says: STRING is Latin-1, COMPOUND_TEXT in
 * any of its charsets (Xlib's Xutf8TextPropertyToTextList: Cyrillic in
 * ISO 8859-5 too), or segments of ASCII, Latin-1 and UTF-8. */
static void
test_titles (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "session.log", NULL);
  const char *const argv[] = { env ("XRECORD"), "--headless", "--stop-key", "Pause", "-o", log,
                               "--", env ("XDEMO"), "--bug", "none", NULL };
  static const char ct_firefox[] = "Gort! \x1b%G\xe2\x80\x94\x1b%@ Firefox";
  static const char utf8_firefox[] = "Gort! \xe2\x80\x94 Firefox";
  static const char latin1[] = "Caf\xe9 \xab" "1\xbb";
  static const char ct_alone[] = "A \x1b%G\xe2\x80\x94\x1b%@ B \x1b-A\xe9";
  /* "Печать" in ISO 8859-5, as COMPOUND_TEXT designates it (ESC - L). */
  static const char ct_cyrillic[] = "\x1b-L\xbf\xd5\xe7\xd0\xe2\xec";
  static const char *const want[] = { "Gort! \xe2\x80\x94 Firefox", "Caf\xc3\xa9 \xc2\xab" "1\xc2\xbb",
                                      "A \xe2\x80\x94 B \xc3\xa9", "Печать" };
  g_autofree char *display = NULL;
  g_autoptr (Session) session = NULL;
  g_autoptr (GError) error = NULL;
  Display *app;
  Atom compound, utf8, net_wm_name;
  Window w[4];
  const char *on;

  spawn (f, argv);
  wait_said (f, "xrecord: recording ");
  on = strstr (f->err->str, " on :");
  g_assert_nonnull (on);
  display = g_strndup (on + 4, strcspn (on + 4, "\n"));
  app = XOpenDisplay (display);
  g_assert_nonnull (app);
  XSelectInput (app, DefaultRootWindow (app), SubstructureNotifyMask);
  compound = XInternAtom (app, "COMPOUND_TEXT", False);
  utf8 = XInternAtom (app, "UTF8_STRING", False);
  net_wm_name = XInternAtom (app, "_NET_WM_NAME", False);
  for (int i = 0; i < 4; i++)
    w[i] = top (app, 100 + 250 * i, 700, "Titled", "");
  XChangeProperty (app, w[0], XA_WM_NAME, compound, 8, PropModeReplace,
                   (const guchar *) ct_firefox, sizeof ct_firefox - 1);
  XChangeProperty (app, w[0], net_wm_name, utf8, 8, PropModeReplace,
                   (const guchar *) utf8_firefox, sizeof utf8_firefox - 1);
  XChangeProperty (app, w[1], XA_WM_NAME, XA_STRING, 8, PropModeReplace,
                   (const guchar *) latin1, sizeof latin1 - 1);
  XChangeProperty (app, w[2], XA_WM_NAME, compound, 8, PropModeReplace,
                   (const guchar *) ct_alone, sizeof ct_alone - 1);
  XChangeProperty (app, w[3], XA_WM_NAME, compound, 8, PropModeReplace,
                   (const guchar *) ct_cyrillic, sizeof ct_cyrillic - 1);
  for (int i = 0; i < 4; i++)
    {
      XMapWindow (app, w[i]);
      wait_mapped (app, w[i]);
    }
  for (int i = 0; i < 4; i++)
    click (app, 150 + 250 * i, 750);
  XTestFakeKeyEvent (app, XKeysymToKeycode (app, XK_Pause), True, CurrentTime);
  XTestFakeKeyEvent (app, XKeysymToKeycode (app, XK_Pause), False, CurrentTime);
  XCloseDisplay (app);
  g_assert_cmpint (wait_exit (f), ==, 0);

  session = session_load (log, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      const SessionEvent *ev = press_at (session, i);

      g_assert_cmpstr (ev->wm_class, ==, "Titled");
      g_assert_cmpstr (ev->wm_name, ==, want[i]);
    }
}

/* On a shared display, a window another client maps while the app runs
 * is not the app's, named as the app's dialog would be and without
 * _NET_WM_PID to say whose it is: the server says. xreplay waits for the
 * app's own, which never comes (unresolved), and clicks nothing else. */
static void
test_replay_not_anothers (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (f->dir, "print.session", NULL);
  const char *const argv[] = { env ("XREPLAY"), "-v", "--display", f->xvfb.display,
                               "--window-wait", "3000", session, "--", env ("XDEMO"),
                               "--bug", "print", NULL };
  g_autoptr (GError) error = NULL;
  Display *other;
  Window fake;

  g_file_set_contents (session,
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"xdemo\"\n"
    "1000 ButtonPress button=1 state=0x0 root=844,249 pos=84,129 window=1 class=\"XDemo\" "
    "title=\"Print\"\n"
    "1100 ButtonRelease button=1 state=0x100 root=844,249 pos=84,129 window=1 class=\"XDemo\" "
    "title=\"Print\"\n", -1, &error);
  g_assert_no_error (error);
  other = XOpenDisplay (f->xvfb.display);
  g_assert_nonnull (other);
  XSelectInput (other, DefaultRootWindow (other), SubstructureNotifyMask);
  spawn (f, argv);
  /* Mapped after the app started: new, as the app's dialog would be. */
  wait_said (f, "xreplay: first window ");
  fake = top (other, 760, 120, "XDemo", "Print");
  XMapWindow (other, fake);
  wait_mapped (other, fake);
  g_assert_cmpint (wait_exit (f), ==, 5);
  g_assert_nonnull (strstr (f->err->str, "action 1: window 1 did not appear within 3000 ms: "
                                         "unresolved"));
  /* Never injected (xreplay -v says each action it injects). */
  g_assert_null (strstr (f->err->str, "[1/2]"));
  XCloseDisplay (other);
}

/* Reads f->err_fd until it holds @a or @b; which one. */
static const char *
wait_said_either (Fixture *f, const char *a, const char *b)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) WAIT_MS * 1000;

  for (;;)
    {
      struct pollfd pfd = { .fd = f->err_fd, .events = POLLIN };
      char buf[512];
      ssize_t n;
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

      if (strstr (f->err->str, a) != NULL)
        return a;
      if (strstr (f->err->str, b) != NULL)
        return b;
      if (left <= 0 || poll (&pfd, 1, left) <= 0)
        g_error ("neither \"%s\" nor \"%s\" within %d ms; it said: %s", a, b, WAIT_MS,
                 f->err->str);
      n = read (f->err_fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        g_error ("it ended before \"%s\" or \"%s\"; it said: %s", a, b, f->err->str);
      g_string_append_len (f->err, buf, n);
    }
}

/* A window manager's click to focus holds the pointer: a passive grab of
 * button 1 in GrabModeSync freezes it at the press until the window
 * manager lets the press through (ReplayPointer). The test's connection
 * is that window manager, on the root, and slow: it lets the press of
 * the Athena menu's drag through only once xreplay has gone on (said it
 * waits, or sent the release and looks for the dialog). Had xreplay sent
 * the drag's motion and release meanwhile, the server would give them to
 * the app with the press, before its menu is up: Settings... is never
 * chosen, and its Apply never crashes the app (unresolved). Waited for
 * until the server lets the press through, then for the app, the drag
 * chooses Settings... and Apply crashes it. */
static void
test_replay_held_pointer (Fixture *f, gconstpointer data)
{
  g_autofree char *session = g_build_filename (f->dir, "menu.session", NULL);
  const char *app = g_getenv ("XAW_CRASH");
  const char *const argv[] = { env ("XREPLAY"), "-v", "--display", f->xvfb.display, session,
                               "--", app, NULL };
  g_autoptr (GError) error = NULL;
  Display *wm;
  XEvent ev;

  if (app == NULL)
    {
      g_test_skip ("xaw-crash was not built: no libXaw (Debian: libxaw7-dev)");
      return;
    }
  g_file_set_contents (session,
    "xreduce-session 1\n"
    "screen 1280x1024\n"
    "command \"xaw-crash\"\n"
    "1000 ButtonPress button=1 state=0x0 root=20,16 pos=20,16 window=0 class=\"XawCrash\" "
    "title=\"Xaw crash test\"\n"
    "1030 MotionNotify state=0x100 root=47,73 pos=47,73 window=0 class=\"XawCrash\" "
    "title=\"Xaw crash test\"\n"
    "1040 ButtonRelease button=1 state=0x100 root=47,73 pos=47,73 window=0 class=\"XawCrash\" "
    "title=\"Xaw crash test\"\n"
    "1500 ButtonPress button=1 state=0x0 root=495,60 pos=75,60 window=1 class=\"XawCrash\" "
    "title=\"Settings\"\n"
    "1600 ButtonRelease button=1 state=0x100 root=495,60 pos=75,60 window=1 class=\"XawCrash\" "
    "title=\"Settings\"\n", -1, &error);
  g_assert_no_error (error);
  wm = XOpenDisplay (f->xvfb.display);
  g_assert_nonnull (wm);
  XGrabButton (wm, Button1, AnyModifier, DefaultRootWindow (wm), False, ButtonPressMask,
               GrabModeSync, GrabModeAsync, None, None);
  XSync (wm, False);
  spawn (f, argv);
  /* The press, ours until we let it through: the pointer is frozen. */
  do
    XNextEvent (wm, &ev);
  while (ev.type != ButtonPress);
  wait_said_either (f, "action 2: the X server holds it", "action 4");
  XAllowEvents (wm, ReplayPointer, CurrentTime);
  XUngrabButton (wm, Button1, AnyModifier, DefaultRootWindow (wm));
  XSync (wm, False);
  g_assert_cmpint (wait_exit (f), ==, 1);
  g_assert_nonnull (strstr (f->err->str, "action 2: the X server let it through"));
  XCloseDisplay (wm);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/windows/titles", test_titles);
  ADD ("/windows/wrapper-and-frame", test_wrapper_and_frame);
  ADD ("/windows/replay-not-anothers", test_replay_not_anothers);
  ADD ("/windows/replay-held-pointer", test_replay_held_pointer);
  return g_test_run ();
}
