/* test-toolkits.c — record, replay and reduce a crash in an app of each
 * toolkit: Tk (wish), GTK 3 (python3-gi), Qt 5 (python3-pyqt5) and Xaw.
 *
 * Each app (tests/apps/{tk,gtk,qt}-crash.*, xaw-crash.c) has the same
 * layout and crashes with SIGSEGV only after File > Settings... and a click
 * on Apply in the Settings dialog. Each case starts its own Xvfb, records
 * the app on it with `xrecord --display` (not --headless: the windows are
 * known by whose client made them, whatever the toolkit sets) while
 * xdotool drives it: that sequence buried among actions that do not
 * matter (typing into the entry, a click on Hello, File > About... and OK
 * in the About dialog, more typing). Then the recording must replay to the
 * crash 5 times of 5, and xreduce must keep exactly the essential actions
 * (the menu, the item, Apply), in words.
 *
 * Synchronisation: xrecord says when it records and the app has a
 * window; every menu, dialog and its closing is awaited on the X events of
 * the test's own connection (MapNotify, UnmapNotify, DestroyNotify on the
 * root), with the queue drained before the action that causes them. No
 * sleeps. A toolkit whose runtime is missing is skipped (TAP skip) with
 * the reason; scripts/bootstrap.sh installs them all.
 *
 * Programs come from the environment: XRECORD, XREPLAY, XREDUCE,
 * XREDUCE_SRCDIR, XAW_CRASH (when built). Start reading at test_toolkit().
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
#include <X11/Xutil.h>

#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-x.h"
#include "xtest-xvfb.h"

/* A bound on each wait for an event, never a pause: as long as xrecord
 * gives an app to map its first window (RECORDER_START_TIMEOUT_MS). A
 * Python app importing Qt or GTK under openbox, beside three such tests
 * and two busy loops on 2 cores, took more than 30 s. */
#define WAIT_MS 60000

typedef struct
{
  const char *name;          /* the test path's last part */
  const char *title;         /* the main window's */
  gboolean menu_by_drag;     /* Athena menus: press on File, release on the item */
  const char *file_x, *file_y; /* where File is pressed, in the main window: on
                              * the menu bar also at a tiling window manager's
                              * size (Athena's Form stretches its children) */
  /* The minimal session's actions, in words (xreduce keeps these): a
   * format, %1$d,%2$d the position of Settings... in its menu as recorded
   * (in the main window for a drag: the pointer is grabbed by the window
   * pressed on), which the menu's size decides (the toolkit's font). */
  const char *expected;
  /* Or NULL: the other minimal session the toolkit allows. GTK takes an
   * item on a release over it too, once its menu has been open a while
   * (a drag, not a click): whether the reduction finds that depends on
   * how long the recording's person took to reach the item. A recording
   * made on a loaded machine (the presses on File and on Settings... 508
   * ms apart) reduces to it, quiet or loaded, with or without the later
   * put-back of releases: its candidate without the release on File
   * crashes, 3 of 3. */
  const char *expected_drag;
} Toolkit;

/* The desktop the app is recorded on: no window manager, a stacking one
 * that decorates (openbox), a tiling one (i3). */
typedef struct
{
  const char *name;          /* the test path's first part */
  const char *wm;            /* the program, or NULL */
} Desktop;

typedef struct
{
  const Desktop *desktop;
  const Toolkit *toolkit;
  const char *replay_wm;     /* /toolkits/wm/: each toolkit replayed with --wm this */
} Case;

typedef struct
{
  TestXvfb xvfb;
  GPid wm;                   /* the window manager, or 0 */
  char *wm_command;          /* its command line, for xreplay --wm; or NULL */
  int dialog_x, dialog_y;    /* the Settings dialog on the root after the click */
  Display *dpy;              /* the test's own connection: the X events */
  char *dir, *log, *min;
  GPtrArray *app;            /* the app's command line, NULL-terminated */
  char **envp;               /* DISPLAY: the fixture's */
  GPid xrecord;
  int xrecord_err;
  GString *err;              /* what xrecord said */
  int item_x, item_y;        /* where Settings... was clicked (Toolkit.expected) */
} Fixture;

static gboolean
has_property (Display *dpy, Window w, Atom atom)
{
  Atom type = None;
  int format;
  unsigned long n, after;
  unsigned char *value = NULL;

  if (XGetWindowProperty (dpy, w, atom, 0, 1, False, AnyPropertyType, &type, &format, &n,
                          &after, &value) != Success)
    return FALSE;
  if (value != NULL)
    XFree (value);
  return type != None;
}

