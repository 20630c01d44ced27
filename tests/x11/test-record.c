/* test-record.c — xrecord end to end on the demo app.
 *
 * Each test case starts its own Xvfb (-displayfd), runs the real xrecord
 * on it with xdemo, drives xdemo from this process with XTest, and checks
 * the log with the sessions API. Synchronisation: xrecord prints one line
 * once it records and the app has a window; XSync makes the server handle
 * our XTest events before we go on; waits for windows are on MapNotify.
 * No sleeps.
 *
 * Programs come from the environment: XRECORD, XDEMO, XREPLAY (optional).
 * Start reading at main().
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "session.h"
#include "xtest-proc.h"
#include "xtest-session.h"
#include "xtest-x.h"
#include "xtest-xvfb.h"
#include "shard.h"
#include "signame.h"

#define WAIT_MS 20000

typedef struct
{
  TestXvfb xvfb;
  const char *display;     /* ":N", xvfb's */
  Display *dpy;            /* the test's own connection, for XTest */
  char *dir;
  char *log;
  GPid xrecord;
  int xrecord_err;         /* read end of xrecord's stderr */
  GString *err;            /* what xrecord said */
  int app_pid;
} Fixture;

/* ---- a private Xvfb (tests/lib/xtest-xvfb.h) ---- */

/* @disable: extensions the server leaves out, or NULL (the test's data). */
static void
xvfb_start (Fixture *f, const char *const *disable)
{
  test_xvfb_start_without (&f->xvfb, "1280x1024", disable);
  f->display = f->xvfb.display;
  f->dpy = XOpenDisplay (f->display);
  g_assert_nonnull (f->dpy);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  xvfb_start (f, data);
  f->dir = test_make_tmp ("test-record-XXXXXX");
  f->log = g_build_filename (f->dir, "session.log", NULL);
  f->err = g_string_new (NULL);
  f->xrecord_err = -1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  test_kill_talking (&f->xrecord, &f->xrecord_err);
  XCloseDisplay (f->dpy);
  test_xvfb_stop (&f->xvfb);
  test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->log);
  g_string_free (f->err, TRUE);
}

/* ---- xrecord ---- */

/* Reads xrecord's stderr until a line containing @what, or EOF. */
static gboolean
read_err_until (Fixture *f, const char *what)
{
  return test_read_until (f->xrecord_err, f->err, what, WAIT_MS);
}

/* Starts xrecord OPTIONS -- APP APP_ARGS (APP NULL: $XDEMO). */
static void
xrecord_spawn (Fixture *f, const char *const *options, const char *app,
               const char *const *app_args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) env ("XRECORD"));
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, f->log);
  for (const char *const *o = options; o != NULL && *o != NULL; o++)
    g_ptr_array_add (argv, (char *) *o);
  g_ptr_array_add (argv, "--");
  g_ptr_array_add (argv, (char *) (app != NULL ? app : env ("XDEMO")));
  for (const char *const *a = app_args; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  f->xrecord = test_spawn_talking (NULL, (const char *const *) argv->pdata, NULL,
                                  &f->xrecord_err);
}

/* Starts xrecord OPTIONS -- $XDEMO APP_ARGS and waits until it records. */
static void
xrecord_start (Fixture *f, const char *const *options, const char *const *app_args)
{
  const char *ready;

  xrecord_spawn (f, options, NULL, app_args);
  test_wait_line (f->xrecord_err, f->err, "xrecord: recording ", WAIT_MS);
  ready = strstr (f->err->str, "(pid ");
  g_assert_nonnull (ready);
  f->app_pid = atoi (ready + 5);
  g_assert_cmpint (f->app_pid, >, 0);
}

/* Waits for xrecord to exit; returns its wait status. */
static int
xrecord_wait (Fixture *f)
{
  return test_wait_said (&f->xrecord, f->xrecord_err, f->err, WAIT_MS);
}