/* Waits until the window manager's event loop runs: it answers
 * _NET_REQUEST_FRAME_EXTENTS (both openbox and i3 do) by setting
 * _NET_FRAME_EXTENTS on a window of ours; a request that comes before
 * its loop runs is lost, as the app's MapRequest would be, so it is sent
 * again at each wait that ends without the answer. */
static void
wm_wait_loop (Fixture *f)
{
  XSetWindowAttributes attrs = { .event_mask = PropertyChangeMask };
  Window root = DefaultRootWindow (f->dpy);
  Window asked = XCreateWindow (f->dpy, root, -10, -10, 1, 1, 0, CopyFromParent, InputOnly,
                                CopyFromParent, CWEventMask, &attrs);
  Atom extents = XInternAtom (f->dpy, "_NET_FRAME_EXTENTS", False);
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  XEvent msg = { 0 }, ev;

  msg.xclient.type = ClientMessage;
  msg.xclient.window = asked;
  msg.xclient.message_type = XInternAtom (f->dpy, "_NET_REQUEST_FRAME_EXTENTS", False);
  msg.xclient.format = 32;
  for (gboolean answered = FALSE; !answered;)
    {
      struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };

      if (g_get_monotonic_time () > deadline)
        g_error ("the window manager did not answer _NET_REQUEST_FRAME_EXTENTS within %d ms",
                 WAIT_MS);
      XSendEvent (f->dpy, root, False, SubstructureRedirectMask | SubstructureNotifyMask, &msg);
      XSync (f->dpy, False);
      if (XPending (f->dpy) == 0)
        poll (&pfd, 1, 100);
      while (XCheckTypedWindowEvent (f->dpy, asked, PropertyNotify, &ev))
        answered |= ev.xproperty.atom == extents;
    }
  XDestroyWindow (f->dpy, asked);
}

/* Starts the window manager @wm on the fixture's display and waits until
 * it manages it: until it has set _NET_SUPPORTING_WM_CHECK on the root
 * (both openbox and i3 do, once they have taken SubstructureRedirect). */
static void
wm_start (Fixture *f, const char *wm)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) wm_envp = NULL;
  Window root = DefaultRootWindow (f->dpy);
  Atom check = XInternAtom (f->dpy, "_NET_SUPPORTING_WM_CHECK", False);
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;

  g_ptr_array_add (argv, g_strdup (wm));
  if (g_str_equal (wm, "i3"))
    {
      /* A configuration of its own, so that i3 starts no wizard, bar or
       * other program. */
      g_autofree char *config = g_build_filename (f->dir, "i3.config", NULL);

      g_assert_true (g_file_set_contents (config, "# i3 config file (v4)\n"
                                                  "font pango:monospace 8\n", -1, NULL));
      g_ptr_array_add (argv, g_strdup ("-c"));
      g_ptr_array_add (argv, g_steal_pointer (&config));
    }
  else if (g_str_equal (wm, "openbox"))
    {
      g_ptr_array_add (argv, g_strdup ("--sm-disable"));
    }
  g_ptr_array_add (argv, NULL);
  f->wm_command = g_strjoinv (" ", (char **) argv->pdata);
  XSelectInput (f->dpy, root, SubstructureNotifyMask | PropertyChangeMask);
  XSync (f->dpy, False);
  /* Its runtime files (i3's IPC socket and log) in the test's folder,
   * which goes with it, not in a /tmp/i3-USER.* of their own. */
  wm_envp = g_environ_setenv (g_strdupv (f->envp), "XDG_RUNTIME_DIR", f->dir, TRUE);
  if (!g_spawn_async (f->dir, (char **) argv->pdata, wm_envp,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                      | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, &f->wm, &error))
    g_error ("cannot start %s: %s", wm, error->message);
  while (!has_property (f->dpy, root, check))
    {
      XEvent ev;

      while (XPending (f->dpy) == 0)
        {
          struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };
          int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

          if (left <= 0 || poll (&pfd, 1, left) <= 0)
            g_error ("%s did not start managing the display within %d ms", wm, WAIT_MS);
        }
      XNextEvent (f->dpy, &ev);
    }
  wm_wait_loop (f);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  test_xvfb_start (&f->xvfb, "1280x1024");
  f->dpy = test_x_open (f->xvfb.display, test_x_error_but_bad_window);
  f->dir = test_make_tmp ("test-toolkits-XXXXXX");
  f->log = g_build_filename (f->dir, "session.log", NULL);
  f->min = g_build_filename (f->dir, "session.min", NULL);
  f->app = g_ptr_array_new_with_free_func (g_free);
  /* GTK without an accessibility bus, as xreplay's sandbox runs it. */
  f->envp = test_x_app_environ (f->xvfb.display);
  f->err = g_string_new (NULL);
  f->xrecord_err = -1;
  if (((const Case *) data)->desktop->wm != NULL)
    wm_start (f, ((const Case *) data)->desktop->wm);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_talking (&f->xrecord, &f->xrecord_err);
  test_kill_child (&f->wm);
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->log);
  g_free (f->min);
  g_free (f->wm_command);
  g_ptr_array_unref (f->app);
  g_strfreev (f->envp);
  g_string_free (f->err, TRUE);
}