/* Runs xrecord to completion; returns its exit status, its stderr in *err. */
static int
xrecord_run (const char *const *argv, const char *const *envp, char **err)
{
  int status = test_run_sync_status (argv, envp, G_SPAWN_DEFAULT, NULL, err);

  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* ---- driving the display ---- */

static void
move (Fixture *f, int x, int y)
{
  XTestFakeMotionEvent (f->dpy, 0, x, y, CurrentTime);
  XSync (f->dpy, False);
}

static void
click (Fixture *f, int x, int y)
{
  move (f, x, y);
  XTestFakeButtonEvent (f->dpy, 1, True, CurrentTime);
  XTestFakeButtonEvent (f->dpy, 1, False, CurrentTime);
  XSync (f->dpy, False);
}

static void
key (Fixture *f, KeySym sym, gboolean press)
{
  KeyCode code = XKeysymToKeycode (f->dpy, sym);

  g_assert_cmpint (code, !=, 0);
  XTestFakeKeyEvent (f->dpy, code, press, CurrentTime);
  XSync (f->dpy, False);
}

static void
tap (Fixture *f, KeySym modifier, KeySym sym)
{
  if (modifier != NoSymbol)
    key (f, modifier, True);
  key (f, sym, True);
  key (f, sym, False);
  if (modifier != NoSymbol)
    key (f, modifier, False);
}

/* Waits for a top-level window named @title to be mapped. */
static void
wait_for_window (Fixture *f, const char *title)
{
  XSelectInput (f->dpy, DefaultRootWindow (f->dpy), SubstructureNotifyMask);
  test_x_wait_window (f->dpy, title, 0, WAIT_MS, f->err);
}

/* ---- checking the log ---- */

static Session *
load_log (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  Session *session = session_load (f->log, &error);

  g_assert_no_error (error);
  return session;
}

static const SessionEvent *
action (const Session *session, guint i)
{
  g_autoptr (GArray) actions = session_get_actions (session);

  g_assert_cmpuint (i, <, actions->len);
  return session_get_event (session, g_array_index (actions, guint, i));
}

static void
check_key (const Session *session, guint i, SessionEventKind kind,
           const char *keysym, const char *title)
{
  const SessionEvent *ev = action (session, i);

  g_assert_cmpint (ev->kind, ==, kind);
  g_assert_cmpstr (ev->keysym, ==, keysym);
  g_assert_cmpstr (ev->wm_class, ==, "XDemo");
  g_assert_cmpstr (ev->wm_name, ==, title);
}

static void
check_pointer (const Session *session, guint i, SessionEventKind kind, int x, int y,
               int window, const char *title)
{
  const SessionEvent *ev = action (session, i);

  g_assert_cmpint (ev->kind, ==, kind);
  if (kind != SESSION_EVENT_MOTION)
    g_assert_cmpuint (ev->button, ==, 1);
  g_assert_true (ev->has_pos);
  g_assert_cmpint (ev->x, ==, x);
  g_assert_cmpint (ev->y, ==, y);
  g_assert_cmpint (ev->window, ==, window);
  g_assert_cmpstr (ev->wm_class, ==, "XDemo");
  g_assert_cmpstr (ev->wm_name, ==, title);
}

static gboolean
log_has_keysym (const Session *session, const char *keysym)
{
  g_autoptr (GArray) actions = session_get_actions (session);

  for (guint i = 0; i < actions->len; i++)
    {
      const SessionEvent *ev = session_get_event (session, g_array_index (actions, guint, i));

      if (ev->keysym != NULL && g_ascii_strcasecmp (ev->keysym, keysym) == 0)
        return TRUE;
    }
  return FALSE;
}

/* ---- the tests ---- */

/* The origin of the mapped top-level named @title, in root coordinates
 * (xdemo's layout is in tests/apps/xdemo.c: the main window at +100+100,
 * the Print dialog at +760+120 with its Print button at 40,112, 100x32). */
static void
window_origin (Fixture *f, const char *title, int *x, int *y)
{
  Window root = DefaultRootWindow (f->dpy), parent, child, *children = NULL;
  unsigned int n = 0;

  g_assert_true (XQueryTree (f->dpy, root, &root, &parent, &children, &n));
  for (unsigned int i = 0; i < n; i++)
    if (test_x_named (f->dpy, children[i], title))
      {
        XTranslateCoordinates (f->dpy, children[i], root, 0, 0, x, y, &child);
        XFree (children);
        return;
      }
  g_error ("no window \"%s\"", title);
}

/* xdemo APP_ARGS recorded on the fixture's display, crashed by a click
 * into the text field, "Hi", Alt+P and a click on Print; then replayed. */
static void
record_crash (Fixture *f, const char *const *app_args)
{
  const char *const options[] = { "--display", f->display, NULL };
  g_autoptr (Session) session = NULL;
  SessionOutcome outcome;
  struct stat st;
  int status, main_x, main_y, print_x, print_y;
  guint i = 0;

  /* A 0644 file at the log's path: the log is a new 0600 file. */
  g_assert_true (g_file_set_contents (f->log, "old", -1, NULL));
  g_assert_cmpint (g_chmod (f->log, 0644), ==, 0);
  xrecord_start (f, options, app_args);
  window_origin (f, "Editor", &main_x, &main_y);
  /* A click into the text field, "Hi", Alt+P, a click on Print. */
  click (f, main_x + 220, main_y + 56);
  tap (f, XK_Shift_L, XK_h);
  tap (f, NoSymbol, XK_i);
  tap (f, XK_Alt_L, XK_p);
  wait_for_window (f, "Print");
  window_origin (f, "Print", &print_x, &print_y);
  click (f, print_x + 90, print_y + 128);

  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpint (g_stat (f->log, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  session = load_log (f);
  outcome = session_get_outcome (session);
  g_assert_cmpint (outcome.kind, ==, SESSION_OUTCOME_CRASHED);
  g_assert_cmpint (outcome.signal, ==, SIGSEGV);
  /* xdemo asks for GLX only with --bug gl, at Print (the footer says
   * so: its replays start their servers with GLX, or without). */
  g_assert_cmpint (session_get_glx (session), ==,
                   app_args != NULL && g_strv_contains (app_args, "gl") ? SESSION_GLX_ASKED
                                                                       : SESSION_GLX_NOT_ASKED);
  g_assert_cmpuint (session_get_n_actions (session), ==, 16);
  check_pointer (session, i++, SESSION_EVENT_MOTION, 220, 56, 0, "Editor");
  check_pointer (session, i++, SESSION_EVENT_BUTTON_PRESS, 220, 56, 0, "Editor");
  check_pointer (session, i++, SESSION_EVENT_BUTTON_RELEASE, 220, 56, 0, "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_PRESS, "Shift_L", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_PRESS, "H", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_RELEASE, "H", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_RELEASE, "Shift_L", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_PRESS, "i", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_RELEASE, "i", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_PRESS, "Alt_L", "Editor");
  check_key (session, i, SESSION_EVENT_KEY_PRESS, "p", "Editor");
  g_assert_cmphex (action (session, i++)->state, ==, Mod1Mask);
  check_key (session, i++, SESSION_EVENT_KEY_RELEASE, "p", "Editor");
  check_key (session, i++, SESSION_EVENT_KEY_RELEASE, "Alt_L", "Editor");
  check_pointer (session, i++, SESSION_EVENT_MOTION, 90, 128, 1, "Print");
  check_pointer (session, i++, SESSION_EVENT_BUTTON_PRESS, 90, 128, 1, "Print");
  check_pointer (session, i, SESSION_EVENT_BUTTON_RELEASE, 90, 128, 1, "Print");
  g_assert_cmphex (action (session, i)->state, ==, Button1Mask);

  /* The log crashes the app again. */
  if (g_getenv ("XREPLAY") == NULL)
    {
      g_test_skip ("XREPLAY is not set: the replay is not checked");
      return;
    }
  {
    g_autoptr (GPtrArray) argv = g_ptr_array_new ();
    g_autofree char *err = NULL;

    g_ptr_array_add (argv, (char *) g_getenv ("XREPLAY"));
    g_ptr_array_add (argv, f->log);
    g_ptr_array_add (argv, "--");
    g_ptr_array_add (argv, (char *) env ("XDEMO"));
    for (const char *const *a = app_args; a != NULL && *a != NULL; a++)
      g_ptr_array_add (argv, (char *) *a);
    g_ptr_array_add (argv, NULL);
    g_assert_cmpint (xrecord_run ((const char *const *) argv->pdata, NULL, &err), ==, 1);
  }
}

static void
test_record_crash (Fixture *f, gconstpointer data)
{
  record_crash (f, NULL);
  g_assert_null (strstr (f->err->str, "warning"));
}

/* An app that asks for GLX (xdemo --bug gl, at Print, where it crashes
 * only if the server has GLX): the session says it asked, and its replay
 * starts where GLX is, and crashes. */
static void
test_record_glx (Fixture *f, gconstpointer data)
{
  const char *const app_args[] = { "--bug", "gl", NULL };
  record_crash (f, app_args);
}

/* An app that sets no _NET_WM_PID (Tk, Xaw, Motif): its windows are its
 * own all the same, by the pid of the X client that created them. */
static void
test_record_no_pid (Fixture *f, gconstpointer data)
{
  const char *const app_args[] = { "--no-pid", NULL };
  record_crash (f, app_args);
  g_assert_null (strstr (f->err->str, "warning"));
}

/* A server without X-Resource: xrecord says so once, and knows the app's
 * windows by their _NET_WM_PID, as before. */
static void
test_record_no_xres (Fixture *f, gconstpointer data)
{
  const char *warning = "has no X-Resource extension";
  const char *first;
  record_crash (f, NULL);
  first = strstr (f->err->str, warning);
  g_assert_nonnull (first);
  g_assert_null (strstr (first + 1, warning));
}

/* Without X-Resource and without _NET_WM_PID nobody can tell the app's
 * windows: nothing is recorded, and xrecord says so, naming the window
 * it saw, and exits 4. */
static void
test_record_no_xres_no_pid (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = { "--no-pid", "--bug", "none", NULL };
  g_autoptr (Session) session = NULL;
  int status, main_x, main_y;

  xrecord_spawn (f, options, NULL, app_args);
  wait_for_window (f, "Editor");
  window_origin (f, "Editor", &main_x, &main_y);
  click (f, main_x + 220, main_y + 56);
  tap (f, NoSymbol, XK_x);
  /* What the server did until now is still recorded. */
  kill (f->xrecord, SIGTERM);
  status = xrecord_wait (f);
  /* Ended by SIGTERM (128+15), saying what it saw all the same. */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (f->err->str, "has no X-Resource extension"));
  g_assert_nonnull (strstr (f->err->str, "xrecord: warning: no window of the app's was mapped "
                                         "during the recording: nothing of it was recorded\n"
                                         "xrecord: 1 window was mapped, none taken for the "
                                         "app's"));
  g_assert_nonnull (strstr (f->err->str, " \"Editor\" (XDemo)\n"));
  g_assert_null (strstr (f->err->str, "xrecord: recording"));
  session = load_log (f);
  g_assert_cmpuint (session_get_n_actions (session), ==, 0);
}

/* The app hands its window to a process that is not its own (as a
 * single-instance app asks the one already running): nothing of the app's
 * is recorded; xrecord names the window, its title quoted for the
 * terminal, and exits 4. */
static void
test_record_nothing_of_the_app (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = { "-c", "echo 'app: started' >&2; exec sleep 600", NULL };
  XSetWindowAttributes attrs = { .override_redirect = False };
  XClassHint class = { .res_name = "other", .res_class = "Other" };
  g_autoptr (Session) session = NULL;
  Window other;
  int status;

  xrecord_spawn (f, options, "/bin/sh", app_args);
  /* The app runs once the recording has started. */
  g_assert_true (read_err_until (f, "app: started"));
  other = XCreateWindow (f->dpy, DefaultRootWindow (f->dpy), 300, 200, 200, 100, 0,
                         CopyFromParent, InputOutput, CopyFromParent, 0, &attrs);
  XStoreName (f->dpy, other, "Not\x1b[31m the app");
  XSetClassHint (f->dpy, other, &class);
  XMapWindow (f->dpy, other);
  wait_for_window (f, "Not\x1b[31m the app");
  click (f, 350, 250);
  kill (f->xrecord, SIGTERM);
  status = xrecord_wait (f);
  /* Ended by SIGTERM (128+15), saying what it saw all the same. */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (f->err->str, "xrecord: warning: no window of the app's was mapped"));
  g_assert_nonnull (strstr (f->err->str, " \"Not\\x1b[31m the app\" (Other)\n"));
  g_assert_null (strchr (f->err->str, '\x1b'));
  g_assert_null (strstr (f->err->str, "X-Resource"));
  session = load_log (f);
  g_assert_cmpuint (session_get_n_actions (session), ==, 0);
}

static void
test_record_focus_elsewhere (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = { "--bug", "none", NULL };
  const KeySym secret[] = { XK_s, XK_e, XK_c, XK_r, XK_t };
  g_autoptr (Session) session = NULL;
  XSetWindowAttributes attrs = { .override_redirect = False };
  Window other;
  int status;

  xrecord_start (f, options, app_args);
  /* Another client's window, with the focus; the pointer over xdemo. */
  other = XCreateWindow (f->dpy, DefaultRootWindow (f->dpy), 900, 600, 200, 100, 0,
                         CopyFromParent, InputOutput, CopyFromParent, 0, &attrs);
  XStoreName (f->dpy, other, "Password");
  XMapWindow (f->dpy, other);
  wait_for_window (f, "Password");
  XSetInputFocus (f->dpy, other, RevertToPointerRoot, CurrentTime);
  move (f, 320, 156);
  for (guint i = 0; i < G_N_ELEMENTS (secret); i++)
    tap (f, NoSymbol, secret[i]);
  /* A click on the other window is not the app's either. */
  click (f, 950, 650);
  /* The focus back to PointerRoot: keys go to xdemo under the pointer. */
  XSetInputFocus (f->dpy, PointerRoot, RevertToPointerRoot, CurrentTime);
  move (f, 330, 160);
  tap (f, NoSymbol, XK_o);
  tap (f, NoSymbol, XK_k);
  XSync (f->dpy, False);

  /* SIGTERM: what the server recorded until now is still written. */
  kill (f->xrecord, SIGTERM);
  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 128 + SIGTERM);

  session = load_log (f);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_NONE);
  for (guint i = 0; i < G_N_ELEMENTS (secret); i++)
    g_assert_false (log_has_keysym (session, XKeysymToString (secret[i])));
  g_assert_true (log_has_keysym (session, "o"));
  g_assert_true (log_has_keysym (session, "k"));
  /* Motion to 320,156 and 330,160 over xdemo; no button (the click was
   * on the other window); o and k pressed and released. */
  g_assert_cmpuint (session_get_n_actions (session), ==, 6);
  for (guint i = 0; i < session_get_n_actions (session); i++)
    {
      const SessionEvent *ev = action (session, i);

      g_assert_cmpint (ev->kind, !=, SESSION_EVENT_BUTTON_PRESS);
      g_assert_cmpstr (ev->wm_name, ==, "Editor");
    }
  /* The app is gone. */
  g_assert_cmpint (kill (f->app_pid, 0), ==, -1);
}

static void
test_record_sigkill (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = { "--bug", "none", NULL };
  g_autoptr (Session) session = NULL;
  g_autofree char *victim = g_build_filename (f->dir, "victim", NULL);
  g_autofree char *text = NULL;
  struct stat st;
  gint64 deadline;

  /* A link at the log's path: replaced by the log, not followed. */
  g_assert_true (g_file_set_contents (victim, "victim", -1, NULL));
  g_assert_cmpint (symlink (victim, f->log), ==, 0);
  xrecord_start (f, options, app_args);
  for (int i = 0; i < 50; i++)
    {
      move (f, 200 + i, 200 + i);
      tap (f, i % 2 ? XK_Shift_L : NoSymbol, XK_a + i % 26);
    }
  kill (f->xrecord, SIGKILL);
  waitpid (f->xrecord, NULL, 0);
  f->xrecord = 0;

  g_assert_cmpint (lstat (f->log, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (victim, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "victim");
  /* Every line written so far is a valid line. */
  session = load_log (f);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_UNKNOWN);
  g_test_message ("%u actions written before SIGKILL", session_get_n_actions (session));
  /* xdemo dies with its recorder (PR_SET_PDEATHSIG). */
  deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  while (kill (f->app_pid, 0) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (10000);   /* waiting for init to reap an orphan: nothing to sync on */
  g_assert_cmpint (kill (f->app_pid, 0), ==, -1);
}

/* xdotool types a character the keyboard lacks by binding a spare
 * keycode to it (ChangeKeyboardMapping), pressing it, and giving the key
 * back. The server's map changes again before a recorder behind the
 * stream reads the key: the recording must still say what the key
 * produced then. Here xrecord is stopped (SIGSTOP, waited for) while two
 * characters are typed through one spare key; it reads them all after. */
static void
test_record_rebound_key (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = { "--bug", "none", NULL };
  const KeySym typed[] = { XK_adiaeresis, XK_odiaeresis };
  g_autoptr (Session) session = NULL;
  KeySym *map, none = NoSymbol;
  Display *typist;
  int min, max, per, spare = 0, status;

  xrecord_start (f, options, app_args);
  move (f, 320, 156);
  XDisplayKeycodes (f->dpy, &min, &max);
  map = XGetKeyboardMapping (f->dpy, (KeyCode) min, max - min + 1, &per);
  for (int kc = max; kc >= min && spare == 0; kc--)
    {
      gboolean unbound = TRUE;

      for (int i = 0; i < per; i++)
        unbound = unbound && map[(kc - min) * per + i] == NoSymbol;
      if (unbound)
        spare = kc;
    }
  XFree (map);
  g_assert_cmpint (spare, !=, 0);

  /* A client of its own, started after xrecord, as xdotool is. */
  typist = XOpenDisplay (f->display);
  g_assert_nonnull (typist);
  kill (f->xrecord, SIGSTOP);
  g_assert_cmpint (waitpid (f->xrecord, &status, WUNTRACED), ==, f->xrecord);
  g_assert_true (WIFSTOPPED (status));
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    {
      XChangeKeyboardMapping (typist, spare, 1, (KeySym *) &typed[i], 1);
      XTestFakeKeyEvent (typist, (unsigned int) spare, True, CurrentTime);
      XTestFakeKeyEvent (typist, (unsigned int) spare, False, CurrentTime);
    }
  XChangeKeyboardMapping (typist, spare, 1, &none, 1);
  XCloseDisplay (typist);
  kill (f->xrecord, SIGCONT);
  tap (f, NoSymbol, XK_o);

  kill (f->xrecord, SIGTERM);
  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 128 + SIGTERM);
  session = load_log (f);
  g_assert_true (log_has_keysym (session, "adiaeresis"));
  g_assert_true (log_has_keysym (session, "odiaeresis"));
  g_assert_true (log_has_keysym (session, "o"));
}

/* The display xrecord runs the app on, as its ready line names it. */
static char *
recorded_display (Fixture *f)
{
  const char *on = strstr (f->err->str, " on :");

  g_assert_nonnull (on);
  return g_strndup (on + 4, strcspn (on + 4, "\n"));
}

/* On @dpy (closed here): the pointer into the app, a tap of @sym, then
 * the stop key Pause; waits for xrecord to end well. */
static void
tap_then_stop (Fixture *f, Display *dpy, KeySym sym)
{
  int status;

  XTestFakeMotionEvent (dpy, 0, 300, 200, CurrentTime);
  XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, sym), True, CurrentTime);
  XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, sym), False, CurrentTime);
  XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, XK_Pause), True, CurrentTime);
  XTestFakeKeyEvent (dpy, XKeysymToKeycode (dpy, XK_Pause), False, CurrentTime);
  /* Closed before xrecord stops its server (XCloseDisplay syncs). */
  XCloseDisplay (dpy);
  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