/* ---- the apps ---- */

/* Does `/usr/bin/python3 -c CODE` succeed (the module is there)? */
static gboolean
python_has (Fixture *f, const char *code)
{
  const char *const argv[] = { "/usr/bin/python3", "-c", code, NULL };
  int status = -1;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  return g_spawn_sync (NULL, (char **) argv, f->envp,
                       G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                       NULL, NULL, &status, NULL)
         && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* Fills f->app with @tk's command line; FALSE (and why) if its runtime is
 * missing. */
static gboolean
app_command (Fixture *f, const Toolkit *tk, char **why)
{
  const char *srcdir = env ("XREDUCE_SRCDIR");

  if (g_str_equal (tk->name, "tk"))
    {
      g_autofree char *wish = g_find_program_in_path ("wish");

      if (wish == NULL)
        {
          *why = g_strdup ("no wish in PATH (Debian: tk)");
          return FALSE;
        }
      g_ptr_array_add (f->app, g_steal_pointer (&wish));
      g_ptr_array_add (f->app, g_build_filename (srcdir, "tests", "apps", "tk-crash.tcl", NULL));
    }
  else if (g_str_equal (tk->name, "gtk") || g_str_equal (tk->name, "qt"))
    {
      gboolean gtk = g_str_equal (tk->name, "gtk");

      if (gtk ? !python_has (f, "import gi; gi.require_version('Gtk', '3.0'); "
                                "from gi.repository import Gtk")
              : !python_has (f, "import PyQt5.QtWidgets"))
        {
          *why = g_strdup (gtk ? "/usr/bin/python3 cannot import GTK 3 "
                                 "(Debian: python3-gi, gir1.2-gtk-3.0)"
                               : "/usr/bin/python3 cannot import PyQt5 (Debian: python3-pyqt5)");
          return FALSE;
        }
      g_ptr_array_add (f->app, g_strdup ("/usr/bin/python3"));
      g_ptr_array_add (f->app, g_build_filename (srcdir, "tests", "apps",
                                                 gtk ? "gtk-crash.py" : "qt-crash.py", NULL));
    }
  else
    {
      const char *xaw = g_getenv ("XAW_CRASH");

      if (xaw == NULL)
        {
          *why = g_strdup ("xaw-crash was not built: no libXaw (Debian: libxaw7-dev)");
          return FALSE;
        }
      g_ptr_array_add (f->app, g_strdup (xaw));
    }
  g_ptr_array_add (f->app, NULL);
  return TRUE;
}

/* ---- xrecord ---- */

/* xrecord --display (the fixture's) -o LOG -- APP, until it records. */
static void
xrecord_start (Fixture *f)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) env ("XRECORD"));
  g_ptr_array_add (argv, (char *) "--display");
  g_ptr_array_add (argv, f->xvfb.display);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, f->log);
  g_ptr_array_add (argv, (char *) "--");
  for (guint i = 0; g_ptr_array_index (f->app, i) != NULL; i++)
    g_ptr_array_add (argv, g_ptr_array_index (f->app, i));
  g_ptr_array_add (argv, NULL);
  f->xrecord = test_spawn_talking (NULL, (const char *const *) argv->pdata, f->envp,
                                  &f->xrecord_err);
  test_wait_line (f->xrecord_err, f->err, "xrecord: recording ", WAIT_MS);
}

static int
xrecord_wait (Fixture *f)
{
  return test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
}

/* ---- the X events ---- */

static void
next_event (Fixture *f, XEvent *ev, gint64 deadline, const char *waiting_for)
{
  test_x_next_event (f->dpy, ev, deadline, waiting_for, WAIT_MS, f->err);
}

/* The app's window named @title in the root child @w, which it then
 * watches (StructureNotify: its unmapping, for wait_gone). */
static Window
app_window (Fixture *f, Window w, const char *title)
{
  Window found = test_x_find_named (f->dpy, w, title, 3);

  if (found != None)
    XSelectInput (f->dpy, found, StructureNotifyMask);
  return found;
}

/* Waits for a top-level named @title (NULL: any override-redirect one, a
 * menu) to be mapped, in a window manager's frame or not; returns the
 * app's window, its geometry in *@attrs. */