static void
test_record_headless_stop_key (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--headless", "--screen", "1024x768",
                                  "--stop-key", "Pause", NULL };
  const char *const app_args[] = { "--bug", "none", NULL };
  g_autoptr (Session) session = NULL;
  g_autofree char *name = NULL;
  g_autofree char *environ_path = NULL, *app_env = NULL;
  gsize len = 0;
  Display *dpy;
  int width, height;

  /* As on a Wayland desktop: the app must still be an X11 client of
   * xrecord's server. */
  g_setenv ("WAYLAND_DISPLAY", "wayland-xreduce-test", TRUE);
  g_setenv ("GDK_BACKEND", "wayland", TRUE);
  xrecord_start (f, options, app_args);
  g_unsetenv ("WAYLAND_DISPLAY");
  g_unsetenv ("GDK_BACKEND");
  environ_path = g_strdup_printf ("/proc/%d/environ", f->app_pid);
  g_assert_true (g_file_get_contents (environ_path, &app_env, &len, NULL));
  {
    g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
    g_auto (GStrv) vars = NULL;

    for (gsize at = 0; at < len; at += strlen (app_env + at) + 1)
      g_strv_builder_add (builder, app_env + at);
    vars = g_strv_builder_end (builder);
    g_assert_null (g_environ_getenv (vars, "WAYLAND_DISPLAY"));
    g_assert_cmpstr (g_environ_getenv (vars, "GDK_BACKEND"), ==, "x11");
    g_assert_cmpstr (g_environ_getenv (vars, "QT_QPA_PLATFORM"), ==, "xcb");
    g_assert_cmpstr (g_environ_getenv (vars, "MOZ_ENABLE_WAYLAND"), ==, "0");
  }
  /* Drive xrecord's private Xvfb. */
  name = recorded_display (f);
  dpy = XOpenDisplay (name);
  g_assert_nonnull (dpy);
  tap_then_stop (f, dpy, XK_x);

  session = load_log (f);
  session_get_screen (session, &width, &height);
  g_assert_cmpint (width, ==, 1024);
  g_assert_cmpint (height, ==, 768);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_NONE);
  g_assert_true (log_has_keysym (session, "x"));
  g_assert_false (log_has_keysym (session, "Pause"));
  g_assert_cmpuint (session_get_n_actions (session), ==, 3);
}