static Window
wait_map (Fixture *f, const char *title, XWindowAttributes *attrs)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  g_autofree char *what = g_strdup_printf ("a window %s%s%s", title ? "\"" : "(a menu)",
                                           title ? title : "", title ? "\"" : "");

  for (;;)
    {
      XEvent ev;
      Window w = None;

      next_event (f, &ev, deadline, what);
      if (ev.type != MapNotify || ev.xmap.event != DefaultRootWindow (f->dpy))
        continue;
      if (title == NULL)
        w = ev.xmap.override_redirect ? ev.xmap.window : None;
      else
        w = app_window (f, ev.xmap.window, title);
      if (w != None && XGetWindowAttributes (f->dpy, w, attrs))
        return w;
    }
}

/* The main window: already mapped (the recorder waits for the app's first
 * window), or soon. */
static Window
main_window (Fixture *f, const char *title)
{
  XWindowAttributes attrs;
  Window found;

  XSync (f->dpy, False);
  found = test_x_find_mapped (f->dpy, title, 3);
  if (found != None)
    XSelectInput (f->dpy, found, StructureNotifyMask);
  return found != None ? found : wait_map (f, title, &attrs);
}

static void
wait_gone (Fixture *f, Window w, const char *title)
{
  test_x_wait_gone (f->dpy, w, title, WAIT_MS, f->err);
}

/* ---- xdotool ---- */

static void
type_into (Fixture *f, Window w, const char *text)
{
  test_xdo_click_in (f->envp, w, 200, 135, "1");   /* the entry, under any toolkit's menu bar */
  test_xdo (f->envp, "type", "--delay", "30", text, NULL);
}

/* File > item @item (0: About..., 1: Settings...) of the menu bar of
 * @main, then waits for the dialog @title; returns it. Where the item was
 * clicked goes to f->item_x, f->item_y. */
static Window
choose (Fixture *f, const Toolkit *tk, Window main, int item, const char *title)
{
  g_autofree char *id = g_strdup_printf ("%lu", main);
  g_autofree char *x = NULL, *y = NULL;
  XWindowAttributes menu;
  Window dialog, child;
  int main_x, main_y;

  test_x_drain (f->dpy);
  if (tk->menu_by_drag)
    test_xdo (f->envp, "mousemove", "--window", id, tk->file_x, tk->file_y, "mousedown", "1", NULL);
  else
    test_xdo (f->envp, "mousemove", "--window", id, tk->file_x, tk->file_y, "click", "1", NULL);
  wait_map (f, NULL, &menu);
  /* Two entries of one height: the middle of the one asked for. */
  f->item_x = menu.width / 2;
  f->item_y = menu.height * (2 * item + 1) / 4;
  x = g_strdup_printf ("%d", menu.x + f->item_x);
  y = g_strdup_printf ("%d", menu.y + f->item_y);
  if (tk->menu_by_drag)
    {
      /* Recorded in the window pressed on. */
      g_assert_true (XTranslateCoordinates (f->dpy, main, DefaultRootWindow (f->dpy), 0, 0,
                                            &main_x, &main_y, &child));
      f->item_x += menu.x - main_x;
      f->item_y += menu.y - main_y;
    }
  if (tk->menu_by_drag)
    test_xdo (f->envp, "mousemove", x, y, "mouseup", "1", NULL);
  else
    test_xdo (f->envp, "mousemove", x, y, "click", "1", NULL);
  dialog = wait_map (f, title, &menu);
  return dialog;
}

/* ---- the case ---- */

static void
record (Fixture *f, const Toolkit *tk)
{
  g_autoptr (Session) session = NULL;
  g_autofree char *words = NULL;
  SessionOutcome outcome;
  Window main, about, settings;
  int status;

  xrecord_start (f);
  main = main_window (f, tk->title);
  /* What does not matter: typing, a click on Hello, the About dialog. */
  type_into (f, main, "hello");
  test_xdo_click_in (f->envp, main, 200, 250, "1");
  about = choose (f, tk, main, 0, "About");
  test_x_drain (f->dpy);
  test_xdo_click_in (f->envp, about, 150, 60, "1");
  wait_gone (f, about, "About");
  type_into (f, main, "world");
  /* What does: File > Settings..., Apply. */
  settings = choose (f, tk, main, 1, "Settings");
  test_xdo_click_in (f->envp, settings, 75, 60, "1");
  {
    Window child;

    /* (For the diagnosis of a failure: where it was just after.) */
    if (!XTranslateCoordinates (f->dpy, settings, DefaultRootWindow (f->dpy), 0, 0,
                                &f->dialog_x, &f->dialog_y, &child))
      f->dialog_x = f->dialog_y = -1;
  }

  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  session = session_load (f->log, NULL);
  g_assert_nonnull (session);
  outcome = session_get_outcome (session);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (outcome.signal, ==, SIGSEGV);
  words = test_actions_in_words (f->log);
  g_test_message ("recorded %u actions:\n%s", session_get_n_actions (session), words);
}