/* The default on a desktop: a nested Xephyr window on $DISPLAY (here the
 * fixture's Xvfb) of the --screen size, the app inside it; the user works
 * in the Xephyr window. Xephyr goes with xrecord. */
static void
test_record_nested (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--screen", "800x600", "--stop-key", "Pause", NULL };
  const char *const app_args[] = { "--bug", "none", NULL };
  g_autoptr (Session) session = NULL;
  g_autofree char *name = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("DISPLAY"));
  g_autofree char *xephyr = g_find_program_in_path ("Xephyr");
  Display *dpy;
  int width, height;

  if (xephyr == NULL)
    {
      g_test_skip ("Xephyr is not installed (xserver-xephyr)");
      return;
    }
  g_setenv ("DISPLAY", f->display, TRUE);
  xrecord_start (f, options, app_args);
  if (saved != NULL)
    g_setenv ("DISPLAY", saved, TRUE);
  else
    g_unsetenv ("DISPLAY");

  /* The app is on the nested server, which is a client of ours. */
  name = recorded_display (f);
  g_assert_cmpstr (name, !=, f->display);
  dpy = XOpenDisplay (name);
  g_assert_nonnull (dpy);
  g_assert_cmpint (DisplayWidth (dpy, DefaultScreen (dpy)), ==, 800);
  g_assert_cmpint (DisplayHeight (dpy, DefaultScreen (dpy)), ==, 600);
  {
    Window root, parent, *children = NULL;
    unsigned int n = 0;
    gboolean nested_window = FALSE;

    /* Xephyr's window on the outer display, the size of its screen. */
    g_assert_true (XQueryTree (f->dpy, DefaultRootWindow (f->dpy), &root, &parent,
                               &children, &n));
    for (unsigned int i = 0; i < n; i++)
      {
        XWindowAttributes attrs;
        if (XGetWindowAttributes (f->dpy, children[i], &attrs)
            && attrs.map_state == IsViewable && attrs.width == 800 && attrs.height == 600)
          nested_window = TRUE;
      }
    XFree (children);
    g_assert_true (nested_window);
  }

  tap_then_stop (f, dpy, XK_y);

  session = load_log (f);
  session_get_screen (session, &width, &height);
  g_assert_cmpint (width, ==, 800);
  g_assert_cmpint (height, ==, 600);
  g_assert_true (log_has_keysym (session, "y"));
  g_assert_false (log_has_keysym (session, "Pause"));
  g_assert_cmpuint (session_get_n_actions (session), ==, 3);
  /* The nested server is gone with xrecord. */
  g_assert_null (XOpenDisplay (name));
}