/* Runs PROGRAM ARGS... -- APP; returns its exit status and stdout. */
static int
run_with_app (Fixture *f, char **out, const char *program, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  /* xreduce's candidates and their verdicts in the test's log (a
   * minimal session other than the expected one is explained there). */
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "G_MESSAGES_DEBUG",
                                          "xreduce-reducer xreduce-dd", TRUE);
  int status = -1;

  g_ptr_array_add (argv, (char *) program);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, (char *) "--");
  for (guint i = 0; g_ptr_array_index (f->app, i) != NULL; i++)
    g_ptr_array_add (argv, g_ptr_array_index (f->app, i));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata,
                               g_str_equal (program, env ("XREDUCE")) ? envp : NULL,
                               G_SPAWN_DEFAULT, NULL, NULL, out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s said:\n%s%s", program, *out, err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

static void
test_toolkit (Fixture *f, gconstpointer data)
{
  const Toolkit *tk = ((const Case *) data)->toolkit;
  g_autofree char *why = NULL, *words = NULL, *expected = NULL;
  guint crashed = 0;

  if (!app_command (f, tk, &why))
    {
      g_test_skip (why);
      return;
    }
  record (f, tk);

  /* The recording crashes the app every time. */
  for (int i = 0; i < 5; i++)
    {
      const char *const args[] = { f->log, NULL };
      g_autofree char *out = NULL;

      if (run_with_app (f, &out, env ("XREPLAY"), args) == 1
          && g_str_has_prefix (out, "crashed with SIGSEGV"))
        crashed++;
    }
  g_test_message ("%s: the recording crashed the app in %u of 5 replays", tk->name, crashed);
  g_assert_cmpuint (crashed, ==, 5);

  /* And under the same window manager, with xreplay --wm. */
  if (f->wm_command != NULL)
    {
      const char *const args[] = { "--wm", f->wm_command, f->log, NULL };
      g_autofree char *out = NULL;

      g_assert_cmpint (run_with_app (f, &out, env ("XREPLAY"), args), ==, 1);
      g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
    }

  /* xreduce keeps exactly the menu, the item and Apply; on openbox's
   * recordings with openbox under every replay (xreduce --wm: each
   * replay's own Xvfb and window manager). */
  {
    gboolean with_wm = f->wm_command != NULL
                       && g_str_equal (((const Case *) data)->desktop->name, "openbox");
    const char *const args[] = { "--quiet", "--no-report", "-o", f->min, f->log, NULL };
    const char *const wm_args[] = { "--quiet", "--no-report", "--wm", f->wm_command, "-o",
                                    f->min, f->log, NULL };
    g_autofree char *out = NULL;

    g_assert_cmpint (run_with_app (f, &out, env ("XREDUCE"), with_wm ? wm_args : args), ==, 0);
  }
  words = test_actions_in_words (f->min);
  g_test_message ("%s: the minimal session:\n%s", tk->name, words);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  expected = g_strdup_printf (tk->expected, f->item_x, f->item_y);
  if (tk->expected_drag != NULL && !g_str_equal (words, expected))
    {
      g_autofree char *drag = g_strdup_printf (tk->expected_drag, f->item_x, f->item_y);

      if (g_str_equal (words, drag))
        {
          g_test_message ("%s: the drag from the menu to its item", tk->name);
          g_free (expected);
          expected = g_steal_pointer (&drag);
        }
    }
#pragma GCC diagnostic pop
  if (!g_str_equal (words, expected))
    {
      /* Where the windows were, as the recording has it (the CI log shows
       * stderr): a window that moved under the pointer, or a recorder
       * that missed a move. */
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;

      g_assert_true (g_file_get_contents (f->log, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      g_printerr ("Settings was at %d,%d on the root after the click; the recording's "
                  "windows and clicks:\n", f->dialog_x, f->dialog_y);
      for (guint i = 0; lines[i] != NULL; i++)
        if (strstr (lines[i], "ConfigureNotify") != NULL || strstr (lines[i], "ReparentNotify") != NULL
            || strstr (lines[i], "MapNotify") != NULL || strstr (lines[i], "Button") != NULL)
          g_printerr ("  %s\n", lines[i]);
    }
  g_assert_cmpstr (words, ==, expected);
}

/* The session with its Apply click where Apply is only once the Settings
 * dialog has twice its size (Athena's Form stretches its children with
 * the dialog), as a tiling window manager would have made it: @sized
 * says so (size=600x240), else the session does not say the size. */
static char *
stretched_session (Fixture *f, gboolean sized)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  g_autofree char *path = g_build_filename (f->dir, sized ? "sized.log" : "unsized.log", NULL);
  guint changed = 0;

  g_assert_true (g_file_get_contents (f->log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GRegex) re = g_regex_new (" pos=75,60 window=([0-9]+) size=300x120 ", 0, 0, NULL);
      g_autofree char *line = NULL;

      if (strstr (lines[i], "title=\"Settings\"") != NULL && g_regex_match (re, lines[i], 0, NULL))
        {
          line = g_regex_replace (re, lines[i], -1, 0,
                                  sized ? " pos=150,120 window=\\1 size=600x240 "
                                        : " pos=150,120 window=\\1 ",
                                  0, NULL);
          changed++;
        }
      g_string_append (out, line != NULL ? line : lines[i]);
      if (lines[i + 1] != NULL)
        g_string_append_c (out, '\n');
    }
  g_assert_cmpuint (changed, >=, 2);
  g_assert_true (g_file_set_contents (path, out->str, -1, NULL));
  g_string_free (out, TRUE);
  return g_steal_pointer (&path);
}

/* A window's recorded size is given back at replay: the Apply click of a
 * dialog recorded at twice its size crashes the app only when the replay
 * gives the dialog that size (without size=, the click lands below the
 * dialog and the app lives). */
static void
test_resized (Fixture *f, gconstpointer data)
{
  const Toolkit *tk = ((const Case *) data)->toolkit;
  g_autofree char *why = NULL, *sized = NULL, *unsized = NULL;
  g_autofree char *out = NULL, *out2 = NULL;

  if (!app_command (f, tk, &why))
    {
      g_test_skip (why);
      return;
    }
  record (f, tk);
  sized = stretched_session (f, TRUE);
  unsized = stretched_session (f, FALSE);
  {
    const char *const args[] = { unsized, NULL };

    g_assert_cmpint (run_with_app (f, &out, env ("XREPLAY"), args), ==, 0);
  }
  {
    const char *const args[] = { sized, NULL };

    g_assert_cmpint (run_with_app (f, &out2, env ("XREPLAY"), args), ==, 1);
    g_assert_true (g_str_has_prefix (out2, "crashed with SIGSEGV"));
  }
}

/* ---- keyboards ---- */

/* What the keyboard tests type, as GTK's input method composes it. */
#define TYPED_TEXT "zäö@€é©ж"

/* A session as xrecord writes it on a German keyboard (setxkbmap de,
 * with Compose on the right Control key): z and y swapped, ä and ö on
 * their own keys, @ and € with AltGr, a dead acute, Compose o c for ©,
 * then a switch to a Russian group for ж: every keycode is the German
 * one, none means the same on the replay's US keyboard. */
static char *
german_session (Fixture *f)
{
  static const char *const keys[][3] = {
    /* keysym, keycode, state */
    { "z", "29", "0x0" }, { "adiaeresis", "48", "0x0" }, { "odiaeresis", "47", "0x0" },
    { "ISO_Level3_Shift", "108", "0x0" }, { "at", "24", "0x80" },
    { "EuroSign", "26", "0x80" }, { "ISO_Level3_Shift", "108", "0x80" },
    { "dead_acute", "21", "0x0" }, { "e", "26", "0x0" },
    { "Multi_key", "105", "0x0" }, { "o", "32", "0x0" }, { "c", "54", "0x0" },
    { "Cyrillic_zhe", "39", "0x2000" }, { "Return", "36", "0x2000" },
  };
  g_autofree char *path = g_build_filename (f->dir, "german.session", NULL);
  const char *window = "root=100,50 pos=100,50 window=0 size=400x100 "
                       "class=\"Gtk-type.py\" title=\"GTK type test\"";
  GString *s = g_string_new ("xreduce-session 1\nscreen 1280x1024\nkeymap \"de\"\n");
  guint t = 1000;

  g_string_append_printf (s, "%u ButtonPress button=1 state=0x0 %s\n", t += 20, window);
  g_string_append_printf (s, "%u ButtonRelease button=1 state=0x100 %s\n", t += 20, window);
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      /* AltGr is held from its first press to its second line, a release. */
      gboolean level3 = g_str_equal (keys[i][0], "ISO_Level3_Shift");
      gboolean release = level3 && g_str_equal (keys[i][2], "0x80");

      g_string_append_printf (s, "%u %s keysym=%s keycode=%s state=%s %s\n", t += 20,
                              release ? "KeyRelease" : "KeyPress", keys[i][0], keys[i][1],
                              keys[i][2], window);
      if (!level3)
        g_string_append_printf (s, "%u KeyRelease keysym=%s keycode=%s state=%s %s\n",
                                t += 20, keys[i][0], keys[i][1], keys[i][2], window);
    }
  g_assert_true (g_file_set_contents (path, s->str, -1, NULL));
  g_string_free (s, TRUE);
  return g_steal_pointer (&path);
}

/* Another keyboard layout: a session recorded on a German keyboard types
 * the same text on the replay's US one (the keysyms are what counts: each
 * that the replay's keyboard lacks gets a spare keycode), 5 times of 5;
 * and xdotool's typing of characters the keyboard lacks (it binds one
 * spare keycode to each in turn) is recorded with each key's release,
 * said in words as typed, and replayed to the same text. */
static void
test_keyboards (Fixture *f, gconstpointer data)
{
  g_autofree char *german = NULL, *out = NULL, *words = NULL;
  g_autofree char *srcdir_app = g_build_filename (env ("XREDUCE_SRCDIR"), "tests", "apps",
                                                  "gtk-type.py", NULL);
  guint crashed = 0;

  if (!python_has (f, "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"))
    {
      g_test_skip ("/usr/bin/python3 cannot import GTK 3 (Debian: python3-gi, gir1.2-gtk-3.0)");
      return;
    }
  g_ptr_array_add (f->app, g_strdup ("/usr/bin/python3"));
  g_ptr_array_add (f->app, g_strdup (srcdir_app));
  g_ptr_array_add (f->app, g_strdup (TYPED_TEXT));
  g_ptr_array_add (f->app, NULL);

  german = german_session (f);
  for (int i = 0; i < 5; i++)
    {
      const char *const args[] = { german, NULL };
      g_autofree char *said = NULL;

      if (run_with_app (f, &said, env ("XREPLAY"), args) == 1
          && g_str_has_prefix (said, "crashed with SIGSEGV"))
        crashed++;
    }
  g_test_message ("the German session crashed the app in %u of 5 replays", crashed);
  g_assert_cmpuint (crashed, ==, 5);

  /* Recorded: xdotool types what the US keyboard lacks. */
  {
    Window main;

    xrecord_start (f);
    main = main_window (f, "GTK type test");
    test_xdo_click_in (f->envp, main, 100, 50, "1");
    test_xdo (f->envp, "type", "--delay", "30", "zäö@€", NULL);
    test_xdo (f->envp, "key", "--delay", "30", "dead_acute", "e", "Multi_key", "o", "c", "Cyrillic_zhe",
         "Return", NULL);
    g_assert_true (WIFEXITED (xrecord_wait (f)));
  }
  {
    const char *const args[] = { "--list", f->log, NULL };

    /* (A UTF-8 terminal: GLib prints "?" for what the locale cannot say.) */
    g_setenv ("LC_ALL", "C.UTF-8", TRUE);
    g_assert_cmpint (run_with_app (f, &words, env ("XREPLAY"), args), ==, 0);
    g_assert_nonnull (strstr (words, "Type \"zäö@€\""));
  }
  {
    const char *const args[] = { f->log, NULL };

    g_assert_cmpint (run_with_app (f, &out, env ("XREPLAY"), args), ==, 1);
    g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
  }
}