static void
test_record_bad_input (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_auto (GStrv) no_display = g_environ_unsetenv (g_get_environ (), "DISPLAY");

  {
    const char *const argv[] = { env ("XRECORD"), "-o", "/nonexistent/dir/s.log",
                                 "--display", f->display, "--", env ("XDEMO"), NULL };
    g_assert_cmpint (xrecord_run (argv, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "/nonexistent/dir/s.log: cannot write"));
    g_clear_pointer (&err, g_free);
  }
  {
    const char *const argv[] = { env ("XRECORD"), "-o", f->log, "--display", f->display,
                                 "--", "/nonexistent/xdemo", NULL };
    /* 4, as xreplay and xreduce say an app that cannot start. */
    g_assert_cmpint (xrecord_run (argv, NULL, &err), ==, 4);
    g_assert_nonnull (strstr (err, "/nonexistent/xdemo: no such program"));
    g_clear_pointer (&err, g_free);
  }
  {
    const char *const argv[] = { env ("XRECORD"), "-o", f->log, "--", env ("XDEMO"), NULL };
    g_assert_cmpint (xrecord_run (argv, (const char *const *) no_display, &err), ==, 2);
    g_assert_nonnull (strstr (err, "DISPLAY is not set"));
    g_clear_pointer (&err, g_free);
  }
  {
    const char *const argv[] = { env ("XRECORD"), "-o", f->log, "--display", ":4093",
                                 "--", env ("XDEMO"), NULL };
    g_assert_cmpint (xrecord_run (argv, NULL, &err), ==, 3);
    g_assert_nonnull (strstr (err, "cannot open display :4093"));
    g_clear_pointer (&err, g_free);
  }
  {
    const char *const argv[] = { env ("XRECORD"), "--display", f->display, "--",
                                 env ("XDEMO"), NULL };
    g_assert_cmpint (xrecord_run (argv, NULL, &err), ==, 2);
    g_clear_pointer (&err, g_free);
  }
  {
    /* A variable that loads code, one that looks secret, a bad name:
     * never recorded, said before anything starts. */
    static const char *const names[][2] = {
      { "LD_PRELOAD", "LD_PRELOAD makes programs load code" },
      { "GITHUB_TOKEN", "GITHUB_TOKEN looks like a secret" },
      { "A\x1b[2J", "'A\\x1b[2J' is not a variable's name" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
      {
        const char *const argv[] = { env ("XRECORD"), "-o", f->log, "--display", f->display,
                                     "--record-env", names[i][0], "--", env ("XDEMO"), NULL };
        g_assert_cmpint (xrecord_run (argv, NULL, &err), ==, 2);
        g_assert_nonnull (strstr (err, names[i][1]));
        g_assert_null (strchr (err, '\x1b'));
        g_clear_pointer (&err, g_free);
      }
  }
  /* Nothing was written where nothing could be. */
  g_assert_false (g_file_test (f->log, G_FILE_TEST_EXISTS));
}

/* ---- on a desktop whose window manager holds the server ---- */

/* twm on the fixture's display, once it manages it (it holds
 * SubstructureRedirect: the root's all-event mask says so, checked at
 * each event twm's start makes); FALSE (the test skips) without twm or
 * xterm. The root's MapNotify events stay selected. */
static gboolean
twm_start (Fixture *f, GPid *twm)
{
  const char *const argv[] = { "twm", NULL };
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "DISPLAY", f->display, TRUE);
  g_autofree char *twm_path = g_find_program_in_path ("twm");
  g_autofree char *xterm_path = g_find_program_in_path ("xterm");
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  Window root = DefaultRootWindow (f->dpy);
  XWindowAttributes attrs;

  if (twm_path == NULL || xterm_path == NULL)
    {
      g_test_skip ("no twm or xterm in PATH (Debian: twm, xterm)");
      return FALSE;
    }
  XSelectInput (f->dpy, root, SubstructureNotifyMask);
  XSync (f->dpy, False);
  *twm = test_spawn_quiet (NULL, (const char *const *) argv, envp, G_SPAWN_SEARCH_PATH);
  while (XGetWindowAttributes (f->dpy, root, &attrs)
         && !(attrs.all_event_masks & SubstructureRedirectMask))
    {
      struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);

      if (XPending (f->dpy) == 0 && (left <= 0 || poll (&pfd, 1, MIN (left, 50)) < 0))
        g_error ("twm did not manage the display within %d ms", WAIT_MS);
      while (XPending (f->dpy) > 0)
        {
          XEvent ev;
          XNextEvent (f->dpy, &ev);
        }
    }
  test_wait_idle (*twm, WAIT_MS);
  return TRUE;
}

static void
twm_stop (GPid twm)
{
  kill (twm, SIGKILL);
  waitpid (twm, NULL, 0);
}

/* twm lets the user place a new window without a position (xterm's) and
 * grabs the server meanwhile: the app's window is never mapped. xrecord
 * says so after --start-timeout and names what it saw; its log ends. */
static void
test_record_never_mapped (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, "--start-timeout", "1500", NULL };
  g_autoptr (Session) session = NULL;
  GPid twm;
  int status;

  if (!twm_start (f, &twm))
    return;
  xrecord_spawn (f, options, "xterm", NULL);
  status = xrecord_wait (f);
  twm_stop (twm);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 4);
  g_assert_nonnull (strstr (f->err->str, "no window of the app's was mapped within 1500 ms"));
  g_assert_nonnull (strstr (f->err->str, "the app created 1 top-level window that was never "
                                         "mapped: a window manager may be waiting for you "
                                         "to place it"));
  session = load_log (f);
  g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_NONE);
}

/* SIGINT, SIGTERM and SIGHUP end xrecord while twm holds the server and
 * the app's window waits to be placed: 128+N, the log with its end
 * line, nothing left running. The moment: twm maps its size window as
 * the placement starts (an event of the root, which reaches us even
 * while twm holds the server). */
static void
test_record_signal_while_placing (Fixture *f, gconstpointer data)
{
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };
  const char *const options[] = { "--display", f->display, NULL };
  GPid twm;

  test_become_subreaper ();
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autoptr (Session) session = NULL;
      gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000, sent;
      gboolean placing = FALSE;
      int status;

      if (!twm_start (f, &twm))
        return;
      g_string_truncate (f->err, 0);
      xrecord_spawn (f, options, "xterm", NULL);
      while (!placing)
        {
          struct pollfd pfd = { .fd = ConnectionNumber (f->dpy), .events = POLLIN };
          int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
          XEvent ev;

          if (XPending (f->dpy) == 0 && (left <= 0 || poll (&pfd, 1, left) <= 0))
            g_error ("twm did not start placing xterm's window within %d ms", WAIT_MS);
          XNextEvent (f->dpy, &ev);
          placing = ev.type == MapNotify && ev.xmap.event == DefaultRootWindow (f->dpy);
        }
      sent = g_get_monotonic_time ();
      kill (f->xrecord, signals[i]);
      status = xrecord_wait (f);
      g_test_message ("%s: xrecord ended %" G_GINT64_FORMAT " ms after it",
                      proc_signal_name (signals[i]), (g_get_monotonic_time () - sent) / 1000);
      twm_stop (twm);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 128 + signals[i]);
      session = load_log (f);
      g_assert_cmpint (session_get_outcome (session).kind, ==, SESSION_OUTCOME_NONE);
      /* (xterm's shell, in a session of its own, ends on its terminal's
       * SIGHUP.) */
      g_assert_cmpuint (test_orphans_gone (f->xvfb.pid, WAIT_MS), ==, 0);
    }
}