/* Tk posts a menu on the press, and takes the item on the release (the
 * press on it is not needed); GTK and Qt open the menu on a click and
 * take the item on a click; Athena menus are pressed, dragged, released.
 * Everywhere, Apply acts on its release, which xreduce appends after the
 * last action kept. Tk names its menus by their path (#mb#file), GTK and
 * Qt by the program (Qt's WM_NAME is empty: its _NET_WM_NAME), Athena's
 * have no name. */
static const Toolkit toolkits[] = {
  { "tk", "Tk crash test", FALSE, "15", "10",
    "press button 1 at 15,10 in \"Tk crash test\"\n"
    "release button 1 at %1$d,%2$d in \"#mb#file\"\n"
    "press button 1 at 75,60 in \"Settings\"\n"
    "release button 1 at 75,60 in \"Settings\"\n" },
  { "gtk", "GTK crash test", FALSE, "15", "10",
    "press button 1 at 15,10 in \"GTK crash test\"\n"
    "release button 1 at 15,10 in \"GTK crash test\"\n"
    "press button 1 at %1$d,%2$d in \"gtk-crash.py\"\n"
    "release button 1 at %1$d,%2$d in \"gtk-crash.py\"\n"
    "press button 1 at 75,60 in \"Settings\"\n"
    "release button 1 at 75,60 in \"Settings\"\n",
    "press button 1 at 15,10 in \"GTK crash test\"\n"
    "release button 1 at %1$d,%2$d in \"gtk-crash.py\"\n"
    "press button 1 at 75,60 in \"Settings\"\n"
    "release button 1 at 75,60 in \"Settings\"\n" },
  { "qt", "Qt crash test", FALSE, "15", "10",
    "press button 1 at 15,10 in \"Qt crash test\"\n"
    "release button 1 at 15,10 in \"Qt crash test\"\n"
    "press button 1 at %1$d,%2$d in \"qt-crash.py\"\n"
    "release button 1 at %1$d,%2$d in \"qt-crash.py\"\n"
    "press button 1 at 75,60 in \"Settings\"\n"
    "release button 1 at 75,60 in \"Settings\"\n" },
  { "xaw", "Xaw crash test", TRUE, "20", "16",
    "press button 1 at 20,16 in \"Xaw crash test\"\n"
    "release button 1 at %1$d,%2$d in \"Xaw crash test\"\n"
    "press button 1 at 75,60 in \"Settings\"\n"
    "release button 1 at 75,60 in \"Settings\"\n" },
};