/* What the app started outside its process group, and left running when
 * it ended (a program it ran with setsid; a terminal's shell, had it
 * not ended on the hangup), goes with xrecord. */
static void
test_record_escaped (Fixture *f, gconstpointer data)
{
  const char *const options[] = { "--display", f->display, NULL };
  const char *const app_args[] = {
    "-c", "setsid sh -c 'echo app: escaped >&2; exec sleep 600' & exec sleep 600", NULL
  };
  int status;

  test_become_subreaper ();
  xrecord_spawn (f, options, "/bin/sh", app_args);
  /* In a session of its own now: a kill of the app's group misses it. */
  g_assert_true (read_err_until (f, "app: escaped"));
  kill (f->xrecord, SIGTERM);
  status = xrecord_wait (f);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (f->err->str, "\nxrecord: ended 1 process the app had started and "
                                         "left running outside its process group\n"));
  /* Nothing of the app's comes to us, the subreaper above xrecord (but
   * xrecord's keeper, which ends a moment after it). */
  g_assert_cmpuint (test_orphans_gone (f->xvfb.pid, WAIT_MS), ==, 0);
}

int
main (int argc, char **argv)
{
  static const char *const no_xres[] = { "X-Resource", NULL };

  g_test_init (&argc, &argv, NULL);
  test_shard_init (argc, argv);
#define ADD(path, func) \
  if (test_shard_mine ()) \
    g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/record/crash", test_record_crash);
  ADD ("/record/no-pid", test_record_no_pid);
  ADD ("/record/glx", test_record_glx);
  ADD ("/record/nothing-of-the-app", test_record_nothing_of_the_app);
  if (test_shard_mine ())
    g_test_add ("/record/no-xres", Fixture, no_xres, fixture_setup, test_record_no_xres,
                fixture_teardown);
  if (test_shard_mine ())
    g_test_add ("/record/no-xres-no-pid", Fixture, no_xres, fixture_setup,
                test_record_no_xres_no_pid, fixture_teardown);
  ADD ("/record/focus-elsewhere", test_record_focus_elsewhere);
  ADD ("/record/rebound-key", test_record_rebound_key);
  ADD ("/record/sigkill", test_record_sigkill);
  ADD ("/record/headless-stop-key", test_record_headless_stop_key);
  ADD ("/record/nested-xephyr", test_record_nested);
  ADD ("/record/bad-input", test_record_bad_input);
  ADD ("/record/never-mapped", test_record_never_mapped);
  ADD ("/record/signal-while-placing", test_record_signal_while_placing);
  ADD ("/record/escaped", test_record_escaped);
  return g_test_run ();
}