static const Desktop desktops[] = {
  { "none", NULL },
  { "openbox", "openbox" },
  { "i3", "i3" },
};

/* --wm with every window manager (issue #31): fluxbox, which never
 * answers _NET_REQUEST_FRAME_EXTENTS; icewm; xfwm4 with its compositor;
 * metacity, with its own: each toolkit's recording (on the bare Xvfb)
 * replays to its crash under it. */
static void
test_wm_replays (Fixture *f, gconstpointer data)
{
  const Case *c = data;
  g_auto (GStrv) words = g_strsplit (c->replay_wm, " ", -1);
  g_autofree char *wm = g_find_program_in_path (words[0]);
  guint n_run = 0;

  if (wm == NULL)
    {
      g_autofree char *why = g_strdup_printf ("%s is not installed", words[0]);
      g_test_skip (why);
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (toolkits); i++)
    {
      const Toolkit *tk = &toolkits[i];
      const char *const args[] = { "--wm", c->replay_wm, f->log, NULL };
      g_autofree char *why = NULL, *out = NULL;

      g_ptr_array_set_size (f->app, 0);
      if (!app_command (f, tk, &why))
        {
          g_test_message ("%s: skipped: %s", tk->name, why);
          continue;
        }
      g_string_truncate (f->err, 0);
      if (f->xrecord_err >= 0)
        close (f->xrecord_err);
      f->xrecord_err = -1;
      record (f, tk);
      g_assert_cmpint (run_with_app (f, &out, env ("XREPLAY"), args), ==, 1);
      g_assert_true (g_str_has_prefix (out, "crashed with SIGSEGV"));
      n_run++;
    }
  if (n_run == 0)
    g_test_skip ("no toolkit's runtime is installed");
}

int
main (int argc, char **argv)
{
  static Case cases[G_N_ELEMENTS (desktops)][G_N_ELEMENTS (toolkits)];

  g_test_init (&argc, &argv, NULL);
  for (guint d = 0; d < G_N_ELEMENTS (desktops); d++)
    for (guint i = 0; i < G_N_ELEMENTS (toolkits); i++)
      {
        g_autofree char *path = g_strdup_printf ("/toolkits/%s/%s", desktops[d].name,
                                                 toolkits[i].name);

        cases[d][i] = (Case) { &desktops[d], &toolkits[i], NULL };
        g_test_add (path, Fixture, &cases[d][i], fixture_setup, test_toolkit,
                    fixture_teardown);
      }
  {
    static const char *const wms[] = { "fluxbox", "icewm", "xfwm4 --compositor=on", "metacity" };
    static Case wm_cases[G_N_ELEMENTS (wms)];

    for (guint i = 0; i < G_N_ELEMENTS (wms); i++)
      {
        g_autofree char *first = g_strndup (wms[i], strcspn (wms[i], " "));
        g_autofree char *path = g_strdup_printf ("/toolkits/wm/%s", first);

        wm_cases[i] = (Case) { &desktops[0], NULL, wms[i] };
        g_test_add (path, Fixture, &wm_cases[i], fixture_setup, test_wm_replays,
                    fixture_teardown);
      }
  }
  /* Athena's Form stretches its children: the size decides where they are. */
  g_test_add ("/toolkits/keyboards/gtk", Fixture, &cases[0][1], fixture_setup, test_keyboards,
              fixture_teardown);
  g_test_add ("/toolkits/resized/xaw", Fixture, &cases[0][G_N_ELEMENTS (toolkits) - 1],
              fixture_setup, test_resized, fixture_teardown);
  return g_test_run ();
}
